package io.listwatch.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A short chaos run on one server on its embedded store (server JVMs of our own: a unit test):
 * 35 s of SIGKILLs and SIGSTOPs, and every check of the history passes, including that faults
 * were injected and writes acknowledged. {@code ChaosRunEtcdTest} runs the etcd topology.
 */
class ChaosRunTest {

  @Test
  void embeddedStore_underKillsAndPauses_keepsEveryGuarantee(@TempDir Path dir) throws Exception {
    assertPasses(Topology.Kind.EMBEDDED, dir);
  }

  /** Runs {@code kind} for 35 s and asserts that every check passed; the summary is the failure message. */
  static void assertPasses(Topology.Kind kind, Path dir) throws Exception {
    ChaosRun.Result r = ChaosRun.run(kind, Duration.ofSeconds(35), dir.resolve("data"), dir.resolve("history.jsonl"),
        System.nanoTime(), new PrintStream(System.out, true, StandardCharsets.UTF_8));
    System.out.print(r.summary());
    assertThat(r.passed()).as(r.summary()).isTrue();
    assertThat(r.history().faults()).hasSizeGreaterThanOrEqualTo(2);
  }
}
