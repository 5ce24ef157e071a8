package io.listwatch.client.internal;

/**
 * Shares equal strings that many objects repeat (namespaces, kinds, label keys and values),
 * so a cache of 100,000 objects keeps one copy of {@code "default"} instead of 100,000.
 *
 * <p>A fixed table of {@link #SLOTS} strings, indexed by hash: a string found in its slot is
 * shared, any other replaces what the slot held. So memory stays bounded, unique values
 * (a StatefulSet pod's name label, a Job's controller-uid) only ever cost a slot for a
 * while, and values that keep repeating keep being shared: a full table never stops working,
 * it only forgets the strings nobody asks for again.
 *
 * <p>Thread-safe: slots are read and written without locks. A racing writer can only cost a
 * missed share (two equal copies), never a wrong answer: a slot's string is returned only
 * when it equals the argument, and strings are immutable, so a racily published one is
 * still seen whole.
 */
public final class Interner {

  /** Table size (a power of two). */
  static final int SLOTS = 1 << 16;
  /** Longer strings are rarely repeated and not worth a lookup. */
  static final int MAX_LENGTH = 128;

  private static final String[] TABLE = new String[SLOTS];

  private Interner() {
  }

  /** The shared instance equal to {@code s}, or {@code s} itself. Null stays null. */
  public static String intern(String s) {
    if (s == null || s.length() > MAX_LENGTH) {
      return s;
    }
    int h = s.hashCode();
    int slot = (h ^ (h >>> 16)) & (SLOTS - 1);
    String shared = TABLE[slot];
    if (shared != null && shared.equals(s)) {
      return shared;
    }
    TABLE[slot] = s;
    return s;
  }
}
