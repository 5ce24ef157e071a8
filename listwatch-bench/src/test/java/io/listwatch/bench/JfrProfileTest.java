package io.listwatch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import jdk.jfr.Recording;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JfrProfileTest {

  private static final List<JfrProfile.Kind> KINDS = List.of(
      JfrProfile.Kind.of("spinning", "io.listwatch.bench.JfrProfileTest#spin"),
      JfrProfile.Kind.of("around the spin", "io.listwatch.bench.JfrProfileTest#aroundSpin"));

  @TempDir
  static Path dir;
  private static Path recording;
  private static JfrProfile.Window burning;

  /** Records this JVM while a thread named burner-1 spends 1.5 s of CPU in spin(), called from aroundSpin(). */
  @BeforeAll
  static void recordABurn() throws Exception {
    recording = dir.resolve("burn.jfr");
    try (Recording r = new Recording()) {
      r.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
      r.enable("jdk.ObjectAllocationSample").withThreshold(Duration.ZERO);
      r.start();
      Instant from = Instant.now();
      Thread burner = Thread.ofPlatform().name("burner-1").start(() -> aroundSpin(System.nanoTime() + 1_500_000_000L));
      burner.join();
      burning = new JfrProfile.Window(from, Instant.now());
      r.stop();
      r.dump(recording);
    }
  }

  @Test
  void theKindListedFirst_winsOverTheCodeThatCallsIt_andTheBurnerDominates() throws Exception {
    JfrProfile.Counts c = JfrProfile.count(List.of(recording), KINDS, List.of(burning)).get(0);

    assertThat(c.samples()).isPositive();
    assertThat(c.source()).isEqualTo("execution and native samples");
    assertThat(c.percent("spinning")).isGreaterThan(50);
    assertThat(c.percent("spinning")).isGreaterThan(c.percent("around the spin"));
    assertThat(c.byKind().keySet()).containsExactly("spinning", "around the spin", JfrProfile.OTHER);
    assertThat(c.topThreads(1).get(0).getKey()).isEqualTo("burner-N");
    assertThat(c.topAllocationSites(1).get(0).getKey()).isEqualTo("JfrProfileTest.spin");
  }

  @Test
  void aWindowBeforeTheRecording_countsNothing() throws Exception {
    Instant before = burning.from().minusSeconds(60);
    JfrProfile.Counts c = JfrProfile.count(List.of(recording), KINDS,
        List.of(new JfrProfile.Window(before, before.plusSeconds(1)))).get(0);

    assertThat(c.samples()).isZero();
    assertThat(c.allocatedBytes()).isZero();
  }

  private static void aroundSpin(long until) {
    long sink = 0;
    while (System.nanoTime() < until) {
      sink += spin();
    }
    if (sink == 42) {
      System.out.println(sink);
    }
  }

  /** Where spin() keeps its arrays, so that they escape and are allocated (about 1 GB/s). */
  private static final byte[][] KEPT = new byte[16][];

  /** Spends CPU and allocates, in a frame of its own. */
  private static long spin() {
    long sum = 0;
    for (int i = 0; i < 1_000; i++) {
      byte[] b = new byte[256];
      b[i & 255] = (byte) i;
      KEPT[i & 15] = b;
      sum += b[(i * 7) & 255];
    }
    return sum;
  }
}
