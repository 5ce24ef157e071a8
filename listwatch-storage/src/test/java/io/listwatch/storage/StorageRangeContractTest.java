package io.listwatch.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.storage.StorageException.Code;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The {@link Storage} contract: reads at past revisions, ranges by prefix, ordering, limits
 * and paging at a revision. Part of the contract suite every implementation runs
 * (see {@link StorageContract}); shipped in this module's test-jar.
 */
public abstract class StorageRangeContractTest extends StorageContract {

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
    expected.sort(StorageContract::compareUtf8);

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
    assertThat(pagedKeys).isSortedAccordingTo(StorageContract::compareUtf8);
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
  void range_failsWithInvalidKey_forMalformedPrefix() {
    assertFails(Code.INVALID_KEY, () -> storage.range(RangeRequest.prefix("/a\uD800")));
  }
}
