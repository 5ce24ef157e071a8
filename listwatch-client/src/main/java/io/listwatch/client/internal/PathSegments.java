package io.listwatch.client.internal;

import java.nio.charset.StandardCharsets;

/** Percent-encodes URL path segments (RFC 3986: everything but unreserved characters). Stateless. */
final class PathSegments {

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private PathSegments() {
  }

  static String encode(String segment) {
    if (segment.equals(".") || segment.equals("..")) {
      throw new IllegalArgumentException("not a valid name: " + segment);
    }
    StringBuilder out = null;
    byte[] bytes = segment.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < bytes.length; i++) {
      int b = bytes[i] & 0xff;
      boolean unreserved = (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
          || b == '-' || b == '.' || b == '_' || b == '~';
      if (unreserved) {
        if (out != null) {
          out.append((char) b);
        }
      } else {
        if (out == null) {
          out = new StringBuilder(segment.length() + 8);
          for (int j = 0; j < i; j++) {
            out.append((char) bytes[j]);
          }
        }
        out.append('%').append(HEX[b >> 4]).append(HEX[b & 0xf]);
      }
    }
    return out == null ? segment : out.toString();
  }
}
