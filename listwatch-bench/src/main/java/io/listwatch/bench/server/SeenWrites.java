package io.listwatch.bench.server;

import java.util.Arrays;

/**
 * What one watch of a fan-out point received, by write: the sequence number each write's pod
 * carries ({@link Pods#sentPatch}) marked in a bitset, the events that repeated a number
 * already marked, and a fingerprint of the order in which the distinct numbers arrived
 * ({@code f = f * P + seq + 1} over 64 bits, so any two numbers swapped change it). With the
 * writes the server acknowledged ({@link AckedWrites}), {@link DeliveryCheck} tells from these
 * whether the watch got every write once, in the server's order, with no gap.
 *
 * <p>Costs one bit per write of the point per watch (1,000 watches of 100,000 writes: 12.5 MB)
 * and nothing allocated per event: the bitset doubles when a number beyond it arrives.
 *
 * <p>Not thread-safe: confined to the thread that reads the watch; read by the check once
 * that thread has ended.
 */
final class SeenWrites {

  /** The fingerprint's multiplier: odd, with its bits spread (the 64-bit golden ratio). */
  private static final long ORDER_MULTIPLIER = 0x9E3779B97F4A7C15L;

  private long[] bits = new long[64];
  private long distinct;
  private long duplicates;
  private int firstDuplicate = -1;
  private long order;
  private boolean endedByServer;

  /** The event of write {@code seq} (>= 0) arrived. */
  void saw(int seq) {
    int word = seq >>> 6;
    if (word >= bits.length) {
      bits = Arrays.copyOf(bits, Math.max(word + 1, bits.length * 2));
    }
    long bit = 1L << seq; // the shift distance is taken mod 64
    if ((bits[word] & bit) != 0) {
      duplicates++;
      if (firstDuplicate < 0) {
        firstDuplicate = seq;
      }
      return;
    }
    bits[word] |= bit;
    distinct++;
    order = extend(order, seq);
  }

  /** The order fingerprint {@code f} extended by {@code seq}. */
  static long extend(long f, int seq) {
    return f * ORDER_MULTIPLIER + seq + 1;
  }

  boolean has(int seq) {
    int word = seq >>> 6;
    return word < bits.length && (bits[word] & (1L << seq)) != 0;
  }

  /** Word {@code i} of the bitset (0 beyond it). */
  long word(int i) {
    return i < bits.length ? bits[i] : 0;
  }

  int words() {
    return bits.length;
  }

  /** Distinct writes seen. */
  long distinct() {
    return distinct;
  }

  /** Events that repeated a write already seen. */
  long duplicates() {
    return duplicates;
  }

  /** The first write seen twice, or -1. */
  int firstDuplicate() {
    return firstDuplicate;
  }

  /**
   * The server ended this watch while the point ran (it drops a watcher that falls too far
   * behind, as kube does): it must then hold a gapless prefix of the writes, not all of them.
   */
  void endedByServer() {
    endedByServer = true;
  }

  boolean wasEndedByServer() {
    return endedByServer;
  }

  /** The fingerprint of the distinct writes in the order they arrived. */
  long order() {
    return order;
  }
}
