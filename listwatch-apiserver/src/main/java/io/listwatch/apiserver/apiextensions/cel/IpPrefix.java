package io.listwatch.apiserver.apiextensions.cel;

import io.listwatch.apiserver.validation.FieldErrors;

/**
 * An IP network in CIDR notation as Go's {@code net/netip.Prefix} reads and prints it, the
 * value of kube's CEL type {@code net.CIDR}: an address and a prefix length, the address kept as
 * written ({@code 192.168.0.1/24} is not masked; {@link #masked} masks it). {@link #parse}
 * follows {@code netip.ParsePrefix}'s rules and error texts. Equal when address and length are.
 * Immutable; thread-safe.
 *
 * @param addr the address as written
 * @param bits the prefix length
 */
record IpPrefix(IpAddr addr, int bits) {

  /** {@code netip.ParsePrefix}: the prefix, or an exception with Go's message. */
  static IpPrefix parse(String in) {
    int slash = in.lastIndexOf('/');
    if (slash < 0) {
      throw error(in, "no '/'");
    }
    IpAddr addr;
    try {
      addr = IpAddr.parse(in.substring(0, slash));
    } catch (IllegalArgumentException e) {
      throw error(in, e.getMessage());
    }
    if (!addr.is4() && addr.hasZone()) {
      throw error(in, "IPv6 zones cannot be present in a prefix");
    }
    String bits = in.substring(slash + 1);
    String bad = "bad bits after slash: " + FieldErrors.goQuote(bits);
    if (bits.isEmpty() || bits.length() > 18 || !bits.chars().allMatch(c -> c >= '0' && c <= '9')
        || (bits.length() > 1 && bits.charAt(0) == '0')) {
      throw error(in, bad);
    }
    long n = Long.parseLong(bits);
    if (n > addr.bitLen()) {
      throw error(in, "prefix length out of range");
    }
    return new IpPrefix(addr, (int) n);
  }

  private static IllegalArgumentException error(String in, String msg) {
    return new IllegalArgumentException(
        "netip.ParsePrefix(" + FieldErrors.goQuote(in) + "): " + msg);
  }

  /** The prefix with the bits after the prefix length cleared ({@code Prefix.Masked}). */
  IpPrefix masked() {
    byte[] b = addr.bytes();
    for (int i = 0; i < b.length; i++) {
      int keep = Math.clamp(bits - 8L * i, 0, 8);
      b[i] &= (byte) (0xff00 >> keep);
    }
    return new IpPrefix(IpAddr.of(b), bits);
  }

  /** Whether {@code ip} (of the same family, without zone) is in this network. */
  boolean contains(IpAddr ip) {
    if (ip.hasZone() || ip.bitLen() != addr.bitLen()) {
      return false;
    }
    return new IpPrefix(ip, bits).masked().equals(masked());
  }

  /**
   * Whether {@code other} lies inside this network: same family, a prefix at least as long, and
   * its address in this network (kube's {@code containsCIDR} as fixed by kubernetes#130450).
   */
  boolean contains(IpPrefix other) {
    return bits <= other.bits && contains(other.addr);
  }

  @Override
  public String toString() {
    return addr + "/" + bits;
  }
}
