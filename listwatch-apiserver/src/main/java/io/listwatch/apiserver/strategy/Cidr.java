package io.listwatch.apiserver.strategy;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * An IP network as kube reads one ({@code netutils.ParseCIDRSloppy}: an IPv4 or IPv6 address,
 * leading zeros in IPv4 octets allowed, a slash and a prefix length): the network's first
 * address, its width and its prefix. Immutable.
 */
record Cidr(BigInteger network, int bits, int prefix) {

  private static final Pattern IPV4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");

  /** The network {@code s} denotes, or empty if it is not a CIDR. */
  static Optional<Cidr> parse(String s) {
    int slash = s.indexOf('/');
    if (slash < 0 || !s.substring(slash + 1).matches("[0-9]{1,3}")) {
      return Optional.empty();
    }
    Optional<byte[]> ip = parseIp(s.substring(0, slash));
    if (ip.isEmpty()) {
      return Optional.empty();
    }
    int bits = ip.get().length * 8;
    int prefix = Integer.parseInt(s.substring(slash + 1));
    if (prefix > bits) {
      return Optional.empty();
    }
    BigInteger address = new BigInteger(1, ip.get());
    BigInteger mask = BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE)
        .xor(BigInteger.ONE.shiftLeft(bits - prefix).subtract(BigInteger.ONE));
    return Optional.of(new Cidr(address.and(mask), bits, prefix));
  }

  /** An IP address literal (never a host name: nothing is looked up), or empty. */
  static Optional<byte[]> parseIp(String s) {
    try {
      if (IPV4.matcher(s).matches()) {
        byte[] b = new byte[4];
        String[] parts = s.split("\\.");
        for (int i = 0; i < 4; i++) {
          int v = Integer.parseInt(parts[i]);
          if (v > 255) {
            return Optional.empty();
          }
          b[i] = (byte) v;
        }
        return Optional.of(b);
      }
      if (s.contains(":") && s.matches("[0-9a-fA-F:.]+")) {
        byte[] b = InetAddress.getByName(s).getAddress();
        if (b.length == 4) { // an IPv4-mapped IPv6 address: Go keeps 16 bytes
          byte[] mapped = new byte[16];
          mapped[10] = (byte) 0xff;
          mapped[11] = (byte) 0xff;
          System.arraycopy(b, 0, mapped, 12, 4);
          return Optional.of(mapped);
        }
        return Optional.of(b);
      }
    } catch (UnknownHostException | NumberFormatException e) {
      return Optional.empty();
    }
    return Optional.empty();
  }

  /** Whether {@code other} is a strictly smaller network inside this one (kube's ipBlock {@code except} rule). */
  boolean strictlyContains(Cidr other) {
    if (other.bits != bits || other.prefix <= prefix) {
      return false;
    }
    return other.network.shiftRight(bits - prefix).equals(network.shiftRight(bits - prefix));
  }
}
