package io.listwatch.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The figures one plot draws: categories on the x axis and, per series, the figure of each
 * category it has. Immutable once built; confined to the thread that writes the report.
 *
 * @param xs the categories, in drawing order (numbers ascending)
 * @param series per series name, its figures by category
 */
record PlotData(List<String> xs, Map<String, Map<String, Figure>> series) {

  boolean isEmpty() {
    return xs.isEmpty();
  }

  /** Whether any figure of the plot has a spread of several runs. */
  boolean hasSpread() {
    return series.values().stream().flatMap(m -> m.values().stream()).anyMatch(Figure::hasSpread);
  }

  /** A category as labelled: a number with separators ({@code 100,000}), else as recorded. */
  static String label(String x) {
    return x.matches("\\d+") ? String.format("%,d", Long.parseLong(x)) : x;
  }

  /** The plotted figures as a Markdown table, series by category, with their spread. */
  String toMarkdown(String corner) {
    StringBuilder b = new StringBuilder("| ").append(corner).append(" |");
    xs.forEach(x -> b.append(' ').append(label(x)).append(" |"));
    b.append("\n| --- |");
    xs.forEach(x -> b.append(" ---: |"));
    b.append('\n');
    series.forEach((name, byX) -> {
      List<String> cells = new ArrayList<>();
      for (String x : xs) {
        Figure f = byX.get(x);
        cells.add(f == null ? "-" : f.text());
      }
      b.append("| ").append(name).append(" | ").append(String.join(" | ", cells)).append(" |\n");
    });
    return b.toString();
  }
}
