package io.listwatch.apiserver.validation;

import io.listwatch.api.Status;
import java.util.List;

/**
 * IP address syntax as kube reads it ({@code netutils.ParseIPSloppy}: dotted IPv4, leading
 * zeros allowed, or IPv6 text) and kube's field checks of an address: {@code IsValidIP},
 * {@code IsValidIPv4Address}, {@code IsValidIPv6Address} and {@code ValidateNonSpecialIP}.
 * Never resolves a name. Stateless and thread-safe.
 */
public final class IpAddresses {

  private IpAddresses() {
  }

  /**
   * The address's bytes (4 for IPv4, 16 for IPv6; an IPv4-mapped IPv6 text gives 16), or null
   * when {@code text} is not an IP address.
   */
  public static byte[] parse(String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    return text.indexOf(':') >= 0 ? parseV6(text) : parseV4(text);
  }

  /** Whether {@code text} is an IPv4 address (dotted, not an IPv4-mapped IPv6 text). */
  public static boolean isIpv4(String text) {
    byte[] b = parse(text);
    return b != null && b.length == 4;
  }

  private static byte[] parseV4(String text) {
    String[] parts = text.split("\\.", -1);
    if (parts.length != 4) {
      return null;
    }
    byte[] out = new byte[4];
    for (int i = 0; i < 4; i++) {
      String p = parts[i];
      if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
        return null;
      }
      int v = Integer.parseInt(p);
      if (v > 255) {
        return null;
      }
      out[i] = (byte) v;
    }
    return out;
  }

  private static byte[] parseV6(String text) {
    if (!text.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == ':' || c == '.')) {
      return null; // no zone, no brackets: and nothing InetAddress could resolve as a name
    }
    String s = text;
    byte[] tail = null;
    int lastColon = s.lastIndexOf(':');
    if (s.indexOf('.') >= 0) {
      tail = parseV4(s.substring(lastColon + 1));
      if (tail == null) {
        return null;
      }
      s = s.substring(0, lastColon + 1) + "0:0";
    }
    int dbl = s.indexOf("::");
    if (dbl >= 0 && s.indexOf("::", dbl + 1) >= 0) {
      return null;
    }
    String[] head = dbl >= 0 ? split(s.substring(0, dbl)) : split(s);
    String[] rest = dbl >= 0 ? split(s.substring(dbl + 2)) : new String[0];
    if (head == null || rest == null) {
      return null;
    }
    int groups = head.length + rest.length;
    if (dbl >= 0 ? groups > 7 : groups != 8) {
      return null;
    }
    byte[] out = new byte[16];
    for (int i = 0; i < head.length; i++) {
      put(out, i, head[i]);
    }
    for (int i = 0; i < rest.length; i++) {
      put(out, 8 - rest.length + i, rest[i]);
    }
    if (tail != null) {
      System.arraycopy(tail, 0, out, 12, 4);
    }
    return out;
  }

  private static String[] split(String s) {
    if (s.isEmpty()) {
      return new String[0];
    }
    String[] parts = s.split(":", -1);
    for (String p : parts) {
      if (p.isEmpty() || p.length() > 4) {
        return null;
      }
    }
    return parts;
  }

  private static void put(byte[] out, int group, String hex) {
    int v = Integer.parseInt(hex, 16);
    out[2 * group] = (byte) (v >> 8);
    out[2 * group + 1] = (byte) v;
  }

  /** kube's {@code IsValidIP}: adds {@code must be a valid IP address, ...} when {@code value} is not one. */
  public static boolean checkIp(String path, String value, List<Status.Cause> errors) {
    if (parse(value) == null) {
      errors.add(FieldErrors.invalid(path, value, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"));
      return false;
    }
    return true;
  }

  /** kube's {@code IsValidIPv4Address}. */
  public static boolean checkIpv4(String path, String value, List<Status.Cause> errors) {
    if (!isIpv4(value)) {
      errors.add(FieldErrors.invalid(path, value, "must be a valid IPv4 address"));
      return false;
    }
    return true;
  }

  /** kube's {@code IsValidIPv6Address}. */
  public static boolean checkIpv6(String path, String value, List<Status.Cause> errors) {
    byte[] b = parse(value);
    if (b == null || b.length != 16 || value.indexOf(':') < 0) {
      errors.add(FieldErrors.invalid(path, value, "must be a valid IPv6 address"));
      return false;
    }
    return true;
  }

  /**
   * kube's {@code ValidateNonSpecialIP}, for a valid address: not unspecified, loopback,
   * link-local or link-local multicast.
   */
  public static void checkNonSpecial(String path, String value, List<Status.Cause> errors) {
    byte[] b = parse(value);
    if (b == null) {
      errors.add(FieldErrors.invalid(path, value, "must be a valid IP address"));
      return;
    }
    byte[] v4 = b.length == 4 ? b : mappedV4(b);
    boolean unspecified;
    boolean loopback;
    boolean linkLocal;
    boolean linkLocalMulticast;
    if (v4 != null) {
      int a = v4[0] & 0xff;
      int second = v4[1] & 0xff;
      unspecified = a == 0 && second == 0 && v4[2] == 0 && v4[3] == 0;
      loopback = a == 127;
      linkLocal = a == 169 && second == 254;
      linkLocalMulticast = a == 224 && second == 0 && v4[2] == 0;
    } else {
      boolean zeroUpTo15 = true;
      for (int i = 0; i < 15; i++) {
        zeroUpTo15 &= b[i] == 0;
      }
      unspecified = zeroUpTo15 && b[15] == 0;
      loopback = zeroUpTo15 && b[15] == 1;
      linkLocal = (b[0] & 0xff) == 0xfe && (b[1] & 0xc0) == 0x80;
      linkLocalMulticast = (b[0] & 0xff) == 0xff && (b[1] & 0x0f) == 0x02;
    }
    if (unspecified) {
      errors.add(FieldErrors.invalid(path, value, "may not be unspecified (" + value + ")"));
    }
    if (loopback) {
      errors.add(FieldErrors.invalid(path, value, "may not be in the loopback range (127.0.0.0/8, ::1/128)"));
    }
    if (linkLocal) {
      errors.add(FieldErrors.invalid(path, value, "may not be in the link-local range (169.254.0.0/16, fe80::/10)"));
    }
    if (linkLocalMulticast) {
      errors.add(FieldErrors.invalid(path, value,
          "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"));
    }
  }

  /** The IPv4 address inside an IPv4-mapped IPv6 address ({@code ::ffff:a.b.c.d}), or null. */
  private static byte[] mappedV4(byte[] b) {
    for (int i = 0; i < 10; i++) {
      if (b[i] != 0) {
        return null;
      }
    }
    if ((b[10] & 0xff) != 0xff || (b[11] & 0xff) != 0xff) {
      return null;
    }
    return new byte[] {b[12], b[13], b[14], b[15]};
  }

  /** The address {@code value} of {@code length} bytes (4 or 16) as Go's {@code net.IP.String} prints it. */
  public static String format(java.math.BigInteger value, int length) {
    byte[] raw = value.toByteArray();
    byte[] b = new byte[length];
    int n = Math.min(raw.length, length);
    System.arraycopy(raw, raw.length - n, b, length - n, n);
    if (length == 4) {
      return (b[0] & 0xff) + "." + (b[1] & 0xff) + "." + (b[2] & 0xff) + "." + (b[3] & 0xff);
    }
    int[] groups = new int[8];
    for (int i = 0; i < 8; i++) {
      groups[i] = ((b[2 * i] & 0xff) << 8) | (b[2 * i + 1] & 0xff);
    }
    int bestStart = -1;
    int bestLen = 1; // Go compresses runs of two or more zero groups
    for (int i = 0; i < 8; ) {
      int j = i;
      while (j < 8 && groups[j] == 0) {
        j++;
      }
      if (j - i > bestLen) {
        bestStart = i;
        bestLen = j - i;
      }
      i = j == i ? i + 1 : j;
    }
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < 8; i++) {
      if (i == bestStart) {
        out.append("::");
        i += bestLen - 1;
        continue;
      }
      if (out.length() > 0 && out.charAt(out.length() - 1) != ':') {
        out.append(':');
      }
      out.append(Integer.toHexString(groups[i]));
    }
    return out.toString();
  }
}
