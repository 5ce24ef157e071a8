package io.listwatch.storage.rocksdb;

import io.listwatch.storage.KeyValue;
import io.listwatch.storage.StorageException;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The child process of {@link RocksDbCrashTest}: opens the store at {@code args[0]} and writes
 * with {@code args[1]} (default 32) threads as fast as it can until it is killed.
 *
 * <p>Protocol on stdout, one line each, flushed promptly:
 * <ul>
 *   <li>{@code READY <currentRevision>} once the store is open;</li>
 *   <li>{@code ACK <key> <modRevision> .} after a write's future completed, that is after the
 *       store reported it durable. The trailing {@code .} marks a complete line: the kill may
 *       cut the last one.</li>
 * </ul>
 * Each writer thread owns its keys ({@code /crash/wNN/kNN}), creating them on the first cycle
 * and updating them afterwards, so its writes never conflict with another thread's.
 *
 * <p>The process halts by itself when its stdin reaches end of file (the parent died or let
 * go of it) or after {@link #MAX_LIFETIME_MILLIS}, so a failed test leaves nothing running.
 */
public final class CrashWriter {

  static final int KEYS_PER_WRITER = 16;
  private static final long MAX_LIFETIME_MILLIS = 120_000;

  private CrashWriter() {
  }

  public static void main(String[] args) throws Exception {
    startWatchdogs();
    Path dir = Path.of(args[0]);
    int writerCount = args.length > 1 ? Integer.parseInt(args[1]) : 32;
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false,
        StandardCharsets.UTF_8);
    RocksDbStorage storage = RocksDbStorage.builder(dir).open();
    out.println("READY " + storage.currentRevision());
    out.flush();

    BlockingQueue<String> acks = new LinkedBlockingQueue<>();
    Thread printer = new Thread(() -> print(acks, out), "crash-writer-printer");
    printer.setDaemon(true);
    printer.start();

    List<Thread> writers = new ArrayList<>();
    for (int w = 0; w < writerCount; w++) {
      int writer = w;
      writers.add(Thread.ofPlatform().name("crash-writer-" + w)
          .start(() -> write(storage, writer, acks)));
    }
    for (Thread writer : writers) {
      writer.join();
    }
    // Only reached if every writer failed; the parent sees the exit code.
    Runtime.getRuntime().halt(2);
  }

  private static void write(RocksDbStorage storage, int writer, BlockingQueue<String> acks) {
    Map<String, KeyValue> known = new HashMap<>();
    for (long n = 0; ; n++) {
      String key = "/crash/w%02d/k%02d".formatted(writer, n % KEYS_PER_WRITER);
      byte[] value = ("writer " + writer + " write " + n).getBytes(StandardCharsets.UTF_8);
      KeyValue latest = known.get(key);
      try {
        KeyValue kv = latest == null
            ? storage.create(key, value).join()
            : storage.update(key, value, latest.modRevision()).join();
        known.put(key, kv);
        acks.add("ACK " + key + " " + kv.modRevision() + " .");
      } catch (CompletionException e) {
        if (!(e.getCause() instanceof StorageException se)) {
          throw e;
        }
        switch (se.code()) {
          case KEY_EXISTS, CONFLICT -> known.put(key, se.current().orElseThrow());
          case KEY_NOT_FOUND -> known.remove(key);
          default -> throw se;
        }
      }
    }
  }

  private static void print(BlockingQueue<String> acks, PrintStream out) {
    List<String> batch = new ArrayList<>();
    try {
      while (true) {
        batch.add(acks.take());
        acks.drainTo(batch);
        for (String line : batch) {
          out.println(line);
        }
        out.flush();
        batch.clear();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void startWatchdogs() {
    Thread stdin = new Thread(() -> {
      try {
        while (System.in.read() >= 0) {
          // the parent writes nothing; wait for end of file
        }
      } catch (IOException e) {
        // the pipe broke: the parent is gone as well
      }
      Runtime.getRuntime().halt(3);
    }, "crash-writer-stdin-watchdog");
    stdin.setDaemon(true);
    stdin.start();

    Thread lifetime = new Thread(() -> {
      try {
        Thread.sleep(MAX_LIFETIME_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      Runtime.getRuntime().halt(4);
    }, "crash-writer-lifetime-watchdog");
    lifetime.setDaemon(true);
    lifetime.start();
  }
}
