package io.listwatch.apiserver.allocation;

import java.util.BitSet;

/**
 * kube's {@code allocator.AllocationBitmap}: which of a range's {@code size} items (offsets 0
 * to size-1) are taken. A new item is the first free one at or above the range's
 * {@code dynamicOffset} (kube's upper band, for dynamic allocation), then the first free one
 * below it (the lower band, which kube leaves for requested values while it can). kube picks
 * at random within a band; this picks the lowest free one, which is as correct (allocation is
 * serialized by the stored range's compare-and-swap) and keeps the stored bitmap short.
 *
 * <p>Not thread-safe: each instance belongs to one read-modify-write of a {@link StoredRange}.
 */
final class AllocationBitmap {

  private final int size;
  private final int dynamicOffset;
  private final BitSet bits;

  AllocationBitmap(int size, int dynamicOffset, BitSet bits) {
    this.size = size;
    this.dynamicOffset = dynamicOffset;
    this.bits = bits;
  }

  /** Whether {@code offset} is taken. */
  boolean has(int offset) {
    return bits.get(offset);
  }

  /** Takes {@code offset}; false if it was taken. */
  boolean allocate(int offset) {
    if (bits.get(offset)) {
      return false;
    }
    bits.set(offset);
    return true;
  }

  /** Takes the next free item (see the class); -1 when the range is full. */
  int allocateNext() {
    int free = bits.nextClearBit(dynamicOffset);
    if (free >= size) {
      free = bits.nextClearBit(0);
      if (free >= dynamicOffset || free >= size) {
        return -1;
      }
    }
    bits.set(free);
    return free;
  }

  /** Gives {@code offset} back; nothing if it was free. */
  void release(int offset) {
    bits.clear(offset);
  }

  /** How many items are taken. */
  int count() {
    return bits.cardinality();
  }

  /** The taken items, as stored ({@link BitSet#toByteArray()}: bit i is item i). */
  byte[] toBytes() {
    return bits.toByteArray();
  }

  BitSet bits() {
    return bits;
  }
}
