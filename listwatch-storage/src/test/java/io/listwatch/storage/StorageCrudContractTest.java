package io.listwatch.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.storage.StorageException.Code;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@link Storage} contract: create, get, update and delete of single keys, guarded writes,
 * revisions, and bad keys and values. Part of the contract suite every implementation runs
 * (see {@link StorageContract}); shipped in this module's test-jar.
 */
public abstract class StorageCrudContractTest extends StorageContract {

  /**
   * A new store is empty, and its first change takes the revision after the one it opened at:
   * 0 for a new embedded store, the cluster's revision for a store sharing etcd.
   */
  @Test
  void newStore_isEmpty_andItsFirstChangeTakesTheNextRevision() {
    long opened = storage.currentRevision();

    assertThat(range(RangeRequest.prefix("")).kvs()).isEmpty();
    assertThat(get("/a")).isEmpty();
    assertThat(join(storage.readCurrentRevision())).isEqualTo(opened);
    assertThat(create("/a", "v").modRevision()).isEqualTo(opened + 1);
    assertThat(join(storage.readCurrentRevision())).isEqualTo(opened + 1);
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
}
