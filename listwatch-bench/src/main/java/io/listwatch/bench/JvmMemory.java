package io.listwatch.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The memory of another JVM on this machine, as Linux and {@code jcmd} (of the JDK this
 * benchmark runs on) report it: its resident set ({@code VmRSS} of {@code /proc/<pid>/status}),
 * its native memory by category ({@code VM.native_memory summary}, which needs the JVM to run
 * with {@code -XX:NativeMemoryTracking=summary}) and its live objects by class
 * ({@code GC.class_histogram}, which collects first).
 *
 * <p>Stateless; thread-safe.
 */
public final class JvmMemory {

  /** The JVM option that makes {@link #nativeMemory} work. */
  public static final String NMT = "-XX:NativeMemoryTracking=summary";

  private static final Pattern NMT_TOTAL = Pattern.compile("^Total: reserved=(\\d+)KB, committed=(\\d+)KB");
  private static final Pattern NMT_CATEGORY =
      Pattern.compile("^-\\s+(.+?) \\(reserved=(\\d+)KB, committed=(\\d+)KB\\)");
  private static final Pattern HISTOGRAM_ROW = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)");
  private static final long TIMEOUT_SECONDS = 120;

  private JvmMemory() {
  }

  /** The resident set of process {@code pid} in bytes, or -1 if unknown. */
  public static long rssBytes(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
        }
      }
    } catch (IOException | NumberFormatException e) {
      // not Linux, or the process ended
    }
    return -1;
  }

  /**
   * Native memory tracking's summary: total committed bytes, and committed bytes by category
   * (Java Heap, Class, Thread, Code, GC, Internal, Other, ...), the largest first.
   */
  public record NativeMemory(long committedBytes, Map<String, Long> committedByCategory) {

    /** The {@code n} largest categories as {@code name MiB, ...}. */
    public String largest(int n) {
      List<String> parts = new ArrayList<>();
      for (Map.Entry<String, Long> e : committedByCategory.entrySet()) {
        if (parts.size() == n) {
          break;
        }
        parts.add(e.getKey() + " " + Report.mib(e.getValue()));
      }
      return String.join(", ", parts);
    }
  }

  /**
   * {@code jcmd <pid> VM.native_memory summary}, parsed.
   *
   * @throws IOException when jcmd fails or prints no total (the JVM runs without {@link #NMT})
   */
  public static NativeMemory nativeMemory(long pid) throws IOException, InterruptedException {
    return parseNativeMemory(jcmd(pid, "VM.native_memory", "summary"));
  }

  /** {@code VM.native_memory summary}'s output, parsed. */
  static NativeMemory parseNativeMemory(List<String> lines) throws IOException {
    long total = -1;
    List<Map.Entry<String, Long>> categories = new ArrayList<>();
    for (String line : lines) {
      Matcher t = NMT_TOTAL.matcher(line);
      Matcher c = NMT_CATEGORY.matcher(line);
      if (t.find()) {
        total = Long.parseLong(t.group(2)) * 1024;
      } else if (c.find()) {
        categories.add(Map.entry(c.group(1).trim(), Long.parseLong(c.group(3)) * 1024));
      }
    }
    if (total < 0) {
      throw new IOException("VM.native_memory summary printed no total (is " + NMT + " set?): " + lines);
    }
    categories.sort(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()));
    Map<String, Long> byCategory = new LinkedHashMap<>();
    categories.forEach(e -> byCategory.put(e.getKey(), e.getValue()));
    return new NativeMemory(total, byCategory);
  }

  /** Live instances and bytes of one class in a heap histogram. */
  public record ClassCount(long instances, long bytes) {
  }

  /** {@code jcmd <pid> GC.class_histogram} (a full collection, then the live objects), by class name. */
  public static Map<String, ClassCount> histogram(long pid) throws IOException, InterruptedException {
    return parseHistogram(jcmd(pid, "GC.class_histogram"));
  }

  /** {@code GC.class_histogram}'s output, parsed: by class name (a name seen twice, from two loaders, summed). */
  static Map<String, ClassCount> parseHistogram(List<String> lines) {
    Map<String, ClassCount> byClass = new LinkedHashMap<>();
    for (String line : lines) {
      Matcher m = HISTOGRAM_ROW.matcher(line);
      if (m.find()) {
        byClass.merge(m.group(3), new ClassCount(Long.parseLong(m.group(1)), Long.parseLong(m.group(2))),
            (a, b) -> new ClassCount(a.instances() + b.instances(), a.bytes() + b.bytes()));
      }
    }
    return byClass;
  }

  private static List<String> jcmd(long pid, String... command) throws IOException, InterruptedException {
    List<String> args = new ArrayList<>();
    args.add(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString());
    args.add(Long.toString(pid));
    args.addAll(List.of(command));
    Process p = new ProcessBuilder(args).redirectErrorStream(true).start();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException("jcmd " + String.join(" ", command) + " did not end within " + TIMEOUT_SECONDS + " s");
    }
    String text = new String(out, StandardCharsets.UTF_8);
    if (p.exitValue() != 0) {
      throw new IOException("jcmd " + String.join(" ", command) + " failed: " + text);
    }
    return text.lines().toList();
  }
}
