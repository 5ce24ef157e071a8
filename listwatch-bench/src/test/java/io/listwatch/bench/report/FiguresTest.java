package io.listwatch.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FiguresTest {

  @Test
  void aFigure_isItsValueOrMedian_withTheSpreadWhenMinAndMaxWereRecorded() {
    Map<String, Double> recorded = new LinkedHashMap<>();
    recorded.put("list.pods100000.parsedMs.median", 181.4);
    recorded.put("list.pods100000.parsedMs.min", 170.0);
    recorded.put("list.pods100000.parsedMs.max", 230.6);
    recorded.put("list.pods100000.heapRatio", 1.853);
    Figures figures = new Figures(recorded);

    assertThat(figures.get("list.pods100000.parsedMs").orElseThrow().text()).isEqualTo("181 (170–231)");
    assertThat(figures.get("list.pods100000.heapRatio").orElseThrow().text()).isEqualTo("1.85");
    assertThat(figures.get("list.pods10000.parsedMs")).isEmpty();
    assertThat(figures.keys()).containsExactly("list.pods100000.parsedMs", "list.pods100000.heapRatio");
  }

  @Test
  void aSuitesRuns_areReadAsTheirMedianAndSpread() {
    Map<String, Double> recorded = new LinkedHashMap<>();
    recorded.put("fanout.http1.w100.r1000.p99Ms.run1", 9.0);
    recorded.put("fanout.http1.w100.r1000.p99Ms.run2", 4.0);
    recorded.put("fanout.http1.w100.r1000.p99Ms.run3", 5.0);
    recorded.put("fanout.ws.w100.r1000.p99Ms.run1", 6.0);
    recorded.put("fanout.ws.w100.r1000.p99Ms.run2", 8.0);
    Figures figures = new Figures(recorded);

    assertThat(figures.get("fanout.http1.w100.r1000.p99Ms").orElseThrow().text()).isEqualTo("5.00 (4.00–9.00)");
    assertThat(figures.get("fanout.ws.w100.r1000.p99Ms").orElseThrow().value()).as("mean of the middle two")
        .isEqualTo(7.0);
    assertThat(figures.keys()).containsExactly("fanout.http1.w100.r1000.p99Ms", "fanout.ws.w100.r1000.p99Ms");
  }

  @Test
  void aPlot_takesItsCategoriesAndSeriesFromTheKeys_numbersAscending() {
    Figures figures = new Figures(Map.of("informer.fabric8.pods100000.syncMs", 9000.0,
        "informer.listwatch.pods10000.syncMs", 300.0, "informer.listwatch.pods100000.syncMs", 3000.0,
        "informer.speedup.fabric8.pods100000", 3.0));
    PlotSpec sync = Plots.ALL.stream().filter(p -> p.file().equals("informer-sync.png")).findFirst().orElseThrow();

    PlotData data = sync.data(figures);

    assertThat(data.xs()).containsExactly("10000", "100000");
    assertThat(data.series().keySet()).containsExactlyInAnyOrder("fabric8", "listwatch");
    assertThat(data.toMarkdown("pods")).contains("| pods | 10,000 | 100,000 |", "| fabric8 | - | 9,000 |");
  }
}
