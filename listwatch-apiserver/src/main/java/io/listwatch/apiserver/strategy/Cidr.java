package io.listwatch.apiserver.strategy;

import java.math.BigInteger;
import java.util.Optional;

/**
 * An IP network as kube reads one ({@code netutils.ParseCIDRSloppy}: an IPv4 or IPv6 address,
 * leading zeros in IPv4 octets allowed, a slash and a prefix length): the network's first
 * address, its width and its prefix. Immutable.
 */
record Cidr(BigInteger network, int bits, int prefix) {

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

  /**
   * kube 1.32's {@code IsValidCIDR} (apimachinery, before 1.33's strict forms): adds
   * {@code must be a valid CIDR value, ...} at {@code path} unless {@code value} parses;
   * returns whether it did.
   */
  static boolean check(String path, String value, java.util.List<io.listwatch.api.Status.Cause> errors) {
    if (parse(value).isPresent()) {
      return true;
    }
    errors.add(io.listwatch.apiserver.validation.FieldErrors.invalid(path, value,
        "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"));
    return false;
  }

  /** An IP address literal (never a host name: nothing is looked up), or empty. */
  static Optional<byte[]> parseIp(String s) {
    return Optional.ofNullable(io.listwatch.apiserver.validation.IpAddresses.parse(s));
  }

  /** Whether {@code cidrs} are valid CIDRs of both families, at least one of each (kube's dual-stack test). */
  static boolean isDualStack(java.util.List<String> cidrs) {
    java.util.Set<Integer> widths = new java.util.HashSet<>();
    for (String c : cidrs) {
      parse(c).ifPresent(n -> widths.add(n.bits()));
    }
    return widths.contains(32) && widths.contains(128);
  }

  /** Whether {@code other} is a strictly smaller network inside this one (kube's ipBlock {@code except} rule). */
  boolean strictlyContains(Cidr other) {
    if (other.bits != bits || other.prefix <= prefix) {
      return false;
    }
    return other.network.shiftRight(bits - prefix).equals(network.shiftRight(bits - prefix));
  }
}
