package io.listwatch.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One plot of the report, defined by the figure keys it draws: a bar chart whose bars are the
 * figures whose key (without its statistic, see {@link Figures}) matches {@link #keys}. The
 * pattern's named group {@code x} is the category on the x axis, its group {@code series} the
 * bar's series (one series named after the y axis if the pattern has none). A plot none of
 * whose figures the run recorded is not drawn. Immutable; thread-safe.
 *
 * @param suite the suite whose section shows the plot
 * @param file the PNG's file name, e.g. {@code fanout-latency.png}
 * @param title the chart's title
 * @param xAxis the x axis' title
 * @param yAxis the y axis' title, with the unit
 * @param keys the figure keys drawn, with the groups {@code x} and optionally {@code series}
 * @param logY whether the y axis is logarithmic (for figures that span decades)
 */
record PlotSpec(String suite, String file, String title, String xAxis, String yAxis, Pattern keys, boolean logY) {

  /** The figures of {@code figures} this plot draws, by series and category; empty if none. */
  PlotData data(Figures figures) {
    Map<String, Map<String, Figure>> series = new LinkedHashMap<>();
    List<String> xs = new ArrayList<>();
    boolean named = keys.pattern().contains("?<series>");
    for (String key : figures.keys()) {
      Matcher m = keys.matcher(key);
      if (!m.matches()) {
        continue;
      }
      String x = m.group("x");
      if (!xs.contains(x)) {
        xs.add(x);
      }
      series.computeIfAbsent(named ? m.group("series") : yAxis, s -> new LinkedHashMap<>())
          .put(x, figures.get(key).orElseThrow());
    }
    if (xs.stream().allMatch(x -> x.matches("\\d+"))) {
      xs.sort(java.util.Comparator.comparingLong(Long::parseLong));
    }
    return new PlotData(xs, series);
  }
}
