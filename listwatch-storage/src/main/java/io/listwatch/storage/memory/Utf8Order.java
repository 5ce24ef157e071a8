package io.listwatch.storage.memory;

import java.util.Comparator;

/**
 * Orders strings as the store orders keys: by their UTF-8 bytes, unsigned, which for
 * well-formed strings is code point order. {@link String#compareTo} compares UTF-16 units
 * instead and puts U+E000..U+FFFF after the supplementary characters; this comparator moves
 * the surrogates above them, without encoding anything.
 *
 * <p>Defined for well-formed UTF-16 (every key, prefix and start key the store accepts is
 * checked by {@link io.listwatch.storage.Keys}). Stateless and thread-safe.
 */
final class Utf8Order implements Comparator<String> {

  static final Utf8Order INSTANCE = new Utf8Order();

  private Utf8Order() {
  }

  @Override
  public int compare(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        return Integer.compare(rank(x), rank(y));
      }
    }
    return Integer.compare(a.length(), b.length());
  }

  /**
   * A UTF-16 unit's place in code point order, at the first unit where two strings differ:
   * U+E000..U+FFFF move down by 0x800 and surrogates (the supplementary characters) move
   * above them. Two differing low surrogates keep their order, as their pairs' code points do.
   */
  private static int rank(char c) {
    if (c < 0xD800) {
      return c;
    }
    return c >= 0xE000 ? c - 0x800 : c + 0x2000;
  }
}
