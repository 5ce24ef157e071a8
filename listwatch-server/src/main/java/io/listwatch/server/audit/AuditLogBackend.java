package io.listwatch.server.audit;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's log backend ({@code --audit-log-path}): each event as one JSON line, appended to a file,
 * or written to standard output for {@code -}.
 *
 * <p>Design: {@link #process} only offers the event to a bounded queue; one background thread
 * ({@code audit-log-writer}) serializes what is queued, writes it, and flushes whenever the queue
 * runs empty, so that a line is on disk (or stdout) soon after its request ends and no event loop
 * ever waits on I/O. When the queue is full (the disk is slower than the requests for
 * {@value #QUEUE_CAPACITY} events), the event is dropped, counted ({@link #dropped()}) and
 * warned about, like kube's batch mode when its buffer is full; the request itself is not held up.
 * {@link #close()} writes every event taken before it and flushes.
 *
 * <p>Thread-safe: the queue hands events over; the writer and its file belong to the writer thread.
 */
public final class AuditLogBackend implements AuditBackend {

  private static final Logger LOG = LoggerFactory.getLogger(AuditLogBackend.class);
  /** Events waiting to be written before new ones are dropped (kube's default batch buffer size). */
  public static final int QUEUE_CAPACITY = 10_000;
  /** The path that means standard output. */
  public static final String STDOUT = "-";
  private static final AuditEvent END = new AuditEvent(null, null, null, null, null, null, null, null, null,
      null, null, null, null, null, null, null);

  private final BlockingQueue<AuditEvent> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
  private final AtomicLong dropped = new AtomicLong();
  private final Writer out;
  private final boolean closeOut;
  private final String name;
  private final Thread writer;
  private volatile boolean closed;

  /** Writes to {@code out}, closing it on {@link #close()} when {@code closeOut}; {@code name} is for logs. */
  AuditLogBackend(Writer out, boolean closeOut, String name) {
    this.out = out;
    this.closeOut = closeOut;
    this.name = name;
    this.writer = Thread.ofPlatform().name("audit-log-writer").daemon(true).start(this::run);
  }

  /**
   * Opens the log at {@code path} ({@value #STDOUT} for standard output), appending to a file
   * that exists and creating its parent directories.
   *
   * @throws UncheckedIOException when the file cannot be opened
   */
  public static AuditLogBackend open(String path) {
    if (path.equals(STDOUT)) {
      return new AuditLogBackend(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), false, "standard output");
    }
    Path file = Path.of(path);
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      return new AuditLogBackend(Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
          StandardOpenOption.APPEND, StandardOpenOption.WRITE), true, file.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the audit log " + file + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void process(AuditEvent event) {
    if (closed) {
      return;
    }
    if (!queue.offer(event)) {
      long n = dropped.incrementAndGet();
      if (n == 1 || n % 1000 == 0) {
        LOG.warn("audit log {} cannot keep up: {} events dropped so far", name, n);
      }
    }
  }

  /** Events dropped because the queue was full. */
  public long dropped() {
    return dropped.get();
  }

  private void run() {
    List<AuditEvent> batch = new ArrayList<>();
    boolean ioFailed = false;
    while (true) {
      try {
        batch.add(queue.take());
      } catch (InterruptedException e) {
        return;
      }
      queue.drainTo(batch, 512);
      boolean end = false;
      try {
        for (AuditEvent e : batch) {
          if (e == END) {
            end = true;
            break;
          }
          out.write(e.toJson());
          out.write('\n');
        }
        if (end || queue.isEmpty()) {
          out.flush();
        }
        ioFailed = false;
      } catch (IOException e) {
        if (!ioFailed) {
          LOG.error("cannot write the audit log {}", name, e);
        }
        ioFailed = true;
      }
      batch.clear();
      if (end) {
        return;
      }
    }
  }

  /** Writes the events taken so far, flushes, and closes the file (not standard output). Idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (!queue.offer(END, 5, TimeUnit.SECONDS)) {
        LOG.warn("audit log {}: writer did not keep up; closing with events unwritten", name);
        writer.interrupt();
      }
      writer.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      if (closeOut) {
        out.close();
      } else {
        out.flush();
      }
    } catch (IOException e) {
      LOG.warn("cannot close the audit log {}", name, e);
    }
  }
}
