package io.listwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GcLogTest {

  @Test
  void g1Pauses_areCounted_fromTheirSafepoints_andOtherSafepointsAreNot() {
    GcLog.Pauses p = GcLog.parse("""
        [1.663s][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 15M->4M(256M) 44.984ms
        [1.674s][safepoint] Safepoint "G1CollectForAllocation", Time since last: 1495860274 ns, Reaching safepoint: 5822 ns, At safepoint: 45125098 ns, Leaving safepoint: 10878121 ns, Total: 56009041 ns, Threads: 0 runnable, 10 total
        [1.700s][safepoint] Safepoint "Cleanup", Time since last: 1000 ns, Reaching safepoint: 10 ns, At safepoint: 20 ns, Leaving safepoint: 30 ns, Total: 2000000 ns, Threads: 0 runnable, 10 total
        [1.993s][gc] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 16M->6M(256M) 59.288ms
        [1.994s][safepoint] Safepoint "G1CollectForAllocation", Time since last: 259439398 ns, Reaching safepoint: 12204 ns, At safepoint: 59367681 ns, Leaving safepoint: 1061130 ns, Total: 60441015 ns, Threads: 0 runnable, 10 total
        [2.0""");
    assertThat(p.gcPauses()).isEqualTo(2);
    assertThat(p.gcNanos()).isEqualTo(56_009_041L + 60_441_015L);
    assertThat(p.gcMaxNanos()).isEqualTo(60_441_015L);
    assertThat(p.safepoints()).isEqualTo(3);
    assertThat(p.safepointNanos()).isEqualTo(56_009_041L + 60_441_015L + 2_000_000L);
    assertThat(p.heapAfterGcMiB()).isEqualTo(6);
  }

  @Test
  void zgcPauses_areItsMarkAndRelocateSafepoints() {
    GcLog.Pauses p = GcLog.parse("""
        [1.821s][safepoint] Safepoint "ZMarkStartYoungAndOld", Time since last: 912377148 ns, Reaching safepoint: 2839839 ns, At safepoint: 132660 ns, Leaving safepoint: 1890251 ns, Total: 4862750 ns, Threads: 1 runnable, 10 total
        [1.884s][safepoint] Safepoint "ZRelocateStartYoung", Time since last: 11860061 ns, Reaching safepoint: 4076370 ns, At safepoint: 38503 ns, Leaving safepoint: 11261 ns, Total: 4126134 ns, Threads: 1 runnable, 10 total
        [1.937s][gc] GC(0) Major Collection (Warmup) 26M(10%)->20M(8%) 0.121s
        [1.942s][safepoint] Safepoint "CleanClassLoaderDataMetaspaces", Time since last: 166254 ns, Reaching safepoint: 246046 ns, At safepoint: 89951 ns, Leaving safepoint: 4431372 ns, Total: 4767369 ns, Threads: 1 runnable, 10 total
        """);
    assertThat(p.gcPauses()).isEqualTo(2);
    assertThat(p.gcNanos()).isEqualTo(4_862_750L + 4_126_134L);
    assertThat(p.safepoints()).isEqualTo(3);
    assertThat(p.heapAfterGcMiB()).isEqualTo(20);
  }
}
