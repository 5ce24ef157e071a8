package io.listwatch.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.listwatch.storage.StorageException.Code;
import io.listwatch.storage.WatchEvent.Type;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The executable form of the {@link Storage} contract, split by topic into
 * {@link StorageCrudContractTest}, {@link StorageRangeContractTest},
 * {@link StorageWatchContractTest}, {@link StorageCompactionContractTest} and
 * {@link StorageRestartContractTest}; this class holds what they share (the store's
 * lifecycle, the factory methods an implementation provides, and helpers). Every
 * implementation extends each topic class (for example as JUnit {@code @Nested} classes of
 * one test class) and passes them all. They are shipped in this module's test-jar.
 *
 * <p>Each test gets a fresh, empty store from {@link #openStorage()} in {@code storage}; tests
 * that restart the store replace that field, and the latest instance is closed after the
 * test. The suite assumes the store is used by the test alone: revisions are the store-wide
 * counter, so every committed change of a test is expected to take the next revision.
 *
 * <p>Negative assertions about concurrency ("nothing more arrived") never sleep: a second
 * watch that has provably seen a later change serves as the witness.
 *
 * <p>Not thread-safe; JUnit runs one test per instance.
 */
public abstract class StorageContract {

  /** The bound on every single wait of the suite; a healthy store answers far sooner. */
  protected static final Duration TIMEOUT = Duration.ofSeconds(30);

  /** The store under test; replaced by {@link #restartStorage()}. */
  protected Storage storage;

  /** Watches opened through {@link #watch}, closed after the test. */
  private final List<Watch> watches = new ArrayList<>();

  /** Opens a fresh, empty store for one test. */
  protected abstract Storage openStorage() throws Exception;

  /** Closes {@code storage} and opens the same data again (a restart). */
  protected abstract Storage restart(Storage storage) throws Exception;

  /**
   * Compacts/forces history loss below the given revision; afterwards reads and watches below
   * {@code revision} must fail with {@code COMPACTED}. The default calls
   * {@code storage.compact(revision)}.
   */
  protected void compact(Storage storage, long revision) throws Exception {
    join(storage.compact(revision));
  }

  /** The largest value the store opened by {@link #openStorage()} accepts. */
  protected int maxValueBytes() {
    return Keys.DEFAULT_MAX_VALUE_BYTES;
  }

  @BeforeEach
  final void openStore() throws Exception {
    storage = openStorage();
  }

  @AfterEach
  final void closeStore() {
    watches.forEach(Watch::close);
    if (storage != null) {
      storage.close();
    }
  }


  // ---------------------------------------------------------------------------------------
  // helpers

  /** Replaces {@link #storage} by a restarted instance of the same data. */
  protected final Storage restartStorage() throws Exception {
    storage = restart(storage);
    return storage;
  }

  /**
   * Waits (bounded) for {@code future} and returns its value; a failure is rethrown as the
   * {@link StorageException} (or other runtime exception) that caused it.
   */
  public static <T> T join(CompletableFuture<T> future) {
    try {
      return future.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw unwrap(e);
    } catch (TimeoutException e) {
      throw new AssertionError("the operation did not complete within " + TIMEOUT, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /**
   * Runs {@code operation}, which must fail with {@code code}, and returns the failure. The
   * failure may come through the future (the contract) or be thrown by the call.
   */
  public static StorageException assertFails(Code code,
      Supplier<? extends CompletableFuture<?>> operation) {
    Object result;
    try {
      result = join(operation.get());
    } catch (StorageException e) {
      assertThat(e.code()).as("failure code of %s", e).isEqualTo(code);
      return e;
    }
    return fail("expected %s, but the operation succeeded with %s", code, result);
  }

  protected static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Opens a watch on {@link #storage} that is closed after the test. */
  protected final Watch watch(String prefix, long fromRevision, WatchListener listener) {
    Watch watch = storage.watch(prefix, fromRevision, listener);
    watches.add(watch);
    return watch;
  }

  protected final KeyValue create(String key, String value) {
    return join(storage.create(key, bytes(value)));
  }

  protected final KeyValue update(KeyValue current, String value) {
    return join(storage.update(current.key(), bytes(value), current.modRevision()));
  }

  protected final KeyValue delete(KeyValue current) {
    return join(storage.delete(current.key(), current.modRevision()));
  }

  protected final Optional<KeyValue> get(String key) {
    return join(storage.get(key));
  }

  protected final Optional<KeyValue> get(String key, long revision) {
    return join(storage.get(key, revision));
  }

  protected final RangeResult range(RangeRequest request) {
    return join(storage.range(request));
  }

  protected static List<String> keys(RangeResult result) {
    return result.kvs().stream().map(KeyValue::key).toList();
  }

  /** Orders keys as the store does: by their UTF-8 bytes, unsigned. */
  protected static int compareUtf8(String a, String b) {
    return Arrays.compareUnsigned(bytes(a), bytes(b));
  }

  /** Asserts the events carry exactly the revisions {@code first..last}, one each, in order. */
  protected static void assertContiguous(List<WatchEvent> events, long first, long last) {
    assertThat(events).as("events from %d to %d", first, last).hasSize((int) (last - first + 1));
    for (int i = 0; i < events.size(); i++) {
      assertThat(events.get(i).revision()).as("revision of event %d", i).isEqualTo(first + i);
    }
  }

  /**
   * Asserts the events form consistent per-key histories: each event's {@code prevKv} is the
   * state the previous event of that key left, versions count up from 1 and a delete carries
   * the deleted incarnation. With {@code startsEmpty} every key is known absent at the start;
   * otherwise a key's state is known from its first event on.
   */
  protected static void assertEventChain(List<WatchEvent> events, boolean startsEmpty) {
    Map<String, Optional<KeyValue>> state = new HashMap<>();
    for (WatchEvent event : events) {
      KeyValue kv = event.kv();
      KeyValue prev = event.prevKv();
      Optional<KeyValue> before = state.get(kv.key());
      if (before == null && startsEmpty) {
        before = Optional.empty();
      }
      if (before != null) {
        assertThat(Optional.ofNullable(prev)).as("prevKv of %s", event).isEqualTo(before);
      }
      if (prev != null) {
        assertThat(prev.key()).isEqualTo(kv.key());
        assertThat(prev.modRevision()).isLessThan(kv.modRevision());
        assertThat(kv.createRevision()).as("create revision in %s", event)
            .isEqualTo(prev.createRevision());
      }
      if (event.type() == Type.PUT) {
        assertThat(kv.version()).as("version in %s", event)
            .isEqualTo(prev == null ? 1 : prev.version() + 1);
        if (prev == null) {
          assertThat(kv.createRevision()).isEqualTo(kv.modRevision());
        }
        state.put(kv.key(), Optional.of(kv));
      } else {
        assertThat(kv.value()).as("value of %s", event).isEmpty();
        state.put(kv.key(), Optional.empty());
      }
    }
  }

  /** Waits (bounded) until {@code latch} reaches zero. */
  protected static void await(CountDownLatch latch) {
    try {
      if (!latch.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        fail("latch still at %d after %s", latch.getCount(), TIMEOUT);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /** Lets {@code count} more writes start and waits (bounded) until they finished. */
  protected static void allowWrites(Semaphore permits, Semaphore written, int count) {
    permits.release(count);
    try {
      if (!written.tryAcquire(count, TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        fail("%d writes did not finish within %s", count, TIMEOUT);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  private static RuntimeException unwrap(Throwable t) {
    Throwable cause = t;
    while ((cause instanceof ExecutionException || cause instanceof CompletionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    if (cause instanceof RuntimeException runtime) {
      return runtime;
    }
    if (cause instanceof Error error) {
      throw error;
    }
    return new CompletionException(cause);
  }

  /**
   * The acknowledged changes of {@link #startChangeWriters}: puts by revision and deleted
   * versions by their mod revision (a delete's own revision is not returned to the caller).
   */
  protected static final class ChangeLog {
    final Map<Long, KeyValue> puts = new ConcurrentHashMap<>();
    final Map<Long, KeyValue> deletedVersions = new ConcurrentHashMap<>();

    /**
     * Asserts that {@code events}, every change since the writers started, are exactly the
     * acknowledged changes and form consistent per-key histories.
     */
    void assertMatches(List<WatchEvent> events) {
      assertEventChain(events, true);
      Set<Long> putRevisions = new HashSet<>();
      int deletes = 0;
      for (WatchEvent event : events) {
        if (event.type() == Type.PUT) {
          putRevisions.add(event.revision());
          assertThat(event.kv()).as("acknowledged put").isEqualTo(puts.get(event.revision()));
        } else {
          deletes++;
          assertThat(event.prevKv()).as("acknowledged delete")
              .isEqualTo(deletedVersions.get(event.prevKv().modRevision()));
        }
      }
      assertThat(putRevisions).isEqualTo(puts.keySet());
      assertThat(deletes).isEqualTo(deletedVersions.size());
    }
  }

  /** Runs {@code count} workers on virtual threads and waits (bounded) for all of them. */
  protected static void runConcurrently(int count, String name, Workers.Task task) {
    startWorkers(count, name, task).awaitDone();
  }

  /** Starts {@code count} workers on virtual threads, released together. */
  protected static Workers startWorkers(int count, String name, Workers.Task task) {
    return new Workers(count, name, task);
  }

  /**
   * Starts {@code writerCount} workers that each commit {@code writesPerWriter} changes
   * (creates, guarded updates and deletes, retried on conflict) over 50 keys under
   * {@code prefix}, recording each in {@code log} and calling {@code onChange} after it.
   */
  protected final Workers startChangeWriters(String prefix, int writerCount, int writesPerWriter,
      ChangeLog log, Runnable onChange) {
    Map<String, KeyValue> known = new ConcurrentHashMap<>();
    return startWorkers(writerCount, "change-writer", writer -> {
      Random random = new Random(writer);
      int done = 0;
      while (done < writesPerWriter) {
        String key = prefix + "k%02d".formatted(random.nextInt(50));
        KeyValue latest = known.get(key);
        String value = "w" + writer + "-" + done;
        try {
          if (latest == null) {
            KeyValue kv = join(storage.create(key, bytes(value)));
            log.puts.put(kv.modRevision(), kv);
            known.put(key, kv);
          } else if (random.nextInt(8) == 0) {
            KeyValue deleted = join(storage.delete(key, latest.modRevision()));
            log.deletedVersions.put(deleted.modRevision(), deleted);
            known.remove(key, latest);
          } else {
            KeyValue kv = join(storage.update(key, bytes(value), latest.modRevision()));
            log.puts.put(kv.modRevision(), kv);
            known.put(key, kv);
          }
        } catch (StorageException e) {
          switch (e.code()) {
            case KEY_EXISTS, CONFLICT -> known.put(key, e.current().orElseThrow());
            case KEY_NOT_FOUND -> known.remove(key);
            default -> throw e;
          }
          continue;
        }
        done++;
        onChange.run();
      }
    });
  }
}
