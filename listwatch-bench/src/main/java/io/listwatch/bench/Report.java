package io.listwatch.bench;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What every benchmark prints, in one format: the command, the machine, the parameters, the
 * result tables, a "Run conditions" table with the CPU of this process and of every other
 * process per phase and the CPU time the hypervisor took (steal), and the verdicts against the
 * targets. Also the JVM measurements the server benchmarks share (heap after GC, process and
 * thread CPU).
 *
 * <p>Not thread-safe: used by the benchmark's main thread.
 */
public final class Report {

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final String name;
  private final List<ResultTable> tables = new ArrayList<>();
  private final ResultTable conditions = new ResultTable(
      "Run conditions: CPU in percent of one core (this machine has "
          + Runtime.getRuntime().availableProcessors() + ")",
      "phase", "seconds", "CPU of this benchmark", "CPU of other processes", "CPU stolen by the hypervisor");
  private final List<String> verdicts = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();
  private final Map<String, Double> figures = new LinkedHashMap<>();
  public final Map<String, String> parameters = new LinkedHashMap<>();

  public Report(String name) {
    this.name = name;
  }

  public ResultTable table(ResultTable t) {
    tables.add(t);
    return t;
  }

  public void verdict(String v) {
    verdicts.add(v);
  }

  public void note(String n) {
    notes.add(n);
  }

  /**
   * Records one named figure of this run for {@code bench report}'s summary and plots, beside
   * the printed tables (which stay what a reader sees). Keys are dotted, lower camel case, from
   * the general to the particular, e.g. {@code fanout.http1.w100.p99Ms} or
   * {@code informer.fabric8.pods10000.syncMs.median}; a unit suffix ({@code Ms}, {@code PerSecond},
   * {@code Bytes}, {@code Ratio}) names the unit. Recording a key again replaces its value.
   */
  public void figure(String key, double value) {
    figures.put(key, value);
  }

  /** The figures recorded so far, in the order first recorded; unmodifiable. */
  public Map<String, Double> figures() {
    return java.util.Collections.unmodifiableMap(figures);
  }

  /** The result tables recorded so far (the run conditions table not among them); unmodifiable. */
  public List<ResultTable> tables() {
    return java.util.Collections.unmodifiableList(tables);
  }

  /** The verdicts against the targets, in the order given; unmodifiable. */
  public List<String> verdicts() {
    return java.util.Collections.unmodifiableList(verdicts);
  }

  /** The "Run conditions" table: the CPU of this benchmark, of other processes and stolen, per phase. */
  public ResultTable conditions() {
    return conditions;
  }

  /** The notes, in the order given; unmodifiable. */
  public List<String> notes() {
    return java.util.Collections.unmodifiableList(notes);
  }

  /** Records the CPU this process and others used during a phase that began at {@code start}. */
  public void phase(String phase, CpuMonitor start) {
    CpuMonitor end = CpuMonitor.now();
    conditions.row(phase, String.format("%.1f", end.secondsSince(start)), end.selfSince(start),
        end.othersSince(start), end.stolenSince(start));
  }

  /**
   * Records a phase during which a child process of this benchmark (e.g. the server's JVM)
   * used {@code childTicks} of CPU ({@link CpuMonitor#processTicks} difference): it counts as
   * this benchmark's, not as another process's.
   */
  public void phase(String phase, CpuMonitor start, long childTicks) {
    CpuMonitor end = CpuMonitor.now();
    long ours = end.selfTicks() - start.selfTicks() + Math.max(0, childTicks);
    long others = Math.max(0, end.machineBusyTicks() - start.machineBusyTicks() - ours);
    double o = end.percentOfCoreSince(start, ours);
    double x = end.percentOfCoreSince(start, others);
    conditions.row(phase, String.format("%.1f", end.secondsSince(start)),
        o < 0 ? "unknown" : String.format("%.0f%%", o), x < 0 ? "unknown" : String.format("%.0f%%", x),
        end.stolenSince(start));
  }

  public void progress(String format, Object... args) {
    System.err.printf("[bench " + name + "] " + format + "%n", args);
  }

  public void print(PrintStream out, CommandSpec spec, MachineInfo machine, boolean markdown) {
    List<String> args = spec.commandLine().getParseResult().originalArgs();
    List<String> own = args.subList(args.indexOf(spec.name()) + 1, args.size());
    String command = "./listwatch bench " + spec.name() + (own.isEmpty() ? "" : " " + String.join(" ", own));
    List<ResultTable> all = new ArrayList<>(tables);
    all.add(conditions);
    if (markdown) {
      out.println("Command: `" + command + "`");
      out.println();
      out.println("Machine: " + machine.oneLine());
      out.println();
      out.println("Parameters: " + String.join("; ", parameters.entrySet().stream()
          .map(e -> e.getKey() + " " + e.getValue()).toList()));
      out.println();
      for (ResultTable t : all) {
        out.println(t.toMarkdown());
      }
      notes.forEach(n -> out.println("- " + n));
      verdicts.forEach(v -> out.println("- " + v));
    } else {
      out.println("command: " + command);
      out.println();
      out.println("machine");
      machine.asMap().forEach((k, v) -> out.printf("  %-22s %s%n", k, v));
      out.println();
      out.println("parameters");
      parameters.forEach((k, v) -> out.printf("  %-22s %s%n", k, v));
      out.println();
      for (ResultTable t : all) {
        out.println(t.toText());
      }
      notes.forEach(out::println);
      verdicts.forEach(out::println);
    }
    out.flush();
  }

  // ---- JVM measurements --------------------------------------------------------------------

  /** Heap in use after full collections (System.gc() until the figure settles, at most 5). */
  public static long heapAfterGc() {
    long last = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      if (Math.abs(last - used) < 256 * 1024) {
        return used;
      }
      last = used;
    }
    return last;
  }

  /** CPU time of this whole process so far, in nanoseconds; -1 if unknown. */
  public static long processCpuNanos() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return -1;
  }

  /** Summed CPU time of live platform threads, in nanoseconds (dead ones count 0). */
  public static long threadsCpuNanos(List<Thread> threads) {
    long sum = 0;
    for (Thread t : threads) {
      long n = THREADS.getThreadCpuTime(t.threadId());
      if (n > 0) {
        sum += n;
      }
    }
    return sum;
  }

  public static String mib(long bytes) {
    return String.format("%.1f", bytes / (1024.0 * 1024));
  }

  /** CPU nanoseconds over a wall-clock span, in percent of one core. */
  public static String percentOfCore(long cpuNanos, long wallNanos) {
    return cpuNanos < 0 || wallNanos <= 0 ? "unknown" : String.format("%.0f%%", 100.0 * cpuNanos / wallNanos);
  }
}
