package io.listwatch.nodeagent;

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_DELETE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_MODIFY;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.client.DynamicObject;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's file pod source: the static pods of a manifest directory.
 *
 * <p>Every regular file of the directory whose name does not start with a dot is a manifest
 * (YAML or JSON, one Pod); {@link StaticPods#applyDefaults} makes each a static pod of the
 * node. Each reading sends a {@link PodOperation#SET} of {@link PodSources#FILE} with all the
 * pods read; a file that cannot be read or parsed is logged and left out. A missing directory
 * is an empty one. The directory is read on start, whenever the WatchService reports a change
 * in it, and at least every {@code period} (the kubelet re-reads every 20 s), which also covers
 * file systems whose changes the WatchService does not see.
 *
 * <p>Thread-safe: {@link #start} once, {@link #close} from any thread (idempotent). Reading
 * happens on one thread, named {@code FileSource[<dir>]}; {@link #read} may also be called
 * directly (tests) and is serialized with it.
 */
public final class FileSource implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(FileSource.class);

  /** The kubelet's default {@code fileCheckFrequency}. */
  public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(20);

  private final Path dir;
  private final String nodeName;
  private final Consumer<PodUpdate> channel;
  private final Duration period;
  private final Thread thread;
  private volatile boolean closed;
  /** Non-null once {@link #start} opened it; closed by {@link #close}. */
  private volatile WatchService watcher;

  public FileSource(Path dir, String nodeName, Consumer<PodUpdate> channel, Duration period) {
    this.dir = Objects.requireNonNull(dir, "dir").toAbsolutePath();
    this.nodeName = Objects.requireNonNull(nodeName, "nodeName");
    this.channel = Objects.requireNonNull(channel, "channel");
    this.period = Objects.requireNonNull(period, "period");
    this.thread = Thread.ofPlatform().daemon().name("FileSource[" + this.dir + "]").unstarted(this::loop);
  }

  /** Reads the directory now and starts watching it. */
  public void start() {
    thread.start();
  }

  /** Reads the directory and sends the SET. */
  public synchronized void read() {
    List<DynamicObject> pods = new ArrayList<>();
    if (Files.isDirectory(dir)) {
      List<Path> files;
      try (Stream<Path> s = Files.list(dir)) {
        files = s.filter(Files::isRegularFile)
            .filter(f -> !f.getFileName().toString().startsWith("."))
            .sorted().toList();
      } catch (IOException e) {
        log.warn("FileSource[{}]: cannot list the directory: {}", dir, e.toString());
        return;
      }
      for (Path f : files) {
        try {
          for (ObjectNode pod : StaticPods.parse(Files.readAllBytes(f))) {
            pods.add(StaticPods.applyDefaults(pod, f.toString(), true, nodeName));
          }
        } catch (IOException | IllegalArgumentException e) {
          log.warn("FileSource[{}]: skipping {}: {}", dir, f.getFileName(), e.getMessage());
        }
      }
    }
    channel.accept(new PodUpdate(pods, PodOperation.SET, PodSources.FILE));
  }

  private void loop() {
    try {
      WatchService ws = dir.getFileSystem().newWatchService();
      watcher = ws;
      if (closed) {
        ws.close();
        return;
      }
      boolean watching = register(ws);
      read();
      while (!closed) {
        WatchKey key = ws.poll(period.toMillis(), TimeUnit.MILLISECONDS);
        if (key != null) {
          key.pollEvents();
          if (!key.reset()) {
            watching = false;
          }
        }
        if (!watching) {
          watching = register(ws);
        }
        read();
      }
    } catch (ClosedWatchServiceException | InterruptedException e) {
      // closed
    } catch (IOException e) {
      log.warn("FileSource[{}]: cannot watch: {}", dir, e.toString());
    }
  }

  private boolean register(WatchService ws) {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try {
      dir.register(ws, ENTRY_CREATE, ENTRY_MODIFY, ENTRY_DELETE);
      return true;
    } catch (IOException e) {
      log.warn("FileSource[{}]: cannot watch, reading every {}: {}", dir, period, e.toString());
      return false;
    }
  }

  @Override
  public void close() {
    closed = true;
    WatchService ws = watcher;
    if (ws != null) {
      try {
        ws.close();
      } catch (IOException e) {
        log.debug("FileSource[{}]: closing the watch service: {}", dir, e.toString());
      }
    }
    thread.interrupt();
  }
}
