package io.listwatch.bench;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pauses of a child JVM, read from its unified JVM log (the JVM options
 * {@link #jvmOptions} gives). Every stop of the Java threads is logged as one
 * {@code safepoint} line with its total time, including the time to reach the safepoint, so
 * the same parsing works for every collector: G1's and Parallel's pauses
 * ({@code G1CollectForAllocation}, {@code ParallelCollectForAllocation}, ...) and ZGC's short
 * ones ({@code ZMarkStartYoung}, ...). A stretch of a run is measured by taking the file's
 * length ({@link #mark}) at its start and end and parsing the lines written in between; the
 * JVM writes each log line as it happens.
 *
 * <p>Stateless apart from the file path; thread-safe.
 */
public final class GcLog {

  private static final Pattern SAFEPOINT = Pattern.compile("Safepoint \"([^\"]+)\".*Total: (\\d+) ns");
  private static final Pattern HEAP_AFTER = Pattern.compile("->(\\d+)M\\(");
  /** Safepoint operations that are garbage collection (every collector's names). */
  private static final Pattern GC_OPERATION = Pattern.compile("^(G1|Parallel|Serial|Shenandoah|Z[A-Z])|Collect|GC");

  private final Path file;

  public GcLog(Path file) {
    this.file = file;
  }

  /** The options that make a JVM write this log: GC summaries and every safepoint, no rotation. */
  public List<String> jvmOptions() {
    return List.of("-Xlog:gc,safepoint:file=" + file + ":uptime,tags:filecount=0");
  }

  public Path file() {
    return file;
  }

  /** The log's length now: a position to measure from or to. */
  public long mark() {
    try {
      return Files.size(file);
    } catch (IOException e) {
      return 0;
    }
  }

  /** What the pauses logged between two marks add up to. */
  public record Pauses(int gcPauses, long gcNanos, long gcMaxNanos, int safepoints, long safepointNanos,
      long heapAfterGcMiB) {

    static final Pauses UNKNOWN = new Pauses(0, 0, 0, 0, 0, -1);

    /** "12 / 34.5 / 6.7": pause count, total and longest in milliseconds. */
    public String gcCell() {
      return String.format("%d / %.1f / %.1f", gcPauses, gcNanos / 1e6, gcMaxNanos / 1e6);
    }
  }

  /** The pauses logged between {@code from} and {@code to} ({@link #mark}s). */
  public Pauses between(long from, long to) {
    if (to <= from) {
      return Pauses.UNKNOWN;
    }
    byte[] bytes = new byte[(int) Math.min(to - from, 64L << 20)];
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
      f.seek(from);
      f.readFully(bytes);
    } catch (IOException e) {
      return Pauses.UNKNOWN;
    }
    return parse(new String(bytes, StandardCharsets.UTF_8));
  }

  /** Parses log lines; a line cut off at either end is ignored. */
  static Pauses parse(String text) {
    int gc = 0;
    long gcNanos = 0;
    long gcMax = 0;
    int safepoints = 0;
    long safepointNanos = 0;
    long heap = -1;
    for (String line : text.split("\n")) {
      Matcher s = SAFEPOINT.matcher(line);
      if (s.find()) {
        long nanos = Long.parseLong(s.group(2));
        safepoints++;
        safepointNanos += nanos;
        if (GC_OPERATION.matcher(s.group(1)).find()) {
          gc++;
          gcNanos += nanos;
          gcMax = Math.max(gcMax, nanos);
        }
      } else if (line.contains("[gc") && line.contains(" GC(")) {
        Matcher h = HEAP_AFTER.matcher(line);
        if (h.find()) {
          heap = Long.parseLong(h.group(1));
        }
      }
    }
    return new Pauses(gc, gcNanos, gcMax, safepoints, safepointNanos, heap);
  }
}
