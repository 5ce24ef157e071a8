package io.listwatch.apiserver.strategy;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
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
    int slash = cidr.indexOf('/');
    if (slash < 0 || slash != cidr.lastIndexOf('/')) {
      return 0;
    }
    String ip = cidr.substring(0, slash);
    String bits = cidr.substring(slash + 1);
    if (bits.isEmpty() || bits.length() > 3 || !bits.chars().allMatch(Character::isDigit)) {
      return 0;
    }
    int prefix = Integer.parseInt(bits);
    if (isIpv4(ip)) {
      return prefix <= 32 ? 4 : 0;
    }
    return isIpv6(ip) && prefix <= 128 ? 6 : 0;
  }

  private static boolean isIpv4(String ip) {
    String[] parts = ip.split("\\.", -1);
    if (parts.length != 4) {
      return false;
    }
    for (String p : parts) {
      if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(Character::isDigit) || Integer.parseInt(p) > 255) {
        return false;
      }
    }
    return true;
  }

  private static boolean isIpv6(String ip) {
    if (!ip.contains(":") || ip.contains("%") || ip.contains("[")) {
      return false;
    }
    try {
      return InetAddress.getByName(ip) instanceof Inet6Address || ip.startsWith("::ffff:");
    } catch (UnknownHostException | SecurityException e) {
      return false;
    }
  }
}
