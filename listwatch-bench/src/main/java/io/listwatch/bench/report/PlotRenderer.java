package io.listwatch.bench.report;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * Draws a {@link PlotSpec}'s figures as a PNG bar chart with XChart, headless: bars at the
 * figure (the median of the runs), whiskers reaching the farther of the least and greatest run
 * when the run recorded them, and a footer under the chart with the provenance lines (command,
 * commit, machine, spread), so the picture carries them wherever it is copied. Stateless;
 * thread-safe.
 */
final class PlotRenderer {

  private static final int WIDTH = 960;
  private static final int HEIGHT = 480;
  private static final int LINE = 15;
  private static final int WRAP = 150;

  static {
    System.setProperty("java.awt.headless", "true");
  }

  private PlotRenderer() {
  }

  /** Writes {@code data}, drawn as {@code spec} says, with {@code footer} under it, to {@code file}. */
  static void render(PlotSpec spec, PlotData data, List<String> footer, Path file) throws IOException {
    CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(spec.title())
        .xAxisTitle(spec.xAxis()).yAxisTitle(spec.yAxis()).build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE)
        .setChartBackgroundColor(Color.WHITE).setAntiAlias(true);
    chart.getStyler().setYAxisLogarithmic(spec.logY()).setErrorBarsColorSeriesColor(true)
        .setPlotGridVerticalLinesVisible(false).setYAxisDecimalPattern("#,##0.##");
    chart.getStyler().setLegendVisible(data.series().size() > 1 || spec.keys().pattern().contains("?<series>"));
    List<String> labels = data.xs().stream().map(PlotData::label).toList();
    double lowest = Double.MAX_VALUE;
    for (Map.Entry<String, Map<String, Figure>> s : data.series().entrySet()) {
      List<Double> ys = new ArrayList<>();
      List<Double> errors = new ArrayList<>();
      for (String x : data.xs()) {
        Figure f = s.getValue().get(x);
        // A category the series lacks: no bar. XChart's whiskers take no null, so on a linear axis
        // it is a bar of 0, and on a log axis (no 0) a null, and the series then has no whiskers.
        ys.add(f != null ? Double.valueOf(f.value()) : spec.logY() ? null : Double.valueOf(0));
        errors.add(f == null ? 0 : whisker(f));
        if (f != null && f.value() > 0) {
          lowest = Math.min(lowest, f.value());
        }
      }
      chart.addSeries(s.getKey(), labels, ys, whiskers(spec, data) && !ys.contains(null) ? errors : null);
    }
    if (spec.logY()) {
      // bars start at the axis' minimum, which XChart takes as 0 unless told: a decade below the lowest
      chart.getStyler().setYAxisMin(lowest == Double.MAX_VALUE ? 1 : Math.pow(10, Math.floor(Math.log10(lowest))));
    }
    BufferedImage plot = BitmapEncoder.getBufferedImage(chart);
    List<String> lines = wrap(footer);
    BufferedImage image = new BufferedImage(plot.getWidth(), plot.getHeight() + LINE * lines.size() + 10,
        BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, image.getWidth(), image.getHeight());
      g.drawImage(plot, 0, 0, null);
      g.setColor(Color.DARK_GRAY);
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
      int y = plot.getHeight() + LINE;
      for (String line : lines) {
        g.drawString(line, 8, y);
        y += LINE;
      }
    } finally {
      g.dispose();
    }
    if (!ImageIO.write(image, "png", file.toFile())) {
      throw new IOException("no PNG writer for " + file);
    }
  }

  /**
   * Whether the plot draws whiskers: when it has a spread, on a linear axis only (XChart 3.8.8
   * draws whiskers on a log axis at the wrong length; there the spread is in the table beside).
   */
  static boolean whiskers(PlotSpec spec, PlotData data) {
    return data.hasSpread() && !spec.logY();
  }

  /** The whisker's half-length: to the farther of min and max. */
  private static double whisker(Figure f) {
    return f.hasSpread() ? Math.max(f.value() - f.min().getAsDouble(), f.max().getAsDouble() - f.value()) : 0;
  }

  private static List<String> wrap(List<String> footer) {
    List<String> lines = new ArrayList<>();
    for (String line : footer) {
      String rest = line;
      while (rest.length() > WRAP) {
        int cut = rest.lastIndexOf(' ', WRAP);
        cut = cut <= 0 ? WRAP : cut;
        lines.add(rest.substring(0, cut));
        rest = "    " + rest.substring(cut).strip();
      }
      lines.add(rest);
    }
    return lines;
  }
}
