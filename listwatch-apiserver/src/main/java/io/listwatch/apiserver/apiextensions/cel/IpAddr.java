package io.listwatch.apiserver.apiextensions.cel;

import io.listwatch.apiserver.validation.FieldErrors;
import java.util.Arrays;

/**
 * An IPv4 or IPv6 address as Go's {@code net/netip.Addr} reads and prints it, the value of
 * kube's CEL type {@code net.IP}: {@link #parse} follows {@code netip.ParseAddr}'s rules and
 * error texts (no leading zeros in IPv4 octets, at most 4 hex digits per IPv6 group, one
 * {@code ::}, an embedded IPv4 only as the last 32 bits); {@link #toString} is
 * {@code Addr.String()}, the canonical form (RFC 5952: lower-case hex, the longest run of two
 * or more zero groups as {@code ::}). Zones are read (so that kube can refuse them) but not
 * kept. Two addresses are equal when their family and bytes are. Stricter than the fields'
 * {@link io.listwatch.apiserver.validation.IpAddresses} ({@code netutils.ParseIPSloppy}, which
 * allows leading zeros and has no messages), as kube's CEL library is. Immutable; thread-safe.
 */
final class IpAddr {

  private final byte[] bytes;
  private final boolean hasZone;

  private IpAddr(byte[] bytes, boolean hasZone) {
    this.bytes = bytes;
    this.hasZone = hasZone;
  }

  /** An address from its 4 or 16 bytes. */
  static IpAddr of(byte[] bytes) {
    return new IpAddr(bytes.clone(), false);
  }

  /** {@code netip.ParseAddr}: the address, or an exception with Go's message. */
  static IpAddr parse(String in) {
    for (int i = 0; i < in.length(); i++) {
      switch (in.charAt(i)) {
        case '.' -> {
          byte[] out = new byte[4];
          parseIpv4Fields(in, 0, in.length(), out, 0);
          return new IpAddr(out, false);
        }
        case ':' -> {
          return parseIpv6(in);
        }
        case '%' -> throw error(in, "missing IPv6 address", null);
        default -> {
          // keep looking for the character that tells the family
        }
      }
    }
    throw error(in, "unable to parse IP", null);
  }

  private static void parseIpv4Fields(String in, int off, int end, byte[] out, int at) {
    String s = in.substring(off, end);
    int val = 0;
    int pos = 0;
    int digits = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= '0' && c <= '9') {
        if (digits == 1 && val == 0) {
          throw error(in, "IPv4 field has octet with leading zero", null);
        }
        val = val * 10 + (c - '0');
        digits++;
        if (val > 255) {
          throw error(in, "IPv4 field has value >255", null);
        }
      } else if (c == '.') {
        if (i == 0 || i == s.length() - 1 || s.charAt(i - 1) == '.') {
          throw error(in, "IPv4 field must have at least one digit", s.substring(i));
        }
        if (pos == 3) {
          throw error(in, "IPv4 address too long", null);
        }
        out[at + pos++] = (byte) val;
        val = 0;
        digits = 0;
      } else {
        throw error(in, "unexpected character", s.substring(i));
      }
    }
    if (pos < 3) {
      throw error(in, "IPv4 address too short", null);
    }
    out[at + 3] = (byte) val;
  }

  private static IpAddr parseIpv6(String in) {
    String s = in;
    String zone = "";
    int percent = s.indexOf('%');
    if (percent >= 0) {
      zone = s.substring(percent + 1);
      s = s.substring(0, percent);
      if (zone.isEmpty()) {
        throw error(in, "zone must be a non-empty string", null);
      }
    }
    byte[] ip = new byte[16];
    int ellipsis = -1;
    if (s.startsWith("::")) {
      ellipsis = 0;
      s = s.substring(2);
      if (s.isEmpty()) {
        return new IpAddr(ip, !zone.isEmpty());
      }
    }
    int i = 0;
    while (i < 16) {
      int off = 0;
      int acc = 0;
      for (; off < s.length(); off++) {
        int d = Character.digit(s.charAt(off), 16);
        if (d < 0 || s.charAt(off) > 'f') {
          break;
        }
        acc = (acc << 4) + d;
        if (off > 3) {
          throw error(in, "each group must have 4 or less digits", s);
        }
        if (acc > 0xffff) {
          throw error(in, "IPv6 field has value >=2^16", s);
        }
      }
      if (off == 0) {
        throw error(in, "each colon-separated field must have at least one digit", s);
      }
      if (off < s.length() && s.charAt(off) == '.') {
        if (ellipsis < 0 && i != 12) {
          throw error(in, "embedded IPv4 address must replace the final 2 fields of the address",
              s);
        }
        if (i + 4 > 16) {
          throw error(in,
              "too many hex fields to fit an embedded IPv4 at the end of the address", s);
        }
        int end = in.length() - (zone.isEmpty() ? 0 : zone.length() + 1);
        parseIpv4Fields(in, end - s.length(), end, ip, i);
        s = "";
        i += 4;
        break;
      }
      ip[i] = (byte) (acc >> 8);
      ip[i + 1] = (byte) acc;
      i += 2;
      s = s.substring(off);
      if (s.isEmpty()) {
        break;
      }
      if (s.charAt(0) != ':') {
        throw error(in, "unexpected character, want colon", s);
      } else if (s.length() == 1) {
        throw error(in, "colon must be followed by more characters", s);
      }
      s = s.substring(1);
      if (s.charAt(0) == ':') {
        if (ellipsis >= 0) {
          throw error(in, "multiple :: in address", s);
        }
        ellipsis = i;
        s = s.substring(1);
        if (s.isEmpty()) {
          break;
        }
      }
    }
    if (!s.isEmpty()) {
      throw error(in, "trailing garbage after address", s);
    }
    if (i < 16) {
      if (ellipsis < 0) {
        throw error(in, "address string too short", null);
      }
      int n = 16 - i;
      System.arraycopy(ip, ellipsis, ip, ellipsis + n, i - ellipsis);
      Arrays.fill(ip, ellipsis, ellipsis + n, (byte) 0);
    } else if (ellipsis >= 0) {
      throw error(in, "the :: must expand to at least one field of zeros", s);
    }
    return new IpAddr(ip, !zone.isEmpty());
  }

  private static IllegalArgumentException error(String in, String msg, String at) {
    return new IllegalArgumentException("ParseAddr(" + FieldErrors.goQuote(in) + "): " + msg
        + (at == null ? "" : " (at " + FieldErrors.goQuote(at) + ")"));
  }

  /** The address's 4 or 16 bytes (a copy). */
  byte[] bytes() {
    return bytes.clone();
  }

  /** 32 for IPv4, 128 for IPv6. */
  int bitLen() {
    return bytes.length * 8;
  }

  boolean is4() {
    return bytes.length == 4;
  }

  /** Whether the text had a zone ({@code fe80::1%eth0}). */
  boolean hasZone() {
    return hasZone;
  }

  /** An IPv6 address of the form {@code ::ffff:a.b.c.d}. */
  boolean is4In6() {
    if (is4()) {
      return false;
    }
    for (int i = 0; i < 10; i++) {
      if (bytes[i] != 0) {
        return false;
      }
    }
    return (bytes[10] & 0xff) == 0xff && (bytes[11] & 0xff) == 0xff;
  }

  boolean isUnspecified() {
    for (byte b : bytes) {
      if (b != 0) {
        return false;
      }
    }
    return true;
  }

  /** IPv4 127.0.0.0/8, IPv6 {@code ::1}. */
  boolean isLoopback() {
    if (is4()) {
      return u8(0) == 127;
    }
    for (int i = 0; i < 15; i++) {
      if (bytes[i] != 0) {
        return false;
      }
    }
    return bytes[15] == 1;
  }

  /** IPv4 224.0.0.0/4, IPv6 ff00::/8. */
  boolean isMulticast() {
    return is4() ? (u8(0) & 0xf0) == 0xe0 : u8(0) == 0xff;
  }

  /** IPv4 224.0.0.0/24, IPv6 ff02::/16 (link-local scope, any flags). */
  boolean isLinkLocalMulticast() {
    return is4() ? u8(0) == 224 && u8(1) == 0 && u8(2) == 0
        : u8(0) == 0xff && (u8(1) & 0x0f) == 0x02;
  }

  /** IPv4 169.254.0.0/16, IPv6 fe80::/10. */
  boolean isLinkLocalUnicast() {
    return is4() ? u8(0) == 169 && u8(1) == 254 : u8(0) == 0xfe && (u8(1) & 0xc0) == 0x80;
  }

  /**
   * Go's rule: not unspecified, not the IPv4 broadcast, not loopback, multicast or link-local
   * unicast (private ranges are global unicast).
   */
  boolean isGlobalUnicast() {
    if (is4() && u8(0) == 255 && u8(1) == 255 && u8(2) == 255 && u8(3) == 255) {
      return false;
    }
    return !isUnspecified() && !isLoopback() && !isMulticast() && !isLinkLocalUnicast();
  }

  private int u8(int i) {
    return bytes[i] & 0xff;
  }

  private int u16(int group) {
    return (u8(2 * group) << 8) | u8(2 * group + 1);
  }

  @Override
  public String toString() {
    if (is4()) {
      return u8(0) + "." + u8(1) + "." + u8(2) + "." + u8(3);
    }
    if (is4In6()) {
      return "::ffff:" + u8(12) + "." + u8(13) + "." + u8(14) + "." + u8(15);
    }
    int zeroStart = -1;
    int zeroLength = 0;
    for (int i = 0; i < 8; i++) {
      int j = i;
      while (j < 8 && u16(j) == 0) {
        j++;
      }
      if (j - i >= 2 && j - i > zeroLength) {
        zeroStart = i;
        zeroLength = j - i;
      }
    }
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 8; i++) {
      if (i == zeroStart) {
        b.append("::");
        i += zeroLength - 1;
        continue;
      }
      if (i > 0 && b.charAt(b.length() - 1) != ':') {
        b.append(':');
      }
      b.append(Integer.toHexString(u16(i)));
    }
    return b.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof IpAddr other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }
}
