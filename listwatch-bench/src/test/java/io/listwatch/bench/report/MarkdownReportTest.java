package io.listwatch.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.bench.Report;
import io.listwatch.bench.ResultTable;
import io.listwatch.bench.StorageBenchmark;
import io.listwatch.bench.informer.InformerSyncBenchmark;
import io.listwatch.bench.server.FanOutBenchmark;
import io.listwatch.bench.server.ListBenchmark;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MarkdownReportTest {

  private static final Provenance PROVENANCE = new Provenance("./listwatch bench report --quick", true,
      "0123456789abcdef-dirty", "2026-11-28 23:50 UTC", "2 processors (Test CPU), Linux");

  @TempDir
  Path out;

  @Test
  void write_printsTargetsCommandsAndTables_andDrawsPngPlots_fromTheSuitesFigures() throws IOException {
    Report fanout = new Report("server-fanout");
    fanout.table(new ResultTable("Fan-out", "transport", "p99 ms").row("http1", "4.20"));
    fanout.verdict("target >= 500,000 deliveries/s with 1,000 watchers over http1: MET (600,000/s)");
    for (String t : List.of("http1", "wsTls", "h2Tls")) {
      fanout.figure("fanout." + t + ".w100.r1000.p50Ms.run1", 1.5);
      fanout.figure("fanout." + t + ".w100.r1000.p99Ms.run1", 9.1);
      fanout.figure("fanout." + t + ".w100.r1000.p99Ms.run2", 3.9);
      fanout.figure("fanout." + t + ".w100.r1000.p99Ms.run3", 4.2);
    }
    fanout.figure("fanout.http1.w1000.rMax.deliveriesPerSecond.run1", 600_000);
    fanout.figure("fanout.wsTls.w1000.rMax.deliveriesPerSecond.run1", 240_000);
    fanout.figure("fanout.ceiling.w1000.deliveriesPerSecond", 1_000_000);
    Report list = new Report("server-list");
    list.figure("list.pods10000.parsedMs.median", 21);
    list.figure("list.pods100000.parsedMs.median", 180);
    list.figure("list.pods100000.heapRatio", 1.85);
    List<SuiteRun> runs = List.of(run(FanOutBenchmark.class, fanout, 0), run(ListBenchmark.class, list, 0));

    String md = Files.readString(new MarkdownReport(PROVENANCE, runs).write(out));

    assertThat(md).contains("## Targets", "| 1 | p99 write-to-watcher", "4.20 (3.90–9.10) ms", "<= 5 ms")
        .contains("40% (240,000 / 600,000)") // WebSocket of HTTP/1.1: missed
        .contains("60% (600,000 / 1,000,000)") // of the raw ceiling: met
        .contains("| 4 | heap per cached object over its JSON, 100,000 pods | 1.85x | <= 1.5x | **MISSED** |")
        .contains("| 6 | full list of 100,000 pods, body parsed by the reader, median | 180 ms | <= 200 ms | met |")
        .contains("not measured (no `informer.speedup.fabric8.pods10000`)")
        .contains("Command: `./listwatch bench server-fanout --quick-args`", "Command: `./listwatch bench server-list")
        .contains("**Fan-out**", "| http1 | 4.20 |", "**Run conditions", "- target >= 500,000 deliveries/s")
        .contains("commit `0123456789abcdef-dirty`", "2 processors (Test CPU)")
        .contains("](report/fanout-latency.png)", "](report/fanout-deliveries.png)", "](report/list-time.png)");
    for (String png : List.of("fanout-latency.png", "fanout-deliveries.png", "list-time.png")) {
      Path file = out.resolve("report").resolve(png);
      assertThat(Files.readAllBytes(file)).startsWith(0x89, 'P', 'N', 'G');
      BufferedImage image = ImageIO.read(file.toFile());
      assertThat(image.getWidth()).isGreaterThanOrEqualTo(900);
    }
  }

  @Test
  void write_skipsAPlotWhoseFiguresAreMissing_andRemovesTheStalePngOfAnEarlierRun() throws IOException {
    Path plots = Files.createDirectories(out.resolve("report"));
    Files.write(plots.resolve("fanout-latency.png"), new byte[] {1, 2, 3});
    Report fanout = new Report("server-fanout");
    fanout.figure("fanout.http1.w1000.rMax.deliveriesPerSecond.run1", 600_000);

    String md = Files.readString(new MarkdownReport(PROVENANCE, List.of(run(FanOutBenchmark.class, fanout, 0)))
        .write(out));

    assertThat(md).contains("](report/fanout-deliveries.png)").doesNotContain("fanout-latency.png")
        .contains("| 1 | p99 write-to-watcher, 1,000 writes/s to 100 watchers, HTTP/1.1, open-loop | "
            + "not measured (no `fanout.http1.w100.r1000.p99Ms`) | <= 5 ms | not measured |");
    try (var files = Files.list(plots)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("fanout-deliveries.png");
    }
  }

  @Test
  void write_reportsAFailedSuite_andStillWritesTheOthers() throws IOException {
    Report storage = new Report("storage");
    storage.figure("storage.rocksdb.w1.createsPerSecond", 3_000);
    storage.figure("storage.rocksdb.w64.createsPerSecond", 30_000);
    List<SuiteRun> runs = List.of(
        new SuiteRun(suite(InformerSyncBenchmark.class), List.of("--pods", "10000"), 2, 1.0, Optional.empty()),
        run(StorageBenchmark.class, storage, 0));

    String md = Files.readString(new MarkdownReport(PROVENANCE, runs).write(out));

    assertThat(md).contains("## informer-sync", "**FAILED** with exit code 2", "## storage")
        .contains("](report/storage-creates.png)", "| rocksdb | 3,000 | 30,000 |");
    assertThat(out.resolve("report/storage-creates.png")).isRegularFile();
  }

  private static SuiteRun run(Class<? extends io.listwatch.bench.BenchmarkCommand> type, Report report, int exit) {
    return new SuiteRun(suite(type), List.of("--quick-args"), exit, 12.0, Optional.of(report));
  }

  private static Suite suite(Class<? extends io.listwatch.bench.BenchmarkCommand> type) {
    return new Suite(type, List.of("--quick-args"), List.of());
  }
}
