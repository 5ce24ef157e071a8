/**
 * {@code bench report}: runs every benchmark suite and writes docs/report.md and its plots from
 * that one run.
 *
 * <ul>
 *   <li>{@link io.listwatch.bench.report.ReportCommand}: the command ({@code --quick},
 *       {@code --out}, {@code --suites}, {@code --dry-run}).
 *   <li>{@code SuitePlan} and {@code Suite}: the suites and their exact arguments per mode.
 *   <li>{@code Figures} and {@code Figure}: the named figures the suites record
 *       ({@link io.listwatch.bench.Report#figure}), with their spread ({@code K.median},
 *       {@code K.min}, {@code K.max}).
 *   <li>{@code Targets} and {@code Target}: step 11's targets judged on those figures.
 *   <li>{@code Plots}, {@code PlotSpec}, {@code PlotData}, {@code PlotRenderer}: the plots, each
 *       defined by the figure keys it matches, drawn headless with XChart.
 *   <li>{@code MarkdownReport} and {@code Provenance}: the Markdown and what every figure carries
 *       (command, commit, date, machine).
 * </ul>
 */
package io.listwatch.bench.report;
