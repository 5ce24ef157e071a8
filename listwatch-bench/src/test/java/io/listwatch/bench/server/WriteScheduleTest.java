package io.listwatch.bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class WriteScheduleTest {

  private static final long MS = 1_000_000;

  private static long value(Histogram h, double percentile) {
    return h.lowestEquivalentValue(h.getValueAtPercentile(percentile));
  }

  @Test
  void slots_followTheFixedSchedule_writersInterleaved() {
    // 4 writers at 1,000 writes/s in all: each every 4 ms, writer 1 a millisecond after writer 0
    WriteSchedule writer1 = new WriteSchedule(100 * MS, 0, 1_000, 1, 4);

    assertThat(writer1.paced()).isTrue();
    assertThat(writer1.nextSlot()).isEqualTo(101 * MS);
    assertThat(writer1.nextSlot()).isEqualTo(105 * MS);
    assertThat(writer1.nextSlot()).isEqualTo(109 * MS);
  }

  @Test
  void aLateWrite_countsItsLatencyFromItsSlot_notFromWhenItLeft() {
    // one writer at 1,000 writes/s: slots at 0, 1, 2 ms; the first answer takes 5 ms, so the
    // second write (due at 1 ms) leaves at 5 ms and is answered at 5.5 ms
    WriteSchedule s = new WriteSchedule(0, 0, 1_000, 0, 1);
    long first = s.nextSlot();
    s.answered(first, first, 5 * MS);
    long second = s.nextSlot();
    s.answered(second, 5 * MS, 5 * MS + MS / 2);

    assertThat(second).isEqualTo(MS);
    assertThat(s.latencies.getTotalCount()).isEqualTo(2);
    assertThat(value(s.latencies, 0)).as("the late write: 5.5 ms - 1 ms, not 0.5 ms")
        .isBetween(4_495_000L, 4_500_000L);
    assertThat(value(s.latencies, 100)).isBetween(4_995_000L, 5_000_000L);
    assertThat(value(s.lateness, 100)).as("it left 4 ms late").isBetween(3_996_000L, 4_000_000L);
  }

  @Test
  void aWatcher_countsALateWritesLatencyFromTheSlotStampedInThePod() {
    // the write due at 1 ms left at 5 ms, stamped with its slot; its event arrives at 6 ms
    // (the patch's annotation reads as the event's: the marker, then the stamp)
    byte[] event = Pods.sentPatch(MS, 7);
    WatchTally tally = new WatchTally(Pods.MARKER, 0);
    tally.recordSentBetween(0, 10 * MS);
    SeenWrites watch = tally.watch();

    tally.event(watch, event, event.length, 6 * MS);

    assertThat(value(tally.latencies(), 100)).as("6 ms - 1 ms").isBetween(4_995_000L, 5_000_000L);
    assertThat(watch.has(7)).isTrue();
  }

  @Test
  void writesDueBeforeTheWindow_areNotRecorded() {
    WriteSchedule s = new WriteSchedule(0, 2 * MS, 1_000, 0, 1);
    for (int k = 0; k < 3; k++) {
      long slot = s.nextSlot();
      s.answered(slot, slot, slot + MS);
    }

    assertThat(s.latencies.getTotalCount()).as("only the write due at 2 ms").isEqualTo(1);
  }

  @Test
  void closedLoop_hasNoSlots_andNoLateness() {
    WriteSchedule s = new WriteSchedule(0, 0, 0, 3, 8);
    s.answered(10 * MS, 10 * MS, 12 * MS);

    assertThat(s.paced()).isFalse();
    assertThat(value(s.latencies, 100)).isBetween(1_998_000L, 2_000_000L);
    assertThat(s.lateness.getTotalCount()).isZero();
  }
}
