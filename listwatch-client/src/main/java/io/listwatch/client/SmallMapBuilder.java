package io.listwatch.client;

import java.util.HashMap;
import java.util.Map;

/**
 * Collects the string entries of a JSON object (labels, annotations) and builds the same
 * unmodifiable map {@code Map.copyOf} of a {@code HashMap} filled in that order would: a later
 * entry with an equal key replaces the earlier value. Up to {@value #INLINE} entries are kept
 * in an array and handed to {@code Map.of}, with no {@code HashMap} on the way (objects rarely
 * have more labels than that, and decoding a list makes one such map per object); beyond that
 * it falls back to a {@code HashMap}.
 *
 * <p>Confined to the decoding thread; one builder per map.
 */
final class SmallMapBuilder {

  static final int INLINE = 10;

  /** key0, value0, key1, value1, ... for the first {@code size} entries. */
  private final String[] kv = new String[2 * INLINE];
  private int size;
  /** Every entry once there are more than {@link #INLINE} distinct keys; null until then. */
  private HashMap<String, String> overflow;

  /** Adds an entry; a key seen before gets the new value. Neither may be null. */
  void put(String key, String value) {
    if (overflow != null) {
      overflow.put(key, value);
      return;
    }
    for (int i = 0; i < size; i++) {
      if (kv[2 * i].equals(key)) {
        kv[2 * i + 1] = value;
        return;
      }
    }
    if (size == INLINE) {
      overflow = HashMap.newHashMap(2 * INLINE);
      for (int i = 0; i < size; i++) {
        overflow.put(kv[2 * i], kv[2 * i + 1]);
      }
      overflow.put(key, value);
      return;
    }
    kv[2 * size] = key;
    kv[2 * size + 1] = value;
    size++;
  }

  /** The entries as an unmodifiable map ({@code Map.of()} when there are none). */
  Map<String, String> build() {
    if (overflow != null) {
      return Map.copyOf(overflow);
    }
    String[] a = kv;
    return switch (size) {
      case 0 -> Map.of();
      case 1 -> Map.of(a[0], a[1]);
      case 2 -> Map.of(a[0], a[1], a[2], a[3]);
      case 3 -> Map.of(a[0], a[1], a[2], a[3], a[4], a[5]);
      case 4 -> Map.of(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
      case 5 -> Map.of(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9]);
      case 6 -> Map.of(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11]);
      case 7 -> Map.of(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13]);
      case 8 -> Map.of(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13],
          a[14], a[15]);
      case 9 -> Map.of(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13],
          a[14], a[15], a[16], a[17]);
      default -> Map.of(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13],
          a[14], a[15], a[16], a[17], a[18], a[19]);
    };
  }
}
