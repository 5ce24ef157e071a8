package io.listwatch.client;

/**
 * Compact forms of the metadata strings {@link DynamicObject} keeps for every object: a
 * resourceVersion in canonical decimal as a {@code long}, a uid in canonical lowercase UUID
 * form as two {@code long}s. Each form formats back to exactly the string it came from;
 * anything else is not compacted (the caller keeps the string). Stateless.
 */
final class CompactMeta {

  /** Longer decimals could overflow a long. */
  private static final int MAX_DECIMAL_DIGITS = 18;
  private static final int UUID_LENGTH = 36;

  private CompactMeta() {
  }

  /**
   * The value of {@code s} if it is a canonical decimal ("0", or a digit 1–9 followed by at
   * most 17 digits), which {@link Long#toString(long)} gives back exactly; else -1.
   */
  static long resourceVersion(String s) {
    int n = s.length();
    if (n == 0 || n > MAX_DECIMAL_DIGITS || (s.charAt(0) == '0' && n > 1)) {
      return -1;
    }
    long v = 0;
    for (int i = 0; i < n; i++) {
      int d = s.charAt(i) - '0';
      if (d < 0 || d > 9) {
        return -1;
      }
      v = v * 10 + d;
    }
    return v;
  }

  /**
   * Whether {@code s} is a UUID as {@link java.util.UUID#toString()} writes it: 36 characters,
   * lowercase hex digits in groups of 8-4-4-4-12 separated by dashes.
   */
  static boolean isUuid(String s) {
    if (s.length() != UUID_LENGTH) {
      return false;
    }
    for (int i = 0; i < UUID_LENGTH; i++) {
      char c = s.charAt(i);
      boolean dash = i == 8 || i == 13 || i == 18 || i == 23;
      if (dash ? c != '-' : !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
        return false;
      }
    }
    return true;
  }

  /** The most significant 64 bits of a UUID for which {@link #isUuid} holds. */
  static long uuidHigh(String s) {
    return (hex(s, 0, 8) << 32) | (hex(s, 9, 13) << 16) | hex(s, 14, 18);
  }

  /** The least significant 64 bits of a UUID for which {@link #isUuid} holds. */
  static long uuidLow(String s) {
    return (hex(s, 19, 23) << 48) | hex(s, 24, 36);
  }

  private static long hex(String s, int from, int to) {
    long v = 0;
    for (int i = from; i < to; i++) {
      v = (v << 4) | Character.digit(s.charAt(i), 16);
    }
    return v;
  }
}
