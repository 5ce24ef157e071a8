package io.listwatch.storage.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.listwatch.storage.KeyValue;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Durability under SIGKILL: a child JVM ({@link CrashWriter}) writes with many threads and
 * reports every acknowledged write; the test kills it mid-flight, reopens the store and
 * checks that nothing acknowledged was lost and that revisions never go backwards. Three
 * kill/reopen cycles run on the same directory.
 */
class RocksDbCrashTest {

  private static final int CYCLES = 3;
  private static final int WRITERS = 32;
  private static final int ACKS_BEFORE_KILL = 2000;
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  /** The exit status of a process killed by SIGKILL (128 + 9). */
  private static final int KILLED = 137;

  @TempDir
  Path dir;

  @Test
  void acknowledgedWrites_surviveSigkill_andRevisionsNeverGoBackwards() throws Exception {
    Path store = Files.createDirectories(dir.resolve("store"));
    Map<String, Long> acked = new HashMap<>();
    long floor = 0;

    for (int cycle = 0; cycle < CYCLES; cycle++) {
      ChildRun run = runAndKill(store, dir.resolve("child-" + cycle + ".err"));
      assertThat(run.readyRevision()).as("revision the child opened at, cycle %d", cycle)
          .isGreaterThanOrEqualTo(floor);
      run.acks().forEach((key, revision) -> acked.merge(key, revision, Math::max));
      long maxAcked = run.acks().values().stream().mapToLong(Long::longValue).max().orElseThrow();
      assertThat(maxAcked).isGreaterThan(floor);

      try (RocksDbStorage storage = RocksDbStorage.builder(store).open()) {
        assertThat(storage.currentRevision()).as("current revision after kill %d", cycle)
            .isGreaterThanOrEqualTo(maxAcked);
        for (Map.Entry<String, Long> ack : acked.entrySet()) {
          Optional<KeyValue> kv = join(storage.get(ack.getKey()));
          assertThat(kv).as("acknowledged key %s", ack.getKey()).isPresent();
          assertThat(kv.orElseThrow().modRevision()).as("mod revision of %s", ack.getKey())
              .isGreaterThanOrEqualTo(ack.getValue());
        }
        KeyValue probe = join(storage.create("/probe/" + cycle,
            "after kill".getBytes(StandardCharsets.UTF_8)));
        assertThat(probe.modRevision()).as("revision of the first write after kill %d", cycle)
            .isGreaterThan(maxAcked)
            .isGreaterThan(floor);
        floor = probe.modRevision();
      }
    }
  }

  /** What one child run reported: the revision it opened at and its acks by key. */
  private record ChildRun(long readyRevision, Map<String, Long> acks) {
  }

  private ChildRun runAndKill(Path store, Path stderr) throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m",
        "-XX:+UseSerialGC",
        "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
        "-cp", System.getProperty("java.class.path"),
        CrashWriter.class.getName(),
        store.toString(),
        Integer.toString(WRITERS)));
    Process child = new ProcessBuilder(command)
        .redirectError(stderr.toFile())
        .start();
    try {
      Map<String, Long> acks = new ConcurrentHashMap<>();
      AtomicLong ready = new AtomicLong(-1);
      AtomicReference<String> badLine = new AtomicReference<>();
      CountDownLatch enoughAcks = new CountDownLatch(ACKS_BEFORE_KILL);
      CountDownLatch endOfOutput = new CountDownLatch(1);
      Thread reader = Thread.ofPlatform().daemon().name("crash-test-reader").start(() -> {
        try (BufferedReader lines = new BufferedReader(
            new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
          String pending = null;
          for (String line; (line = lines.readLine()) != null; ) {
            if (pending != null) {
              badLine.compareAndSet(null, pending);
            }
            pending = null;
            String[] parts = line.split(" ");
            if (parts.length == 2 && parts[0].equals("READY")) {
              ready.set(Long.parseLong(parts[1]));
            } else if (parts.length == 4 && parts[0].equals("ACK") && parts[3].equals(".")) {
              acks.merge(parts[1], Long.parseLong(parts[2]), Math::max);
              enoughAcks.countDown();
            } else {
              pending = line; // only the last line may be cut by the kill
            }
          }
        } catch (IOException e) {
          badLine.compareAndSet(null, "stdout failed: " + e);
        } finally {
          endOfOutput.countDown();
        }
      });

      if (!enoughAcks.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        fail("the child acknowledged only %d writes within %s (alive: %s); stderr:%n%s",
            ACKS_BEFORE_KILL - enoughAcks.getCount(), TIMEOUT, child.isAlive(), read(stderr));
      }
      assertThat(child.isAlive()).as("child still writing when killed").isTrue();
      // SIGKILL through the handle: Process.destroyForcibly would also close our end of the
      // child's stdout and lose the acks still in the pipe.
      assertThat(child.toHandle().destroyForcibly()).as("SIGKILL sent").isTrue();
      assertThat(child.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
          .as("child exited after SIGKILL").isTrue();
      assertThat(child.exitValue()).as("child exit status; stderr:%n%s", read(stderr))
          .isEqualTo(KILLED);
      assertThat(endOfOutput.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
          .as("end of the child's output").isTrue();
      reader.join(TIMEOUT);
      assertThat(badLine.get()).as("malformed line from the child").isNull();
      assertThat(ready.get()).as("READY line").isNotNegative();
      return new ChildRun(ready.get(), Map.copyOf(acks));
    } finally {
      child.destroyForcibly();
      child.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  private static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file) : "";
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }

  private static <T> T join(CompletableFuture<T> future) throws Exception {
    return future.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
  }
}
