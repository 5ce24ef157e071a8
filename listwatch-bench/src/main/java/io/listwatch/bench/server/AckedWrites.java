package io.listwatch.bench.server;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The writes of a fan-out point the server acknowledged (HTTP 200): each write's sequence
 * number and the resourceVersion the server answered, which orders the writes as every
 * watch must deliver them; and the writes that got no answer at all, whose outcome is unknown.
 *
 * <p>Not thread-safe: one per writer thread, {@link #addAll merged} once the writers are joined.
 */
final class AckedWrites {

  private static final byte[] RESOURCE_VERSION =
      "\"resourceVersion\":\"".getBytes(StandardCharsets.US_ASCII);

  private int[] seqs = new int[1024];
  private long[] versions = new long[1024];
  private int size;
  private final java.util.BitSet unanswered = new java.util.BitSet();

  /** Write {@code seq} was answered with {@code resourceVersion}. */
  void add(int seq, long resourceVersion) {
    if (size == seqs.length) {
      seqs = Arrays.copyOf(seqs, size * 2);
      versions = Arrays.copyOf(versions, size * 2);
    }
    seqs[size] = seq;
    versions[size] = resourceVersion;
    size++;
  }

  /**
   * Write {@code seq} got no answer (its connection broke or timed out): the server may or may
   * not have applied it, so a watch may or may not deliver it, at a place no resourceVersion
   * tells.
   */
  void unanswered(int seq) {
    unanswered.set(seq);
  }

  /** Whether write {@code seq} got no answer. */
  boolean isUnanswered(int seq) {
    return unanswered.get(seq);
  }

  /** How many writes got no answer. */
  int unansweredCount() {
    return unanswered.cardinality();
  }

  /** Adds every write of {@code other}, which is left unchanged. */
  void addAll(AckedWrites other) {
    for (int i = 0; i < other.size; i++) {
      add(other.seqs[i], other.versions[i]);
    }
    unanswered.or(other.unanswered);
  }

  int size() {
    return size;
  }

  int seq(int i) {
    return seqs[i];
  }

  long resourceVersion(int i) {
    return versions[i];
  }

  /**
   * The first {@code "resourceVersion":"<digits>"} of an object's or a list's JSON (its
   * metadata's: no field before it in a pod carries that name), or -1.
   */
  static long resourceVersionOf(byte[] json) {
    int at = WatchTally.indexOf(json, json.length, RESOURCE_VERSION);
    if (at < 0) {
      return -1;
    }
    long v = 0;
    int digits = 0;
    for (int k = at + RESOURCE_VERSION.length; k < json.length && json[k] >= '0' && json[k] <= '9'; k++) {
      v = v * 10 + (json[k] - '0');
      digits++;
    }
    return digits == 0 ? -1 : v;
  }
}
