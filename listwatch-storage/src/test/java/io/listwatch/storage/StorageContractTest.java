package io.listwatch.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.fail;

import io.listwatch.storage.StorageException.Code;
import io.listwatch.storage.WatchEvent.Type;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The executable form of the {@link Storage} contract: every implementation extends this
 * class and passes it. It is shipped in this module's test-jar.
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
public abstract class StorageContractTest {

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
  // get / create / update / delete

  @Test
  void currentRevision_isZero_forNewStore() {
    assertThat(storage.currentRevision()).isZero();
    assertThat(get("/a")).isEmpty();
  }

  @Test
  void get_returnsEmpty_whenKeyAbsent() {
    create("/present", "v");

    assertThat(get("/absent")).isEmpty();
    assertThat(get("/presen")).isEmpty();
    assertThat(get("/present/")).isEmpty();
  }

  @Test
  void create_returnsVersionOne_withCreateRevisionEqualToModRevision() {
    KeyValue kv = create("/a", "v1");

    assertThat(kv.key()).isEqualTo("/a");
    assertThat(kv.valueAsString()).isEqualTo("v1");
    assertThat(kv.version()).isEqualTo(1);
    assertThat(kv.modRevision()).isPositive().isEqualTo(kv.createRevision());
    assertThat(storage.currentRevision()).isEqualTo(kv.modRevision());
    assertThat(get("/a")).contains(kv);
  }

  @Test
  void update_bumpsVersionAndModRevision_keepingCreateRevision() {
    KeyValue v1 = create("/a", "v1");

    KeyValue v2 = update(v1, "v2");
    KeyValue v3 = update(v2, "v3");

    assertThat(v2.valueAsString()).isEqualTo("v2");
    assertThat(v2.version()).isEqualTo(2);
    assertThat(v2.createRevision()).isEqualTo(v1.createRevision());
    assertThat(v2.modRevision()).isGreaterThan(v1.modRevision());
    assertThat(v3.version()).isEqualTo(3);
    assertThat(v3.createRevision()).isEqualTo(v1.createRevision());
    assertThat(v3.modRevision()).isGreaterThan(v2.modRevision());
    assertThat(get("/a")).contains(v3);
  }

  @Test
  void delete_returnsDeletedVersion_andRemovesKey() {
    KeyValue v1 = create("/a", "v1");
    KeyValue v2 = update(v1, "v2");

    KeyValue deleted = delete(v2);

    assertThat(deleted).isEqualTo(v2);
    assertThat(get("/a")).isEmpty();
    assertThat(storage.currentRevision()).isGreaterThan(v2.modRevision());
  }

  @Test
  void revisions_takeNextValueOfStoreCounter_acrossOperations() {
    List<Long> revisions = new ArrayList<>();
    KeyValue a = create("/a", "1");
    revisions.add(a.modRevision());
    KeyValue b = create("/b", "1");
    revisions.add(b.modRevision());
    a = update(a, "2");
    revisions.add(a.modRevision());
    delete(b);
    revisions.add(storage.currentRevision());
    b = create("/b", "2");
    revisions.add(b.modRevision());
    delete(a);
    revisions.add(storage.currentRevision());

    long first = revisions.get(0);
    for (int i = 0; i < revisions.size(); i++) {
      assertThat(revisions.get(i)).as("revision of change %d in %s", i, revisions)
          .isEqualTo(first + i);
    }
    assertThat(storage.currentRevision()).isEqualTo(revisions.get(revisions.size() - 1));
  }

  @Test
  void failedOperations_consumeNoRevision() {
    KeyValue a = create("/a", "v1");
    KeyValue a2 = update(a, "v2");
    long before = storage.currentRevision();

    assertFails(Code.KEY_EXISTS, () -> storage.create("/a", bytes("x")));
    assertFails(Code.CONFLICT, () -> storage.update("/a", bytes("x"), a.modRevision()));
    assertFails(Code.CONFLICT, () -> storage.delete("/a", a.modRevision()));
    assertFails(Code.KEY_NOT_FOUND, () -> storage.update("/missing", bytes("x"), 1));
    assertFails(Code.KEY_NOT_FOUND, () -> storage.delete("/missing", 1));
    assertFails(Code.INVALID_KEY, () -> storage.create("", bytes("x")));
    assertFails(Code.TOO_LARGE, () -> storage.create("/big", new byte[maxValueBytes() + 1]));

    assertThat(storage.currentRevision()).isEqualTo(before);
    assertThat(get("/a")).contains(a2);
    assertThat(create("/b", "v").modRevision()).isEqualTo(before + 1);
  }

  @Test
  void create_failsWithKeyExists_whenKeyPresent() {
    KeyValue existing = update(create("/a", "v1"), "v2");

    StorageException e = assertFails(Code.KEY_EXISTS, () -> storage.create("/a", bytes("x")));

    assertThat(e.key()).contains("/a");
    assertThat(e.current()).contains(existing);
    assertThat(get("/a")).contains(existing);
  }

  @Test
  void update_failsWithConflict_whenModRevisionDiffers() {
    KeyValue v1 = create("/a", "v1");
    KeyValue v2 = update(v1, "v2");

    StorageException e = assertFails(Code.CONFLICT,
        () -> storage.update("/a", bytes("x"), v1.modRevision()));

    assertThat(e.key()).contains("/a");
    assertThat(e.current()).contains(v2);
    assertThat(get("/a")).contains(v2);
  }

  @Test
  void delete_failsWithConflict_whenModRevisionDiffers() {
    KeyValue v1 = create("/a", "v1");
    KeyValue v2 = update(v1, "v2");

    StorageException e = assertFails(Code.CONFLICT,
        () -> storage.delete("/a", v1.modRevision()));

    assertThat(e.current()).contains(v2);
    assertThat(get("/a")).contains(v2);
  }

  @Test
  void update_failsWithKeyNotFound_whenKeyAbsent() {
    StorageException e = assertFails(Code.KEY_NOT_FOUND,
        () -> storage.update("/missing", bytes("x"), 1));

    assertThat(e.key()).contains("/missing");
    assertThat(get("/missing")).isEmpty();
  }

  @Test
  void delete_failsWithKeyNotFound_whenKeyAbsent() {
    assertFails(Code.KEY_NOT_FOUND, () -> storage.delete("/missing", 1));
  }

  @Test
  void updateAndDelete_failWithKeyNotFound_afterKeyWasDeleted() {
    KeyValue v1 = create("/a", "v1");
    delete(v1);

    assertFails(Code.KEY_NOT_FOUND, () -> storage.update("/a", bytes("x"), v1.modRevision()));
    assertFails(Code.KEY_NOT_FOUND, () -> storage.delete("/a", v1.modRevision()));
  }

  @Test
  void create_afterDelete_startsNewIncarnationAtVersionOne() {
    KeyValue old = update(create("/a", "v1"), "v2");
    delete(old);

    KeyValue recreated = create("/a", "again");

    assertThat(recreated.version()).isEqualTo(1);
    assertThat(recreated.createRevision()).isEqualTo(recreated.modRevision())
        .isGreaterThan(old.modRevision());
    assertThat(get("/a")).contains(recreated);
  }

  @Test
  void create_storesEmptyValue_distinctFromAbsentKey() {
    KeyValue kv = join(storage.create("/empty", new byte[0]));

    assertThat(kv.value()).isEmpty();
    assertThat(get("/empty")).contains(kv);
    assertThat(keys(range(RangeRequest.prefix("/")))).containsExactly("/empty");
    assertFails(Code.KEY_EXISTS, () -> storage.create("/empty", bytes("x")));
  }

  @Test
  void create_concurrentlyOnSameKey_succeedsExactlyOnce() {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      keys.add("/race/k" + i);
    }
    Map<String, List<KeyValue>> winners = new ConcurrentHashMap<>();
    Map<String, List<KeyValue>> seenByLosers = new ConcurrentHashMap<>();

    runConcurrently(8, "create-race", thread -> {
      for (String key : keys) {
        try {
          KeyValue kv = join(storage.create(key, bytes("thread-" + thread)));
          winners.computeIfAbsent(key, k -> Collections.synchronizedList(new ArrayList<>())).add(kv);
        } catch (StorageException e) {
          assertThat(e.code()).isEqualTo(Code.KEY_EXISTS);
          seenByLosers.computeIfAbsent(key, k -> Collections.synchronizedList(new ArrayList<>()))
              .add(e.current().orElseThrow());
        }
      }
    });

    for (String key : keys) {
      assertThat(winners.get(key)).as("successful creates of %s", key).hasSize(1);
      KeyValue winner = winners.get(key).get(0);
      assertThat(seenByLosers.get(key)).as("current version seen by losers of %s", key)
          .hasSize(7).containsOnly(winner);
      assertThat(get(key)).contains(winner);
    }
  }

  @Test
  void update_asCompareAndSwap_losesNoIncrement_underContention() {
    int threads = 8;
    int increments = 200;
    KeyValue initial = create("/counter", "0");
    AtomicInteger successes = new AtomicInteger();

    runConcurrently(threads, "cas", thread -> {
      for (int i = 0; i < increments; i++) {
        while (true) {
          KeyValue kv = get("/counter").orElseThrow();
          long next = Long.parseLong(kv.valueAsString()) + 1;
          try {
            join(storage.update("/counter", bytes(Long.toString(next)), kv.modRevision()));
            successes.incrementAndGet();
            break;
          } catch (StorageException e) {
            assertThat(e.code()).isEqualTo(Code.CONFLICT);
            assertThat(e.current()).isPresent();
            assertThat(e.current().orElseThrow().modRevision()).isNotEqualTo(kv.modRevision());
          }
        }
      }
    });

    KeyValue last = get("/counter").orElseThrow();
    assertThat(last.valueAsString()).isEqualTo(Integer.toString(threads * increments));
    assertThat(successes.get()).isEqualTo(threads * increments);
    assertThat(last.version() - 1).isEqualTo(successes.get());
    assertThat(last.createRevision()).isEqualTo(initial.createRevision());
  }

  // ---------------------------------------------------------------------------------------
  // reads at past revisions

  @Test
  void get_atPastRevision_returnsVersionOfThatTime() {
    KeyValue v1 = create("/a", "v1");
    KeyValue other = create("/other", "x");
    KeyValue v2 = update(v1, "v2");
    KeyValue v3 = update(v2, "v3");

    assertThat(get("/a", v1.modRevision())).contains(v1);
    assertThat(get("/a", other.modRevision())).contains(v1);
    assertThat(get("/a", v2.modRevision())).contains(v2);
    assertThat(get("/a", v3.modRevision())).contains(v3);
    assertThat(get("/a", 0)).contains(v3);
  }

  @Test
  void get_atRevisionWhenKeyDidNotExist_returnsEmpty() {
    KeyValue before = create("/before", "x");
    KeyValue v1 = create("/a", "v1");
    delete(v1);
    long deletedAt = storage.currentRevision();
    KeyValue recreated = create("/a", "v2");

    assertThat(get("/a", before.modRevision())).isEmpty();
    assertThat(get("/a", v1.modRevision())).contains(v1);
    assertThat(get("/a", deletedAt)).isEmpty();
    assertThat(get("/a", recreated.modRevision())).contains(recreated);
  }

  @Test
  void get_failsWithFutureRevision_aboveCurrentRevision() {
    create("/a", "v");
    long current = storage.currentRevision();

    StorageException e = assertFails(Code.FUTURE_REVISION, () -> storage.get("/a", current + 1));

    assertThat(e.currentRevision()).isEqualTo(current);
  }

  @Test
  void get_failsWithCompacted_belowCompactedRevision() throws Exception {
    KeyValue v1 = create("/a", "v1");
    KeyValue v2 = update(v1, "v2");
    KeyValue v3 = update(v2, "v3");
    create("/b", "x");

    compact(storage, v3.modRevision());

    assertThat(storage.compactedRevision()).isGreaterThanOrEqualTo(v3.modRevision());
    StorageException e = assertFails(Code.COMPACTED, () -> storage.get("/a", v2.modRevision()));
    assertThat(e.compactedRevision()).isGreaterThanOrEqualTo(v3.modRevision());
    assertThat(get("/a")).contains(v3);
  }

  // ---------------------------------------------------------------------------------------
  // range

  @Test
  void range_returnsOnlyKeysUnderPrefix() {
    for (String key : List.of("/a", "/a/1", "/ab", "/a/2", "/b/1", "/a/sub/3", "/", "/a0")) {
      create(key, "v");
    }

    assertThat(keys(range(RangeRequest.prefix("/a/")))).containsExactly("/a/1", "/a/2", "/a/sub/3");
    assertThat(keys(range(RangeRequest.prefix("/a")))).containsExactly(
        "/a", "/a/1", "/a/2", "/a/sub/3", "/a0", "/ab");
    assertThat(keys(range(RangeRequest.prefix("")))).containsExactly(
        "/", "/a", "/a/1", "/a/2", "/a/sub/3", "/a0", "/ab", "/b/1");
  }

  @Test
  void range_ordersKeysByUtf8Bytes() {
    // U+FF01 sorts before U+1F600 in UTF-8, but after it in UTF-16 (String.compareTo).
    List<String> keys = new ArrayList<>(List.of("/o/b", "/o/a", "/o/a/b", "/o/a b", "/o/Z",
        "/o/\u00e9", "/o/\uFF01", "/o/\uD83D\uDE00", "/o/~", "/o/0"));
    Collections.shuffle(keys, new Random(7));
    List<KeyValue> created = new ArrayList<>();
    for (String key : keys) {
      created.add(create(key, key));
    }
    List<String> expected = new ArrayList<>(keys);
    expected.sort(StorageContractTest::compareUtf8);

    RangeResult result = range(RangeRequest.prefix("/o/"));

    assertThat(keys(result)).containsExactlyElementsOf(expected);
    assertThat(result.kvs()).containsExactlyInAnyOrderElementsOf(created);
    assertThat(result.more()).isFalse();
  }

  @Test
  void range_withLimit_returnsFirstKeys_andSetsMore() {
    for (int i = 5; i >= 1; i--) {
      create("/l/" + i, "v");
    }

    RangeResult two = range(RangeRequest.prefix("/l/").withLimit(2));
    RangeResult five = range(RangeRequest.prefix("/l/").withLimit(5));
    RangeResult ten = range(RangeRequest.prefix("/l/").withLimit(10));
    RangeResult unlimited = range(RangeRequest.prefix("/l/").withLimit(0));

    assertThat(keys(two)).containsExactly("/l/1", "/l/2");
    assertThat(two.more()).isTrue();
    assertThat(keys(five)).hasSize(5);
    assertThat(five.more()).isFalse();
    assertThat(keys(ten)).hasSize(5);
    assertThat(ten.more()).isFalse();
    assertThat(keys(unlimited)).containsExactly("/l/1", "/l/2", "/l/3", "/l/4", "/l/5");
    assertThat(unlimited.more()).isFalse();
  }

  @Test
  void range_fromStartKey_skipsEarlierKeys() {
    for (String key : List.of("/s/a", "/s/b", "/s/b/c", "/s/c")) {
      create(key, "v");
    }

    assertThat(keys(range(RangeRequest.prefix("/s/").withStartKey("/s/b"))))
        .containsExactly("/s/b", "/s/b/c", "/s/c");
    assertThat(keys(range(RangeRequest.prefix("/s/").withStartKey(Keys.after("/s/b")))))
        .containsExactly("/s/b/c", "/s/c");
    assertThat(keys(range(RangeRequest.prefix("/s/").withStartKey("/s/bb"))))
        .containsExactly("/s/c");
  }

  @Test
  void range_returnsEmptyList_whenNoKeyMatches() {
    create("/a/1", "v");

    RangeResult result = range(RangeRequest.prefix("/b/"));

    assertThat(result.kvs()).isEmpty();
    assertThat(result.more()).isFalse();
    assertThat(result.revision()).isEqualTo(storage.currentRevision());
  }

  @Test
  void range_atRevisionZero_servesCurrentRevision() {
    create("/a", "v");
    KeyValue last = create("/b", "v");

    assertThat(range(RangeRequest.prefix("/")).revision()).isEqualTo(last.modRevision());
  }

  @Test
  void range_atPastRevision_showsPastState() {
    KeyValue a1 = create("/r/a", "a1");
    KeyValue b1 = create("/r/b", "b1");
    long snapshot = storage.currentRevision();
    KeyValue a2 = update(a1, "a2");
    delete(b1);
    KeyValue c1 = create("/r/c", "c1");

    RangeResult past = range(RangeRequest.prefix("/r/").atRevision(snapshot));
    RangeResult now = range(RangeRequest.prefix("/r/"));

    assertThat(past.kvs()).containsExactly(a1, b1);
    assertThat(past.revision()).isEqualTo(snapshot);
    assertThat(now.kvs()).containsExactly(a2, c1);
  }

  @Test
  void range_pagedAtFirstPageRevision_returnsEveryKeyOnce_whileOthersWrite() {
    String prefix = "/page/";
    int initialKeys = 150;
    Map<String, KeyValue> initial = new TreeMap<>();
    for (int i = 0; i < initialKeys; i++) {
      String key = prefix + "k%03d".formatted(i);
      initial.put(key, create(key, "initial"));
    }
    ConcurrentLinkedQueue<KeyValue> puts = new ConcurrentLinkedQueue<>();
    Map<String, long[]> deletions = new ConcurrentHashMap<>();
    List<KeyValue> initialList = List.copyOf(initial.values());
    // The pager hands out write permits between pages and waits for those writes, so writes
    // of every kind land between the pages.
    Semaphore permits = new Semaphore(0);
    Semaphore written = new Semaphore(0);
    AtomicBoolean stop = new AtomicBoolean();

    Workers writers = startWorkers(3, "page-writer", role -> {
      Random random = new Random(role);
      Map<String, KeyValue> updated = new HashMap<>();
      int nextDelete = 1;
      for (int n = 0; !stop.get(); n++) {
        if (role == 2 && nextDelete >= initialKeys) {
          return; // every odd key is deleted
        }
        if (!permits.tryAcquire(10, TimeUnit.MILLISECONDS)) {
          continue;
        }
        try {
          switch (role) {
            case 0 -> { // updates the even initial keys
              KeyValue kv = initialList.get(2 * random.nextInt(initialKeys / 2));
              KeyValue latest = updated.getOrDefault(kv.key(), kv);
              KeyValue next = update(latest, "update-" + n);
              updated.put(kv.key(), next);
              puts.add(next);
            }
            case 1 -> { // creates keys that sort between the initial ones
              String key = prefix + "k%03d-new-%d".formatted(random.nextInt(initialKeys), n);
              puts.add(create(key, "new-" + n));
            }
            default -> { // deletes the odd initial keys, each once
              KeyValue kv = initialList.get(nextDelete);
              nextDelete += 2;
              long notBefore = storage.currentRevision();
              delete(kv);
              long notAfter = storage.currentRevision();
              deletions.put(kv.key(), new long[] {notBefore, notAfter});
            }
          }
        } finally {
          written.release();
        }
      }
    });

    List<KeyValue> paged = new ArrayList<>();
    long snapshot;
    try {
      allowWrites(permits, written, 6);
      RangeRequest request = RangeRequest.prefix(prefix).withLimit(10);
      RangeResult page = range(request);
      snapshot = page.revision();
      while (true) {
        assertThat(page.revision()).isEqualTo(snapshot);
        paged.addAll(page.kvs());
        if (!page.more()) {
          break;
        }
        assertThat(page.kvs()).hasSize(10);
        allowWrites(permits, written, 3);
        String last = page.kvs().get(page.kvs().size() - 1).key();
        page = range(request.withStartKey(Keys.after(last)).atRevision(snapshot));
      }
    } finally {
      stop.set(true);
    }
    writers.awaitDone();

    List<String> pagedKeys = paged.stream().map(KeyValue::key).toList();
    assertThat(pagedKeys).doesNotHaveDuplicates();
    assertThat(pagedKeys).isSortedAccordingTo(StorageContractTest::compareUtf8);
    assertThat(paged).containsExactlyElementsOf(
        range(RangeRequest.prefix(prefix).atRevision(snapshot)).kvs());
    assertThat(storage.currentRevision()).as("writers ran past the snapshot")
        .isGreaterThan(snapshot);

    Map<String, KeyValue> expected = new TreeMap<>(initial);
    for (KeyValue put : puts) {
      if (put.modRevision() <= snapshot) {
        expected.merge(put.key(), put, (a, b) -> a.modRevision() >= b.modRevision() ? a : b);
      }
    }
    Map<String, KeyValue> actual = new HashMap<>();
    paged.forEach(kv -> actual.put(kv.key(), kv));
    for (KeyValue kv : paged) {
      assertThat(kv.modRevision()).as("mod revision of %s", kv.key()).isLessThanOrEqualTo(snapshot);
    }
    for (Map.Entry<String, KeyValue> entry : expected.entrySet()) {
      String key = entry.getKey();
      long[] deletedBetween = deletions.get(key);
      if (deletedBetween == null || snapshot <= deletedBetween[0]) {
        assertThat(actual.get(key)).as("%s at revision %d", key, snapshot)
            .isEqualTo(entry.getValue());
      } else if (snapshot >= deletedBetween[1]) {
        assertThat(actual).as("%s deleted at or before %d", key, snapshot).doesNotContainKey(key);
      } else if (actual.containsKey(key)) {
        assertThat(actual.get(key)).isEqualTo(entry.getValue());
      }
    }
    assertThat(expected.keySet()).containsAll(actual.keySet());
  }

  @Test
  void range_failsWithFutureRevision_aboveCurrentRevision() {
    create("/a", "v");
    long current = storage.currentRevision();

    assertFails(Code.FUTURE_REVISION,
        () -> storage.range(RangeRequest.prefix("/").atRevision(current + 1)));
  }

  @Test
  void range_failsWithCompacted_belowCompactedRevision() throws Exception {
    KeyValue a = create("/a", "v1");
    KeyValue a2 = update(a, "v2");
    KeyValue b = create("/b", "v1");

    compact(storage, b.modRevision());

    StorageException e = assertFails(Code.COMPACTED,
        () -> storage.range(RangeRequest.prefix("/").atRevision(a.modRevision())));
    assertThat(e.compactedRevision()).isGreaterThanOrEqualTo(b.modRevision());
    assertThat(range(RangeRequest.prefix("/")).kvs()).containsExactly(a2, b);
  }

  @Test
  void range_failsWithInvalidKey_forMalformedPrefix() {
    assertFails(Code.INVALID_KEY, () -> storage.range(RangeRequest.prefix("/a\uD800")));
  }

  // ---------------------------------------------------------------------------------------
  // compact

  @Test
  void compact_keepsStateAtCompactedRevision_andLatestVersions() {
    KeyValue a = create("/c/a", "a1");
    KeyValue b = create("/c/b", "b1");
    KeyValue gone = create("/c/gone", "x");
    a = update(a, "a2");
    delete(gone);
    KeyValue late = create("/c/late", "x");
    long mid = late.modRevision();
    RangeResult atMid = range(RangeRequest.prefix("/c/").atRevision(mid));
    a = update(a, "a3");
    delete(b);
    KeyValue after = create("/c/after", "x");
    RangeResult current = range(RangeRequest.prefix("/c/"));

    join(storage.compact(mid));

    assertThat(storage.compactedRevision()).isEqualTo(mid);
    assertThat(range(RangeRequest.prefix("/c/").atRevision(mid))).isEqualTo(atMid);
    assertThat(range(RangeRequest.prefix("/c/"))).isEqualTo(current);
    assertThat(get("/c/a")).contains(a);
    assertThat(get("/c/after")).contains(after);
    assertThat(get("/c/b")).isEmpty();
    assertThat(get("/c/gone", mid)).isEmpty();
    assertFails(Code.COMPACTED, () -> storage.get("/c/a", mid - 1));
  }

  @Test
  void create_afterDeleteCompactedAway_startsNewIncarnation() {
    KeyValue old = update(create("/a", "v1"), "v2");
    delete(old);
    long compactedAt = storage.currentRevision();
    join(storage.compact(compactedAt));
    RecordingListener listener = new RecordingListener();
    watch("/", compactedAt, listener);

    KeyValue recreated = create("/a", "again");

    assertThat(recreated.version()).isEqualTo(1);
    assertThat(recreated.createRevision()).isEqualTo(compactedAt + 1);
    assertThat(get("/a")).contains(recreated);
    assertThat(get("/a", compactedAt)).isEmpty();
    assertThat(range(RangeRequest.prefix("/")).kvs()).containsExactly(recreated);
    assertThat(listener.awaitRevision(recreated.modRevision()))
        .containsExactly(new WatchEvent(Type.PUT, recreated, null));
  }

  @Test
  void compact_failsWithFutureRevision_beyondCurrentRevision() {
    create("/a", "v");
    long current = storage.currentRevision();

    assertFails(Code.FUTURE_REVISION, () -> storage.compact(current + 1));

    assertThat(storage.compactedRevision()).isLessThanOrEqualTo(current);
  }

  @Test
  void compact_atOrBelowCompactedRevision_isNoOp() {
    List<KeyValue> kvs = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      kvs.add(create("/k" + i, "v"));
    }
    long compactedAt = kvs.get(3).modRevision();
    join(storage.compact(compactedAt));

    join(storage.compact(compactedAt - 2));
    join(storage.compact(compactedAt));

    assertThat(storage.compactedRevision()).isEqualTo(compactedAt);
    assertThat(get("/k3", compactedAt)).contains(kvs.get(3));
  }

  // ---------------------------------------------------------------------------------------
  // watch

  @Test
  void watch_fromCurrentRevision_deliversPutsAndDeletesInOrder() {
    KeyValue before = create("/w/a", "before");
    RecordingListener listener = new RecordingListener();
    watch("/w/", storage.currentRevision(), listener);
    KeyValue a2 = update(before, "a2");
    KeyValue b1 = create("/w/b", "b1");
    KeyValue deleted = delete(a2);
    long deletedAt = storage.currentRevision();
    KeyValue b2 = update(b1, "b2");

    List<WatchEvent> events = listener.awaitEvents(4);

    assertThat(events).hasSize(4);
    assertThat(events.get(0)).isEqualTo(new WatchEvent(Type.PUT, a2, before));
    assertThat(events.get(1)).isEqualTo(new WatchEvent(Type.PUT, b1, null));
    assertThat(events.get(1).isCreate()).isTrue();
    WatchEvent delete = events.get(2);
    assertThat(delete.type()).isEqualTo(Type.DELETE);
    assertThat(delete.prevKv()).isEqualTo(deleted).isEqualTo(a2);
    assertThat(delete.kv().key()).isEqualTo("/w/a");
    assertThat(delete.kv().value()).isEmpty();
    assertThat(delete.kv().createRevision()).isEqualTo(before.createRevision());
    assertThat(delete.kv().modRevision()).isEqualTo(deletedAt).isEqualTo(b1.modRevision() + 1);
    assertThat(delete.revision()).isEqualTo(deletedAt);
    assertThat(events.get(3)).isEqualTo(new WatchEvent(Type.PUT, b2, b1));
    listener.assertNoViolations();
  }

  @Test
  void watch_deliversOnlyKeysUnderItsPrefix() {
    RecordingListener listener = new RecordingListener();
    watch("/a/", storage.currentRevision(), listener);
    create("/ab", "v");
    create("/a", "v");
    KeyValue inside = create("/a/x", "v");
    create("/b/x", "v");
    create("/", "v");
    KeyValue last = create("/a/last", "v");

    List<WatchEvent> events = listener.awaitRevision(last.modRevision());

    assertThat(events).extracting(WatchEvent::kv).containsExactly(inside, last);
    listener.assertNoViolations();
  }

  @Test
  void watch_fromPastRevision_replaysExactlyLaterChanges() {
    KeyValue a1 = create("/h/a", "a1");
    create("/h/b", "b1");
    long remembered = storage.currentRevision();
    KeyValue a2 = update(a1, "a2");
    KeyValue c1 = create("/h/c", "c1");
    delete(c1);
    long deletedAt = storage.currentRevision();

    RecordingListener listener = new RecordingListener();
    watch("/h/", remembered, listener);
    List<WatchEvent> events = listener.awaitRevision(deletedAt);

    assertThat(events).hasSize(3);
    assertThat(events.get(0)).isEqualTo(new WatchEvent(Type.PUT, a2, a1));
    assertThat(events.get(1)).isEqualTo(new WatchEvent(Type.PUT, c1, null));
    assertThat(events.get(2).type()).isEqualTo(Type.DELETE);
    assertThat(events.get(2).prevKv()).isEqualTo(c1);
    assertThat(events.get(2).revision()).isEqualTo(deletedAt);

    KeyValue live = create("/h/live", "x");
    assertThat(listener.awaitRevision(live.modRevision())).hasSize(4);
    listener.assertNoViolations();
  }

  @Test
  void watch_aheadOfStore_waitsForThoseRevisions() {
    long current = storage.currentRevision();
    RecordingListener listener = new RecordingListener();
    watch("/f/", current + 2, listener);
    create("/f/1", "v");
    create("/f/2", "v");
    KeyValue third = create("/f/3", "v");

    List<WatchEvent> events = listener.awaitRevision(third.modRevision());

    assertThat(events).extracting(WatchEvent::kv).containsExactly(third);
    listener.assertNoViolations();
  }

  @Test
  void watch_underConcurrentWriters_deliversEveryChangeOnceInRevisionOrder() {
    String prefix = "/cw/";
    int writerCount = 8;
    int writesPerWriter = 500;
    long start = storage.currentRevision();
    CountDownLatch quarterDone = new CountDownLatch(writerCount * writesPerWriter / 4);
    CountDownLatch halfDone = new CountDownLatch(writerCount * writesPerWriter / 2);
    RecordingListener fromStart = new RecordingListener();
    RecordingListener fromQuarter = new RecordingListener();
    ChangeLog log = new ChangeLog();

    watch(prefix, start, fromStart);
    Workers writers = startChangeWriters(prefix, writerCount, writesPerWriter, log, () -> {
      quarterDone.countDown();
      halfDone.countDown();
    });
    await(quarterDone);
    long quarter = storage.currentRevision();
    await(halfDone);
    watch(prefix, quarter, fromQuarter);
    writers.awaitDone();
    long end = storage.currentRevision();
    assertThat(end - start).as("changes committed").isEqualTo(writerCount * writesPerWriter);

    List<WatchEvent> all = fromStart.awaitRevision(end);
    List<WatchEvent> late = fromQuarter.awaitRevision(end);

    assertContiguous(all, start + 1, end);
    assertContiguous(late, quarter + 1, end);
    assertEventChain(all, true);
    assertEventChain(late, false);
    assertThat(late).isEqualTo(all.subList((int) (quarter - start), all.size()));
    log.assertMatches(all);
    fromStart.assertNoViolations();
    fromQuarter.assertNoViolations();
  }

  @Test
  void watch_startedWhileWritersRun_switchesToLiveWithoutGapOrDuplicate() {
    String prefix = "/sw/";
    int writerCount = 4;
    int writesPerWriter = 500;
    int watchCount = 38;
    int writesBetweenWatches = writerCount * writesPerWriter / (watchCount + 2);
    long start = storage.currentRevision();
    List<CountDownLatch> milestones = new ArrayList<>();
    for (int i = 1; i <= watchCount; i++) {
      milestones.add(new CountDownLatch(i * writesBetweenWatches));
    }
    RecordingListener fromStart = new RecordingListener();
    ChangeLog log = new ChangeLog();
    Map<Long, RecordingListener> late = new TreeMap<>();
    Random random = new Random(11);

    watch(prefix, start, fromStart);
    Workers writers = startChangeWriters(prefix, writerCount, writesPerWriter, log,
        () -> milestones.forEach(CountDownLatch::countDown));
    for (int i = 0; i < watchCount; i++) {
      await(milestones.get(i));
      // Half start at the current revision (list, then watch), half a little in the past.
      long current = storage.currentRevision();
      long from = i % 2 == 0 ? current : Math.max(start, current - 1 - random.nextInt(200));
      RecordingListener listener = new RecordingListener();
      if (late.putIfAbsent(from, listener) == null) {
        watch(prefix, from, listener);
      }
    }
    writers.awaitDone();
    long end = storage.currentRevision();

    List<WatchEvent> all = fromStart.awaitRevision(end);
    assertContiguous(all, start + 1, end);
    log.assertMatches(all);
    for (Map.Entry<Long, RecordingListener> watch : late.entrySet()) {
      long from = watch.getKey();
      List<WatchEvent> events = watch.getValue().awaitRevision(end);
      assertThat(events).as("events of the watch from revision %d", from)
          .isEqualTo(all.subList((int) (from - start), all.size()));
      watch.getValue().assertNoViolations();
    }
    assertThat(late).hasSizeGreaterThan(watchCount / 2);
    fromStart.assertNoViolations();
  }

  @Test
  void watch_stuckListener_blocksNeitherWritersNorOtherWatches() {
    assertStuckListenerBlocksNobody("/stuck/", 5_000);
  }

  /**
   * Blocks one watch's listener in its first call while {@code changes} creates commit, and
   * checks that the writers finish, that a second watch receives everything meanwhile, and
   * that the stuck watch, once released, still gets every change exactly once.
   */
  protected final void assertStuckListenerBlocksNobody(String prefix, int changes) {
    int writers = 16;
    int perWriter = changes / writers;
    long start = storage.currentRevision();
    CountDownLatch release = new CountDownLatch(1);
    RecordingListener stuck = new RecordingListener().holdFirstCallUntil(release);
    RecordingListener healthy = new RecordingListener();
    watch(prefix, start, stuck);
    watch(prefix, start, healthy);

    try {
      runConcurrently(writers, "stuck-writer", writer -> {
        for (int i = 0; i < perWriter; i++) {
          join(storage.create(prefix + writer + "/" + i, bytes("v")));
        }
      });
      long end = storage.currentRevision();
      assertThat(end - start).isEqualTo((long) writers * perWriter);
      assertContiguous(healthy.awaitRevision(end), start + 1, end);
      assertThat(stuck.events()).as("events of the stuck watch before release").isEmpty();

      release.countDown();
      List<WatchEvent> events = stuck.awaitRevision(end);

      assertContiguous(events, start + 1, end);
      assertThat(events).isEqualTo(healthy.events());
      stuck.assertNoViolations();
      healthy.assertNoViolations();
    } finally {
      release.countDown();
    }
  }

  @Test
  void watch_overtakenByCompaction_failsWithCompacted_orStaysComplete() {
    String prefix = "/overtaken/";
    long start = storage.currentRevision();
    runConcurrently(8, "history-writer", writer -> {
      for (int i = 0; i < 400; i++) {
        join(storage.create(prefix + writer + "/" + i, bytes("v")));
      }
    });
    long end = storage.currentRevision();
    CountDownLatch release = new CountDownLatch(1);
    RecordingListener listener = new RecordingListener().holdFirstCallUntil(release);
    try {
      watch(prefix, start, listener);
      listener.awaitFirstCallHeld();

      join(storage.compact(end));
      release.countDown();

      List<WatchEvent> events = listener.awaitRevisionOrError(end);
      if (listener.error().isPresent()) {
        assertThat(listener.error().orElseThrow().code()).isEqualTo(Code.COMPACTED);
      } else {
        assertThat(events.get(events.size() - 1).revision()).isEqualTo(end);
      }
      assertThat(events).isNotEmpty();
      assertContiguous(events, start + 1, events.get(events.size() - 1).revision());
      listener.assertNoViolations();
    } finally {
      release.countDown();
    }
  }

  @Test
  void watch_fromRevisionBelowCompacted_failsWithCompacted_andDeliversNothing() throws Exception {
    KeyValue a = create("/wc/a", "v1");
    a = update(a, "v2");
    KeyValue b = create("/wc/b", "v1");
    compact(storage, b.modRevision());

    RecordingListener compacted = new RecordingListener();
    RecordingListener witness = new RecordingListener();
    watch("/wc/", 1, compacted);
    watch("/wc/", storage.currentRevision(), witness);
    StorageException error = compacted.awaitError();
    assertThat(error.code()).isEqualTo(Code.COMPACTED);
    assertThat(error.compactedRevision()).isGreaterThanOrEqualTo(b.modRevision());

    KeyValue later = update(a, "v3");
    witness.awaitRevision(later.modRevision());

    assertThat(compacted.events()).isEmpty();
    assertThat(compacted.calls()).isEqualTo(1);
    compacted.assertNoViolations();
  }

  @Test
  void watch_fromCompactedRevision_deliversLaterChanges() {
    KeyValue a = create("/wc/a", "v1");
    a = update(a, "v2");
    long compactedAt = storage.currentRevision();
    join(storage.compact(compactedAt));
    KeyValue a3 = update(a, "v3");

    RecordingListener listener = new RecordingListener();
    watch("/wc/", compactedAt, listener);
    List<WatchEvent> events = listener.awaitRevision(a3.modRevision());

    assertThat(events).containsExactly(new WatchEvent(Type.PUT, a3, a));
    listener.assertNoViolations();
  }

  @Test
  void watch_keepsDelivering_acrossCompaction() {
    RecordingListener listener = new RecordingListener();
    watch("/x/", storage.currentRevision(), listener);
    KeyValue a = create("/x/a", "v1");
    listener.awaitRevision(a.modRevision());
    join(storage.compact(storage.currentRevision()));
    KeyValue a2 = update(a, "v2");

    List<WatchEvent> events = listener.awaitRevision(a2.modRevision());

    assertThat(events).containsExactly(
        new WatchEvent(Type.PUT, a, null), new WatchEvent(Type.PUT, a2, a));
    listener.assertNoViolations();
  }

  @Test
  void watch_requestProgress_reportsRevision_afterDeliveringEarlierEvents() {
    RecordingListener listener = new RecordingListener();
    Watch watch = watch("/p/", storage.currentRevision(), listener);
    create("/p/a", "v");
    create("/p/b", "v");
    create("/p/c", "v");
    KeyValue outside = create("/elsewhere", "v");

    watch.requestProgress();
    Progress progress = listener.awaitProgress(outside.modRevision());

    assertThat(progress.revision()).isGreaterThanOrEqualTo(outside.modRevision())
        .isLessThanOrEqualTo(storage.currentRevision());
    assertThat(progress.eventsBefore()).as("events delivered before the progress").isEqualTo(3);
    listener.assertNoViolations();
  }

  @Test
  void watch_requestProgress_onQuietPrefix_reportsCurrentRevision() {
    create("/elsewhere/1", "v");
    RecordingListener listener = new RecordingListener();
    Watch watch = watch("/quiet/", storage.currentRevision(), listener);
    KeyValue outside = create("/elsewhere/2", "v");

    watch.requestProgress();
    Progress progress = listener.awaitProgress(outside.modRevision());

    assertThat(progress.revision()).isEqualTo(outside.modRevision());
    assertThat(listener.events()).isEmpty();
    listener.assertNoViolations();
  }

  @Test
  void watch_close_stopsFurtherCallbacks() {
    long start = storage.currentRevision();
    RecordingListener closed = new RecordingListener();
    RecordingListener witness = new RecordingListener();
    Watch watch = storage.watch("/wc/", start, closed);
    KeyValue first = create("/wc/a", "v1");
    closed.awaitRevision(first.modRevision());

    watch.close();
    int callsAtClose = closed.calls();
    watch.close();
    watch.requestProgress();
    KeyValue second = update(first, "v2");
    KeyValue third = create("/wc/b", "v1");

    watch("/wc/", start, witness);
    assertThat(witness.awaitRevision(third.modRevision())).extracting(WatchEvent::kv)
        .containsExactly(first, second, third);
    assertThat(closed.calls()).isEqualTo(callsAtClose);
    assertThat(closed.events()).extracting(WatchEvent::kv).containsExactly(first);
    closed.assertNoViolations();
  }

  // ---------------------------------------------------------------------------------------
  // close

  @Test
  void close_endsWatchesWithUnavailable() {
    RecordingListener listener = new RecordingListener();
    storage.watch("/x/", storage.currentRevision(), listener);
    KeyValue a = create("/x/a", "v");
    listener.awaitRevision(a.modRevision());

    storage.close();

    assertThat(listener.awaitError().code()).isEqualTo(Code.UNAVAILABLE);
    listener.assertNoViolations();
  }

  @Test
  void close_failsLaterOperationsWithUnavailable() {
    KeyValue a = create("/a", "v");

    storage.close();

    assertFails(Code.UNAVAILABLE, () -> storage.get("/a"));
    assertFails(Code.UNAVAILABLE, () -> storage.get("/a", a.modRevision()));
    assertFails(Code.UNAVAILABLE, () -> storage.range(RangeRequest.prefix("/")));
    assertFails(Code.UNAVAILABLE, () -> storage.create("/b", bytes("v")));
    assertFails(Code.UNAVAILABLE, () -> storage.update("/a", bytes("v2"), a.modRevision()));
    assertFails(Code.UNAVAILABLE, () -> storage.delete("/a", a.modRevision()));
    assertFails(Code.UNAVAILABLE, () -> storage.compact(a.modRevision()));
    RecordingListener listener = new RecordingListener();
    try {
      storage.watch("/", 0, listener);
      assertThat(listener.awaitError().code()).isEqualTo(Code.UNAVAILABLE);
    } catch (StorageException e) {
      assertThat(e.code()).isEqualTo(Code.UNAVAILABLE);
    }
  }

  @Test
  void close_isIdempotent() {
    create("/a", "v");

    storage.close();

    assertThatCode(storage::close).doesNotThrowAnyException();
  }

  // ---------------------------------------------------------------------------------------
  // restart

  @Test
  void restart_keepsDataVersionsAndHistory() throws Exception {
    KeyValue a1 = create("/a", "v1");
    KeyValue a2 = update(a1, "v2");
    KeyValue b = create("/b", "v1");
    delete(create("/c", "v1"));
    KeyValue a3 = update(a2, "v3");
    long last = storage.currentRevision();

    restartStorage();

    assertThat(storage.currentRevision()).isEqualTo(last);
    assertThat(get("/a")).contains(a3);
    assertThat(get("/b")).contains(b);
    assertThat(get("/c")).isEmpty();
    assertThat(get("/a", a1.modRevision())).contains(a1);
    assertThat(range(RangeRequest.prefix("/")).kvs()).containsExactly(a3, b);
    KeyValue next = create("/d", "v");
    assertThat(next.modRevision()).isEqualTo(last + 1);
    KeyValue a4 = update(a3, "v4");
    assertThat(a4.version()).isEqualTo(4);
    assertThat(a4.createRevision()).isEqualTo(a1.createRevision());
  }

  @Test
  void restart_keepsRevision_whenLastChangesWereDeletesCompactedAway() throws Exception {
    KeyValue a = create("/a", "v");
    KeyValue b = create("/b", "v");
    delete(b);
    delete(a);
    long last = storage.currentRevision();
    join(storage.compact(last));

    restartStorage();

    assertThat(storage.currentRevision()).isEqualTo(last);
    assertThat(range(RangeRequest.prefix("/")).kvs()).isEmpty();
    assertThat(create("/a", "again").modRevision()).isEqualTo(last + 1);
  }

  @Test
  void restart_keepsCompactedRevision() throws Exception {
    KeyValue a = create("/a", "v1");
    KeyValue a2 = update(a, "v2");
    create("/b", "v1");
    long compactedAt = storage.currentRevision();
    join(storage.compact(compactedAt));

    restartStorage();

    assertThat(storage.compactedRevision()).isEqualTo(compactedAt);
    assertFails(Code.COMPACTED, () -> storage.get("/a", a.modRevision()));
    assertThat(get("/a", compactedAt)).contains(a2);
  }

  @Test
  void watch_fromRevisionBeforeRestart_replaysLaterChanges() throws Exception {
    KeyValue a1 = create("/h/a", "v1");
    long remembered = storage.currentRevision();
    KeyValue a2 = update(a1, "v2");
    KeyValue b = create("/h/b", "v1");
    delete(b);

    restartStorage();
    KeyValue c = create("/h/c", "v1");

    RecordingListener listener = new RecordingListener();
    watch("/h/", remembered, listener);
    List<WatchEvent> events = listener.awaitRevision(c.modRevision());

    assertThat(events).hasSize(4);
    assertThat(events.get(0)).isEqualTo(new WatchEvent(Type.PUT, a2, a1));
    assertThat(events.get(1)).isEqualTo(new WatchEvent(Type.PUT, b, null));
    assertThat(events.get(2).type()).isEqualTo(Type.DELETE);
    assertThat(events.get(2).prevKv()).isEqualTo(b);
    assertThat(events.get(3)).isEqualTo(new WatchEvent(Type.PUT, c, null));
    assertContiguous(events, remembered + 1, c.modRevision());
    listener.assertNoViolations();
  }

  // ---------------------------------------------------------------------------------------
  // bad input

  static Stream<Arguments> invalidKeys() {
    return Stream.of(
        Arguments.of("empty key", "", Code.INVALID_KEY),
        Arguments.of("key with NUL", "/a\0b", Code.INVALID_KEY),
        Arguments.of("key with unpaired surrogate", "a\uD800b", Code.INVALID_KEY),
        Arguments.of("key ending in high surrogate", "/a\uD83D", Code.INVALID_KEY),
        Arguments.of("ASCII key over the limit", "k".repeat(Keys.MAX_KEY_BYTES + 1), Code.TOO_LARGE),
        Arguments.of("two-byte key over the limit in bytes only",
            "\u00e9".repeat(Keys.MAX_KEY_BYTES / 2 + 1), Code.TOO_LARGE));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidKeys")
  void create_failsAndWritesNothing_forInvalidKey(String description, String key, Code code) {
    create("/existing", "v");
    long before = storage.currentRevision();

    assertFails(code, () -> storage.create(key, bytes("v")));

    assertThat(storage.currentRevision()).isEqualTo(before);
    assertThat(keys(range(RangeRequest.prefix("")))).containsExactly("/existing");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidKeys")
  void updateDeleteAndGet_failWithSameCode_forInvalidKey(String description, String key, Code code) {
    KeyValue existing = create("/existing", "v");
    long before = storage.currentRevision();

    assertFails(code, () -> storage.update(key, bytes("v"), existing.modRevision()));
    assertFails(code, () -> storage.delete(key, existing.modRevision()));
    assertFails(code, () -> storage.get(key));

    assertThat(storage.currentRevision()).isEqualTo(before);
    assertThat(range(RangeRequest.prefix("")).kvs()).containsExactly(existing);
  }

  @Test
  void create_acceptsKey_ofExactlyMaxKeyBytes() {
    String key = "/" + "k".repeat(Keys.MAX_KEY_BYTES - 1);

    KeyValue kv = create(key, "v");

    assertThat(get(key)).contains(kv);
  }

  @Test
  void create_failsWithTooLarge_forValueOverLimit_andWritesNothing() {
    long before = storage.currentRevision();

    StorageException e = assertFails(Code.TOO_LARGE,
        () -> storage.create("/big", new byte[maxValueBytes() + 1]));

    assertThat(e.key()).contains("/big");
    assertThat(storage.currentRevision()).isEqualTo(before);
    assertThat(get("/big")).isEmpty();
  }

  @Test
  void update_failsWithTooLarge_forValueOverLimit_andWritesNothing() {
    KeyValue kv = create("/big", "small");
    long before = storage.currentRevision();

    assertFails(Code.TOO_LARGE,
        () -> storage.update("/big", new byte[maxValueBytes() + 1], kv.modRevision()));

    assertThat(storage.currentRevision()).isEqualTo(before);
    assertThat(get("/big")).contains(kv);
  }

  @Test
  void create_acceptsValue_ofExactlyMaxValueBytes() {
    byte[] value = new byte[maxValueBytes()];
    new Random(1).nextBytes(value);

    KeyValue kv = join(storage.create("/big", value));

    assertThat(get("/big").orElseThrow().value()).isEqualTo(value);
    assertThat(kv.value()).hasSize(maxValueBytes());
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
  protected static <T> T join(CompletableFuture<T> future) {
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
  protected static StorageException assertFails(Code code,
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
  private static void allowWrites(Semaphore permits, Semaphore written, int count) {
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

  /** The body of one concurrent worker; {@code index} tells the workers apart. */
  @FunctionalInterface
  protected interface Task {
    void run(int index) throws Exception;
  }

  /** Runs {@code count} workers on virtual threads and waits (bounded) for all of them. */
  protected static void runConcurrently(int count, String name, Task task) {
    startWorkers(count, name, task).awaitDone();
  }

  /** Starts {@code count} workers on virtual threads, released together. */
  protected static Workers startWorkers(int count, String name, Task task) {
    return new Workers(count, name, task);
  }

  /** Worker threads started together; {@link #awaitDone()} fails if any worker failed. */
  protected static final class Workers {
    private final List<Thread> threads = new ArrayList<>();
    private final List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());

    Workers(int count, String name, Task task) {
      CountDownLatch go = new CountDownLatch(1);
      for (int i = 0; i < count; i++) {
        int index = i;
        threads.add(Thread.ofVirtual().name(name + "-" + i).start(() -> {
          try {
            go.await();
            task.run(index);
          } catch (Throwable t) {
            failures.add(t);
          }
        }));
      }
      go.countDown();
    }

    /** Waits (bounded by {@link #TIMEOUT} in all) for every worker; rethrows failures. */
    public void awaitDone() {
      long deadline = System.nanoTime() + TIMEOUT.toNanos() * 2;
      try {
        for (Thread thread : threads) {
          long left = Math.max(1, deadline - System.nanoTime());
          if (!thread.join(Duration.ofNanos(left))) {
            threads.forEach(Thread::interrupt);
            fail("worker %s did not finish within %s", thread.getName(), TIMEOUT.multipliedBy(2));
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      }
      if (!failures.isEmpty()) {
        AssertionError error = new AssertionError(
            failures.size() + " worker(s) failed; first: " + failures.get(0), failures.get(0));
        failures.stream().skip(1).limit(5).forEach(error::addSuppressed);
        throw error;
      }
    }
  }

  /** A progress notification and how many events had arrived before it. */
  public record Progress(long revision, int eventsBefore) {
  }

  /**
   * A {@link WatchListener} that records every call and lets the test wait (bounded) for
   * them. It also records contract violations it can see by itself: overlapping calls,
   * revisions that do not increase, and calls after {@code onError}.
   *
   * <p>Thread-safe: the listener methods run on the store's threads, the awaits on the test
   * thread; all state is guarded by {@code lock}.
   */
  public static final class RecordingListener implements WatchListener {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final AtomicBoolean inCall = new AtomicBoolean();
    /** Guarded by lock. */
    private final List<WatchEvent> events = new ArrayList<>();
    /** Guarded by lock. */
    private final List<Progress> progress = new ArrayList<>();
    /** Guarded by lock. */
    private final List<String> violations = new ArrayList<>();
    /** Guarded by lock. */
    private StorageException error;
    /** Guarded by lock: calls started, of every kind. */
    private int calls;
    /** When set, the first onEvents call waits (bounded) for it before recording. */
    private volatile CountDownLatch gate;
    private final CountDownLatch firstCallHeld = new CountDownLatch(1);

    /**
     * Makes the first {@code onEvents} call block until {@code release} opens (or twice
     * {@link #TIMEOUT} passes): a stuck listener. Call before the watch starts.
     */
    public RecordingListener holdFirstCallUntil(CountDownLatch release) {
      gate = release;
      return this;
    }

    /** Waits (bounded) until the first {@code onEvents} call is being held. */
    public void awaitFirstCallHeld() {
      await(firstCallHeld);
    }

    @Override
    public void onEvents(List<WatchEvent> batch) {
      enter("onEvents");
      CountDownLatch release = gate;
      if (release != null) {
        gate = null;
        firstCallHeld.countDown();
        try {
          release.await(TIMEOUT.toMillis() * 2, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      lock.lock();
      try {
        calls++;
        if (error != null) {
          violations.add("onEvents after onError: " + batch);
        }
        long last = events.isEmpty() ? Long.MIN_VALUE : events.get(events.size() - 1).revision();
        for (WatchEvent event : batch) {
          if (event.revision() <= last) {
            violations.add("revision " + event.revision() + " after " + last);
          }
          last = event.revision();
        }
        events.addAll(batch);
        changed.signalAll();
      } finally {
        lock.unlock();
        exit();
      }
    }

    @Override
    public void onProgress(long revision) {
      enter("onProgress");
      lock.lock();
      try {
        calls++;
        if (error != null) {
          violations.add("onProgress after onError: " + revision);
        }
        if (!events.isEmpty() && events.get(events.size() - 1).revision() > revision) {
          violations.add("progress " + revision + " after event of revision "
              + events.get(events.size() - 1).revision());
        }
        progress.add(new Progress(revision, events.size()));
        changed.signalAll();
      } finally {
        lock.unlock();
        exit();
      }
    }

    @Override
    public void onError(StorageException e) {
      enter("onError");
      lock.lock();
      try {
        calls++;
        if (error != null) {
          violations.add("second onError: " + e);
        } else {
          error = e;
        }
        changed.signalAll();
      } finally {
        lock.unlock();
        exit();
      }
    }

    /** Waits until at least {@code count} events arrived; returns all events so far. */
    public List<WatchEvent> awaitEvents(int count) {
      return awaitState(() -> events.size() >= count, "at least " + count + " events");
    }

    /** Waits until an event of revision {@code revision} or later arrived; returns all events. */
    public List<WatchEvent> awaitRevision(long revision) {
      return awaitState(() -> !events.isEmpty()
          && events.get(events.size() - 1).revision() >= revision, "an event of revision " + revision);
    }

    /**
     * Waits until an event of revision {@code revision} or later arrived or the watch failed;
     * returns all events.
     */
    public List<WatchEvent> awaitRevisionOrError(long revision) {
      return awaitState(() -> error != null || (!events.isEmpty()
          && events.get(events.size() - 1).revision() >= revision), "revision " + revision
          + " or an error");
    }

    /** Waits for a progress notification of at least {@code revision}. */
    public Progress awaitProgress(long revision) {
      awaitState(() -> progress.stream().anyMatch(p -> p.revision() >= revision),
          "progress to revision " + revision);
      lock.lock();
      try {
        return progress.stream().filter(p -> p.revision() >= revision).findFirst().orElseThrow();
      } finally {
        lock.unlock();
      }
    }

    /** Waits for {@code onError} and returns its error. */
    public StorageException awaitError() {
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      lock.lock();
      try {
        while (error == null) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            fail("no onError within %s; %s", TIMEOUT, describe());
          }
          changed.awaitNanos(left);
        }
        return error;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      } finally {
        lock.unlock();
      }
    }

    public List<WatchEvent> events() {
      lock.lock();
      try {
        return List.copyOf(events);
      } finally {
        lock.unlock();
      }
    }

    /** The number of listener calls that started, of every kind. */
    public int calls() {
      lock.lock();
      try {
        return calls;
      } finally {
        lock.unlock();
      }
    }

    public Optional<StorageException> error() {
      lock.lock();
      try {
        return Optional.ofNullable(error);
      } finally {
        lock.unlock();
      }
    }

    public void assertNoViolations() {
      lock.lock();
      try {
        assertThat(violations).as("watch contract violations").isEmpty();
      } finally {
        lock.unlock();
      }
    }

    private List<WatchEvent> awaitState(java.util.function.BooleanSupplier done, String what) {
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      lock.lock();
      try {
        while (!done.getAsBoolean()) {
          if (error != null) {
            throw new AssertionError("watch failed while waiting for " + what + "; "
                + describe(), error);
          }
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            fail("no %s within %s; %s", what, TIMEOUT, describe());
          }
          changed.awaitNanos(left);
        }
        return List.copyOf(events);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      } finally {
        lock.unlock();
      }
    }

    /** Guarded by lock. */
    private String describe() {
      String last = events.isEmpty() ? "none" : events.get(events.size() - 1).toString();
      return events.size() + " events (last " + last + "), progress " + progress
          + ", error " + error + ", violations " + violations;
    }

    private void enter(String method) {
      if (!inCall.compareAndSet(false, true)) {
        lock.lock();
        try {
          violations.add(method + " called while another call was running");
        } finally {
          lock.unlock();
        }
      }
    }

    private void exit() {
      inCall.set(false);
    }
  }
}
