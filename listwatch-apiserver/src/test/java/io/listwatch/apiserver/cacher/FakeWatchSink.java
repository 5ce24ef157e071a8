package io.listwatch.apiserver.cacher;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.concurrent.Executor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A {@link WatchSink} that records what a watcher does to it: every write as a string, the
 * flushes, end and abort. Writability is set by the test. Thread-safe: the recording is
 * guarded by {@code this}, and the await methods wait (bounded) for another thread's writes.
 */
final class FakeWatchSink implements WatchSink {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final long AWAIT_NANOS = TimeUnit.SECONDS.toNanos(5);

  /** One event line, parsed. */
  record Line(String type, String name, long resourceVersion, JsonNode object) {
  }

  private final Executor executor;
  private volatile boolean writable = true;
  @GuardedBy("this")
  private final List<String> writes = new ArrayList<>();
  @GuardedBy("this")
  private int flushes;
  @GuardedBy("this")
  private boolean ended;
  @GuardedBy("this")
  private boolean aborted;
  @GuardedBy("this")
  private boolean failNextWrite;

  FakeWatchSink(Executor executor) {
    this.executor = executor;
  }

  void setWritable(boolean writable) {
    this.writable = writable;
  }

  @Override
  public Executor executor() {
    return executor;
  }

  @Override
  public boolean isWritable() {
    return writable;
  }

  /** The next write throws, as a sink that cannot allocate its frames does (Netty's direct memory limit). */
  synchronized void failNextWrite() {
    failNextWrite = true;
  }

  @Override
  public synchronized void write(byte[][] parts) {
    if (failNextWrite) {
      failNextWrite = false;
      throw new OutOfMemoryError("Cannot reserve direct buffer memory");
    }
    StringBuilder written = new StringBuilder();
    for (byte[] part : parts) {
      written.append(new String(part, StandardCharsets.UTF_8));
    }
    writes.add(written.toString());
    notifyAll();
  }

  @Override
  public synchronized void flush() {
    flushes++;
    notifyAll();
  }

  @Override
  public synchronized void end() {
    ended = true;
    notifyAll();
  }

  @Override
  public synchronized void abort() {
    aborted = true;
    notifyAll();
  }

  synchronized List<String> writes() {
    return List.copyOf(writes);
  }

  synchronized int flushes() {
    return flushes;
  }

  synchronized boolean ended() {
    return ended;
  }

  synchronized boolean aborted() {
    return aborted;
  }

  /** Every line written so far (each without its newline). */
  synchronized List<String> lines() {
    List<String> out = new ArrayList<>();
    String all = String.join("", writes);
    int from = 0;
    for (int nl; (nl = all.indexOf('\n', from)) >= 0; from = nl + 1) {
      out.add(all.substring(from, nl));
    }
    if (from != all.length()) {
      throw new AssertionError("a write ended mid-line: " + all.substring(from));
    }
    return out;
  }

  /** Every line written so far, parsed. */
  List<Line> events() {
    return lines().stream().map(FakeWatchSink::parse).toList();
  }

  /** Waits (at most 5 s) until at least {@code n} lines were written; returns them parsed. */
  List<Line> awaitEvents(int n) {
    await(() -> lines().size() >= n, n + " lines");
    return events();
  }

  void awaitAborted() {
    await(this::aborted, "abort");
  }

  void awaitEnded() {
    await(this::ended, "end");
  }

  private synchronized void await(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + AWAIT_NANOS;
    while (!condition.getAsBoolean()) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError("timed out waiting for " + what + "; written so far: " + writes);
      }
      try {
        TimeUnit.NANOSECONDS.timedWait(this, left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  static Line parse(String line) {
    try {
      JsonNode event = MAPPER.readTree(line);
      JsonNode object = event.get("object");
      JsonNode meta = object.path("metadata");
      return new Line(event.get("type").asText(), meta.path("name").asText(),
          Long.parseLong(meta.path("resourceVersion").asText("0")), object);
    } catch (IOException e) {
      throw new UncheckedIOException("not a watch event line: " + line, e);
    }
  }
}
