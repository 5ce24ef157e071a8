package io.listwatch.client.internal;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Shares equal strings that many objects repeat (namespaces, kinds, label keys and values),
 * so a cache of 100,000 objects keeps one copy of {@code "default"} instead of 100,000.
 *
 * <p>Bounded: once it holds {@link #MAX_SIZE} strings it stops adding and returns new
 * strings as they are, so unique values (uids, names) cannot grow it without limit; it never
 * forgets, which suits values that repeat across a cluster's lifetime. Thread-safe.
 */
public final class Interner {

  /** The most strings kept. */
  static final int MAX_SIZE = 65_536;
  /** Longer strings are rarely repeated and not worth a lookup. */
  static final int MAX_LENGTH = 128;

  private static final ConcurrentHashMap<String, String> STRINGS = new ConcurrentHashMap<>(1024);

  private Interner() {
  }

  /** The shared instance equal to {@code s}, or {@code s} itself. Null stays null. */
  public static String intern(String s) {
    if (s == null || s.length() > MAX_LENGTH) {
      return s;
    }
    String shared = STRINGS.get(s);
    if (shared != null) {
      return shared;
    }
    if (STRINGS.size() >= MAX_SIZE) {
      return s;
    }
    shared = STRINGS.putIfAbsent(s, s);
    return shared == null ? s : shared;
  }
}
