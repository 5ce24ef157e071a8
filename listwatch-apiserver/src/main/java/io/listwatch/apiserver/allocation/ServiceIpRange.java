package io.listwatch.apiserver.allocation;

import io.listwatch.apiserver.validation.IpAddresses;
import java.math.BigInteger;
import java.util.Objects;

/**
 * A Service cluster IP range ({@code --service-cluster-ip-range}, kube's default
 * {@code 10.96.0.0/12}) as kube's bitmap IP allocator numbers it: item 0 is the address after
 * the network address, and an IPv4 range leaves out its broadcast address. Ranges are limited
 * as kube-apiserver limits them: at most 20 host bits. The dynamic band starts at kube's
 * {@code min(max(16, size/16), 256)} (0 for ranges of 16 addresses or fewer). Immutable.
 */
public final class ServiceIpRange {

  /** kube-apiserver's default {@code --service-cluster-ip-range}. */
  public static final String DEFAULT = "10.96.0.0/12";

  private final String cidr;
  private final BigInteger base;
  private final boolean ipv4;
  private final int size;
  private final int dynamicOffset;

  private ServiceIpRange(String cidr, BigInteger network, boolean ipv4, int hostBits) {
    this.cidr = cidr;
    this.ipv4 = ipv4;
    this.base = network.add(BigInteger.ONE);
    long addresses = 1L << hostBits;
    this.size = (int) Math.max(0, addresses - (ipv4 ? 2 : 1));
    this.dynamicOffset = addresses <= 16 ? 0 : (int) Math.min(Math.max(16, addresses / 16), 256);
  }

  /**
   * Parses {@code cidr} ({@code 10.96.0.0/12}, {@code fd00::/108}).
   *
   * @throws IllegalArgumentException when it is not a CIDR or has more than 20 host bits
   */
  public static ServiceIpRange parse(String cidr) {
    Objects.requireNonNull(cidr, "cidr");
    int slash = cidr.indexOf('/');
    byte[] ip = slash < 0 ? null : IpAddresses.parse(cidr.substring(0, slash));
    if (ip == null) {
      throw new IllegalArgumentException("not a CIDR: " + cidr);
    }
    int bits = ip.length * 8;
    int prefix;
    try {
      prefix = Integer.parseInt(cidr.substring(slash + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a CIDR: " + cidr, e);
    }
    if (prefix < 0 || prefix > bits) {
      throw new IllegalArgumentException("not a CIDR: " + cidr);
    }
    if (bits - prefix > 20) {
      throw new IllegalArgumentException("specified " + cidr + " is too large; for " + bits
          + "-bit addresses, the mask must be >= " + (bits - 20));
    }
    BigInteger value = new BigInteger(1, ip);
    BigInteger network = value.shiftRight(bits - prefix).shiftLeft(bits - prefix);
    String text = IpAddresses.format(network, ip.length) + "/" + prefix;
    return new ServiceIpRange(text, network, ip.length == 4, bits - prefix);
  }

  /** The item of {@code ip} in this range, or -1 when it is not in it (or not of its family). */
  int offset(String ip) {
    byte[] b = IpAddresses.parse(ip);
    if (b == null || (b.length == 4) != ipv4) {
      return -1;
    }
    BigInteger off = new BigInteger(1, b).subtract(base);
    return off.signum() < 0 || off.compareTo(BigInteger.valueOf(size)) >= 0 ? -1 : off.intValue();
  }

  /** The address of item {@code offset}. */
  String address(int offset) {
    return IpAddresses.format(base.add(BigInteger.valueOf(offset)), ipv4 ? 4 : 16);
  }

  /** The range's first address (item 0), kube's {@code default/kubernetes} Service's cluster IP. */
  public String firstAddress() {
    return address(0);
  }

  /** {@code IPv4} or {@code IPv6}: the family of the Services this range serves. */
  public String family() {
    return ipv4 ? "IPv4" : "IPv6";
  }

  int size() {
    return size;
  }

  int dynamicOffset() {
    return dynamicOffset;
  }

  /** The CIDR as kube prints it ({@code 10.96.0.0/12}). */
  @Override
  public String toString() {
    return cidr;
  }
}
