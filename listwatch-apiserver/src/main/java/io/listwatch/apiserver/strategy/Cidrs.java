package io.listwatch.apiserver.strategy;

import java.util.List;

/**
 * kube's reading of CIDRs ({@code netutils.ParseCIDRSloppy}): an IPv4 address (leading zeros
 * allowed) or an IPv6 address, a slash, and a prefix length within the family's bits; and its
 * dual-stack test (one CIDR of each family). Stateless.
 */
final class Cidrs {

  private Cidrs() {
  }

  /** Whether {@code cidr} is a CIDR kube accepts. */
  static boolean isValid(String cidr) {
    return family(cidr) != 0;
  }

  /** Whether {@code cidrs} are valid and of both families, at least one of each. */
  static boolean isDualStack(List<String> cidrs) {
    boolean v4 = false;
    boolean v6 = false;
    for (String c : cidrs) {
      int f = family(c);
      v4 |= f == 4;
      v6 |= f == 6;
    }
    return v4 && v6;
  }

  /** 4 or 6 for a valid CIDR of that family, 0 for an invalid one. */
  static int family(String cidr) {
    return Cidr.parse(cidr).map(c -> c.bits() == 32 ? 4 : 6).orElse(0);
  }
}
