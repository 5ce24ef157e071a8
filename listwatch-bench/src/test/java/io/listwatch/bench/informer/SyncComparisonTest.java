package io.listwatch.bench.informer;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.bench.Report;
import java.util.List;
import org.junit.jupiter.api.Test;

class SyncComparisonTest {

  private static SyncResult run(String client, String holds, long syncMs, long cpuMs, long heapBytes, long events) {
    String line = InformerSyncRun.RESULT_PREFIX + "syncNanos=" + syncMs * 1_000_000 + " hasSyncedNanos=1"
        + " syncStartEpochMicros=1 cached=1000 baselineBytes=100 heapAfterBytes=" + (100 + heapBytes)
        + " cpuSyncNanos=" + cpuMs * 1_000_000 + " cpuTotalNanos=1 gcCount=2 gcMillis=3 eventsReceived=" + events
        + " eventsExpected=100 eventsNanos=5000000 holds=" + holds.replace(' ', '\u00a0') + " describe=x";
    return SyncResult.parse(client, 1000, line);
  }

  @Test
  void everyComparison_namesWhatEachSideHolds_andRecordsTheSpeedUpAsAFigure() {
    Report report = new Report("informer-sync");
    SyncComparison c = new SyncComparison(report, List.of(1000), List.of("listwatch", "listwatch-typed", "fabric8"),
        List.of(run("listwatch", "DynamicObject (JSON bytes + parsed metadata)", 100, 200, 1_000_000, 100),
            run("listwatch-typed", "fabric8 Pod (typed, via JacksonCodec)", 250, 500, 5_000_000, 100),
            run("fabric8", "fabric8 Pod (typed)", 300, 600, 6_000_000, 100)));
    c.summarize();
    c.verdicts(3, 0.3333);

    assertThat(report.verdicts()).contains(
        "target at 1,000 pods, listwatch (DynamicObject (JSON bytes + parsed metadata)) vs fabric8 (fabric8 Pod "
            + "(typed)): sync >= 3x faster: MET (3.00x); heap <= 0.33 of theirs: MET (0.17)");
    assertThat(report.verdicts()).anyMatch(v -> v.startsWith("target at 1,000 pods, listwatch-typed (fabric8 Pod "
        + "(typed, via JacksonCodec)) vs fabric8 (fabric8 Pod (typed)): sync >= 3x faster: MISSED (1.20x)"));
    assertThat(report.figures()).containsEntry("informer.speedup.fabric8.pods1000", 3.0)
        .containsEntry("informer.speedupTyped.fabric8.pods1000", 1.2)
        .containsEntry("informer.listwatchTyped.pods1000.syncMs.median", 250.0)
        .containsEntry("informer.fabric8.pods1000.heapBytesPerPod", 6000.0);
  }

  @Test
  void anInformerThatMissedUpdatesAfterItsSync_isReportedShort() {
    Report report = new Report("informer-sync");
    SyncComparison c = new SyncComparison(report, List.of(1000), List.of("official"),
        List.of(run("official", "V1Pod (typed)", 300, 600, 6_000_000, 97)));
    c.summarize();
    c.verdicts(3, 0.3333);

    assertThat(report.verdicts()).contains("events after sync at 1,000 pods, official: SHORT (FAILED) "
        + "(received/expected 97/100 (SHORT) in 5 ms; one run)");
    assertThat(report.figures()).containsEntry("informer.official.pods1000.eventsReceived", 97.0);
  }
}
