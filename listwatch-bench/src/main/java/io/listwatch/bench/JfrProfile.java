package io.listwatch.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a child JVM spent its CPU, from a JFR recording of it: the samples taken in given time
 * windows, counted by thread (digits folded to {@code N}, so a pool's threads count as one), by
 * kind of work, and by self method (the top frame), plus the bytes allocated by allocation site
 * (the top frame of {@code jdk.ObjectAllocationSample}, weighted by its {@code weight}).
 *
 * <p>A sample counts for the first {@link Kind} whose code is anywhere on its stack, in the
 * order given, else for {@link #OTHER}: so a kind named early wins over a kind that calls it
 * (a TLS record written from a watch's send counts as TLS, not as the watch's).
 *
 * <p>Which samples count: the CPU-time samples ({@code jdk.CPUTimeSample}, JDK 25 on Linux:
 * one per period of a thread's CPU time, in Java or native code, so a system call's kernel
 * time counts) when the recording has any in the window; else the execution samples
 * ({@code jdk.ExecutionSample}, threads running Java code) and the native method samples
 * ({@code jdk.NativeMethodSample}) of threads not idle in a wait ({@link #IDLE}: epoll, poll,
 * park, accept, sleep). JIT and GC threads are not Java threads and are never sampled.
 *
 * <p>Stateless; the counts it returns are not thread-safe.
 */
public final class JfrProfile {

  /** The kind a sample counts for when no {@link Kind} matches it. */
  public static final String OTHER = "other";

  /** Native methods whose samples are a thread waiting, not working (method names). */
  static final Set<String> IDLE = Set.of("epollWait", "epollWait0", "epollWaitNoTimeout", "epollBusyWait0", "poll",
      "poll0", "park", "accept", "accept0", "sleep", "sleep0", "sleepNanos0", "wait", "wait0", "select", "doSelect",
      "waitForReferencePendingList", "waitForProcessExit0");

  private static final String CPU_TIME = "jdk.CPUTimeSample";
  private static final String EXECUTION = "jdk.ExecutionSample";
  private static final String NATIVE = "jdk.NativeMethodSample";
  private static final String ALLOCATION = "jdk.ObjectAllocationSample";

  private JfrProfile() {
  }

  /**
   * A kind of work: a name and the code that is that work, each entry a type-name prefix
   * ({@code io.netty.handler.ssl}) or a prefix and a method name ({@code com.fasterxml.jackson#skipChildren}).
   */
  public record Kind(String name, List<String> code) {

    public static Kind of(String name, String... code) {
      return new Kind(name, List.of(code));
    }

    boolean matches(Frame f) {
      for (String c : code) {
        int hash = c.indexOf('#');
        if (hash < 0 ? f.type().startsWith(c) : f.type().startsWith(c.substring(0, hash))
            && f.method().equals(c.substring(hash + 1))) {
          return true;
        }
      }
      return false;
    }
  }

  /** A frame of a stack: the method's type (full name) and its name. */
  public record Frame(String type, String method) {
  }

  /**
   * The kind of work of a stack ({@code frames}, any order): the first of {@code kinds} whose
   * code is in one of its frames, else {@link #OTHER}.
   */
  public static String kindOf(List<Kind> kinds, List<Frame> frames) {
    int best = kinds.size();
    for (Frame f : frames) {
      for (int k = 0; k < best; k++) {
        if (kinds.get(k).matches(f)) {
          best = k;
          break;
        }
      }
    }
    return best == kinds.size() ? OTHER : kinds.get(best).name();
  }

  /** A time window, {@code from} to {@code until}, of the recording. */
  public record Window(Instant from, Instant until) {

    boolean holds(Instant t) {
      return !t.isBefore(from) && !t.isAfter(until);
    }
  }

  /**
   * The JVM option that records into {@code file} (written when the JVM exits) execution and
   * native method samples every {@code periodMs} ms, CPU-time samples every {@code periodMs} ms
   * of each thread's CPU, and, with {@code allocation}, 100 allocation samples per second;
   * nothing else JFR records by default. Use it with {@link #STACK_DEPTH}.
   */
  public static String jvmOption(Path file, int periodMs, boolean allocation) {
    String period = periodMs + "ms";
    return "-XX:StartFlightRecording:settings=none,"
        + "+" + EXECUTION + "#enabled=true,+" + EXECUTION + "#period=" + period + ","
        + "+" + NATIVE + "#enabled=true,+" + NATIVE + "#period=" + period + ","
        + "+" + CPU_TIME + "#enabled=true,+" + CPU_TIME + "#throttle=" + period + ","
        + (allocation ? "+" + ALLOCATION + "#enabled=true,+" + ALLOCATION + "#throttle=100/s," : "")
        + "dumponexit=true,filename=" + file;
  }

  /** What {@link #ofThisJvm} ran: the work's result, and the counts of the samples taken meanwhile. */
  public record Profiled<T>(T result, Counts counts) {
  }

  /**
   * Runs {@code work} while this JVM records its execution samples every {@code periodMs} ms and
   * its CPU-time samples every {@code periodMs} ms of each thread's CPU, and counts those taken
   * meanwhile with {@code kinds} in priority order (the recording goes to a temporary file,
   * deleted once read). For profiling a client that runs in the benchmark's own JVM.
   */
  public static <T> Profiled<T> ofThisJvm(List<Kind> kinds, int periodMs, Callable<T> work) throws Exception {
    Path file = Files.createTempFile("listwatch-bench-profile", ".jfr");
    try (jdk.jfr.Recording recording = new jdk.jfr.Recording()) {
      recording.enable(EXECUTION).withPeriod(Duration.ofMillis(periodMs)).withStackTrace();
      recording.enable(CPU_TIME).with("throttle", periodMs + "ms").withStackTrace();
      recording.start();
      Instant from = Instant.now();
      T result = work.call();
      Instant until = Instant.now();
      recording.stop();
      recording.dump(file);
      return new Profiled<>(result, count(List.of(file), kinds, List.of(new Window(from, until))).get(0));
    } finally {
      Files.deleteIfExists(file);
    }
  }

  /** The JVM option that keeps 128 frames of each stack (JFR's default, 64, cuts Netty's deep pipelines). */
  public static final String STACK_DEPTH = "-XX:FlightRecorderOptions:stackdepth=128";

  /**
   * The counts of each of {@code windows} (same order) over {@code recordings} (several JVMs'
   * add up), with {@code kinds} in priority order.
   */
  public static List<Counts> count(List<Path> recordings, List<Kind> kinds, List<Window> windows)
      throws IOException {
    List<Counts> cpuTime = new ArrayList<>();
    List<Counts> execution = new ArrayList<>();
    for (int i = 0; i < windows.size(); i++) {
      cpuTime.add(new Counts(kinds, "CPU-time samples"));
      execution.add(new Counts(kinds, "execution and native samples"));
    }
    for (Path recording : recordings) {
      try (RecordingFile file = new RecordingFile(recording)) {
        while (file.hasMoreEvents()) {
          RecordedEvent e = file.readEvent();
          String type = e.getEventType().getName();
          if (!type.equals(CPU_TIME) && !type.equals(EXECUTION) && !type.equals(NATIVE) && !type.equals(ALLOCATION)
              || e.getStackTrace() == null || e.getStackTrace().getFrames().isEmpty()) {
            continue;
          }
          for (int i = 0; i < windows.size(); i++) {
            if (windows.get(i).holds(e.getStartTime())) {
              switch (type) {
                case CPU_TIME -> cpuTime.get(i).sample(e);
                case EXECUTION -> execution.get(i).sample(e);
                case NATIVE -> {
                  RecordedMethod top = e.getStackTrace().getFrames().get(0).getMethod();
                  if (top != null && !IDLE.contains(top.getName())) {
                    execution.get(i).sample(e);
                  }
                }
                default -> {
                  cpuTime.get(i).allocation(e);
                  execution.get(i).allocation(e);
                }
              }
            }
          }
        }
      }
    }
    List<Counts> counts = new ArrayList<>();
    for (int i = 0; i < windows.size(); i++) {
      counts.add(cpuTime.get(i).samples() > 0 ? cpuTime.get(i) : execution.get(i));
    }
    return counts;
  }

  /** {@code Type.method} of a frame, the type without its package. */
  private static String site(RecordedFrame f) {
    if (f.getMethod() == null) {
      return "?";
    }
    String type = f.getMethod().getType().getName();
    return type.substring(type.lastIndexOf('.') + 1) + "." + f.getMethod().getName();
  }

  /** The counts of one window. Not thread-safe. */
  public static final class Counts {
    private final List<Kind> kinds;
    private final String source;
    private int samples;
    private final Map<String, Integer> byKind = new LinkedHashMap<>();
    private final Map<String, Integer> byThread = new HashMap<>();
    private final Map<String, Integer> bySelf = new HashMap<>();
    private final Map<String, Long> allocatedBySite = new HashMap<>();
    private long allocated;

    Counts(List<Kind> kinds, String source) {
      this.kinds = kinds;
      this.source = source;
      kinds.forEach(k -> byKind.put(k.name(), 0));
      byKind.put(OTHER, 0);
    }

    void sample(RecordedEvent e) {
      samples++;
      List<RecordedFrame> frames = e.getStackTrace().getFrames();
      byThread.merge(threadName(e), 1, Integer::sum);
      bySelf.merge(site(frames.get(0)), 1, Integer::sum);
      byKind.merge(kind(frames), 1, Integer::sum);
    }

    void allocation(RecordedEvent e) {
      long weight = e.getLong("weight");
      allocated += weight;
      allocatedBySite.merge(site(e.getStackTrace().getFrames().get(0)), weight, Long::sum);
    }

    private String kind(List<RecordedFrame> frames) {
      List<Frame> stack = new ArrayList<>(frames.size());
      for (RecordedFrame f : frames) {
        if (f.getMethod() != null) {
          stack.add(new Frame(f.getMethod().getType().getName(), f.getMethod().getName()));
        }
      }
      return kindOf(kinds, stack);
    }

    private static String threadName(RecordedEvent e) {
      RecordedThread t = e.hasField("sampledThread") ? e.getThread("sampledThread") : e.getThread();
      String name = t == null ? null : t.getJavaName() != null ? t.getJavaName() : t.getOSName();
      return name == null ? "?" : name.replaceAll("[0-9]+", "N");
    }

    /** The samples counted. */
    public int samples() {
      return samples;
    }

    /** Which samples were counted: {@code CPU-time samples} or {@code execution and native samples}. */
    public String source() {
      return source;
    }

    /** Samples by kind, every kind (then {@link #OTHER}) in priority order, zeros included. */
    public Map<String, Integer> byKind() {
      return java.util.Collections.unmodifiableMap(byKind);
    }

    /** The percent of the samples that count for {@code kind}; 0 without samples. */
    public double percent(String kind) {
      return samples == 0 ? 0 : 100.0 * byKind.getOrDefault(kind, 0) / samples;
    }

    /** The {@code n} threads (digits folded) with the most samples, most first. */
    public List<Map.Entry<String, Integer>> topThreads(int n) {
      return top(byThread, n);
    }

    /** The {@code n} self methods ({@code Type.method} of the top frame) with the most samples, most first. */
    public List<Map.Entry<String, Integer>> topSelf(int n) {
      return top(bySelf, n);
    }

    /** The {@code n} allocation sites ({@code Type.method}) with the most sampled bytes, most first. */
    public List<Map.Entry<String, Long>> topAllocationSites(int n) {
      return top(allocatedBySite, n);
    }

    /** The bytes the allocation samples stand for, all sites together. */
    public long allocatedBytes() {
      return allocated;
    }

    /** {@code name pct%} of each entry of {@code entries} out of {@code total}, joined by ", ". */
    public static <N extends Number> String shares(List<Map.Entry<String, N>> entries, double total) {
      return String.join(", ", entries.stream().map(x -> String.format(java.util.Locale.ROOT, "%s %.0f%%",
          x.getKey(), total == 0 ? 0 : 100.0 * x.getValue().doubleValue() / total)).toList());
    }

    private static <N extends Number & Comparable<N>> List<Map.Entry<String, N>> top(Map<String, N> counts, int n) {
      return counts.entrySet().stream().sorted(Map.Entry.<String, N>comparingByValue().reversed()
          .thenComparing(Map.Entry.comparingByKey())).limit(n).toList();
    }
  }
}
