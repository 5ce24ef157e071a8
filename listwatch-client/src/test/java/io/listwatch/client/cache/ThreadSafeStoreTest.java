package io.listwatch.client.cache;

import static io.listwatch.client.cache.StoreTestObject.BY_APP;
import static io.listwatch.client.cache.StoreTestObject.KEY;
import static io.listwatch.client.cache.StoreTestObject.META;
import static io.listwatch.client.cache.StoreTestObject.obj;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class ThreadSafeStoreTest {

  private final ThreadSafeStore<StoreTestObject> store =
      new ThreadSafeStore<>(
          KEY, Map.of(Indexer.NAMESPACE_INDEX, IndexFunc.namespace(META), "app", BY_APP));

  @Test
  void add_thenGetByKey_returnsTheObject() {
    StoreTestObject a = obj("ns", "a", "1");
    store.add(a);

    assertThat(store.getByKey("ns/a")).containsSame(a);
    assertThat(store.get(obj("ns", "a", "other"))).containsSame(a);
    assertThat(store.getByKey("ns/b")).isEmpty();
    assertThat(store.listKeys()).containsExactly("ns/a");
    assertThat(store.size()).isEqualTo(1);
  }

  @Test
  void put_returnsThePreviousObject_andMaintainsTheIndexes() {
    StoreTestObject v1 = obj("ns", "a", "1");
    assertThat(store.put(v1)).isNull();
    StoreTestObject v2 = obj("ns", "a", "2");
    assertThat(store.put(v2)).isSameAs(v1);

    assertThat(store.getByKey("ns/a")).containsSame(v2);
    assertThat(store.byIndex(Indexer.NAMESPACE_INDEX, "ns")).containsExactly(v2);
  }

  @Test
  void update_replacesTheObjectUnderItsKey() {
    store.add(obj("ns", "a", "1"));
    StoreTestObject v2 = obj("ns", "a", "2");
    store.update(v2);

    assertThat(store.list()).containsExactly(v2);
    assertThat(store.byIndex(Indexer.NAMESPACE_INDEX, "ns")).containsExactly(v2);
  }

  @Test
  void delete_removesTheObjectAndItsIndexEntries() {
    store.add(obj("ns", "a", "1", Map.of("app", "web")));
    store.delete(obj("ns", "a", "2"));

    assertThat(store.list()).isEmpty();
    assertThat(store.byIndex("app", "web")).isEmpty();
    assertThat(store.listIndexFuncValues("app")).isEmpty();
    assertThat(store.listIndexFuncValues(Indexer.NAMESPACE_INDEX)).isEmpty();
  }

  @Test
  void delete_ofAbsentKey_isNoOp() {
    store.add(obj("ns", "a", "1"));
    store.delete(obj("ns", "zzz", "1"));

    assertThat(store.listKeys()).containsExactly("ns/a");
  }

  @Test
  void update_thatChangesIndexValue_movesKeyToTheNewBucket_andDropsEmptyOldBucket() {
    store.add(obj("ns", "a", "1", Map.of("app", "web")));
    store.add(obj("ns", "b", "1", Map.of("app", "web")));
    StoreTestObject a2 = obj("ns", "a", "2", Map.of("app", "db"));
    store.update(a2);

    assertThat(store.indexKeys("app", "web")).containsExactly("ns/b");
    assertThat(store.byIndex("app", "db")).containsExactly(a2);

    store.update(obj("ns", "b", "2", Map.of()));
    assertThat(store.indexKeys("app", "web")).isEmpty();
    assertThat(store.listIndexFuncValues("app")).containsExactly("db");
  }

  @Test
  void index_returnsObjectsSharingAnyValueOfTheGivenObject() {
    IndexFunc<StoreTestObject> tiers = o -> List.copyOf(o.labels().keySet());
    ThreadSafeStore<StoreTestObject> multi = new ThreadSafeStore<>(KEY, Map.of("keys", tiers));
    StoreTestObject a = obj("ns", "a", "1", Map.of("x", "1"));
    StoreTestObject b = obj("ns", "b", "1", Map.of("y", "1"));
    StoreTestObject c = obj("ns", "c", "1", Map.of("z", "1"));
    multi.add(a);
    multi.add(b);
    multi.add(c);

    assertThat(multi.index("keys", obj("any", "q", "1", Map.of("x", "", "y", ""))))
        .containsExactlyInAnyOrder(a, b);
    assertThat(multi.index("keys", obj("any", "q", "1", Map.of("z", "")))).containsExactly(c);
    assertThat(multi.index("keys", obj("any", "q", "1"))).isEmpty();
  }

  @Test
  void namespaceIndex_groupsByNamespace_clusterScopedUnderEmptyValue() {
    StoreTestObject a = obj("ns1", "a", "1");
    StoreTestObject b = obj("ns2", "b", "1");
    StoreTestObject node = obj("", "node-1", "1");
    store.add(a);
    store.add(b);
    store.add(node);

    assertThat(store.byIndex(Indexer.NAMESPACE_INDEX, "ns1")).containsExactly(a);
    assertThat(store.byIndex(Indexer.NAMESPACE_INDEX, "")).containsExactly(node);
    assertThat(store.listIndexFuncValues(Indexer.NAMESPACE_INDEX))
        .containsExactlyInAnyOrder("ns1", "ns2", "");
    assertThat(store.getByKey("node-1")).containsSame(node);
  }

  @Test
  void replace_setsNewContentAndRebuildsIndexes() {
    store.add(obj("ns", "old", "1", Map.of("app", "web")));
    StoreTestObject a = obj("ns", "a", "5", Map.of("app", "db"));
    StoreTestObject b = obj("other", "b", "5");
    store.replace(List.of(a, b), "5");

    assertThat(store.list()).containsExactlyInAnyOrder(a, b);
    assertThat(store.listIndexFuncValues("app")).containsExactly("db");
    assertThat(store.byIndex(Indexer.NAMESPACE_INDEX, "ns")).containsExactly(a);
    assertThat(store.byIndex(Indexer.NAMESPACE_INDEX, "other")).containsExactly(b);
  }

  @Test
  void addIndexers_buildsTheNewIndexOverCurrentItems_andMaintainsItAfterwards() {
    ThreadSafeStore<StoreTestObject> plain = new ThreadSafeStore<>(KEY);
    StoreTestObject a = obj("ns", "a", "1", Map.of("app", "web"));
    plain.add(a);
    plain.addIndexers(Map.of("app", BY_APP));

    assertThat(plain.byIndex("app", "web")).containsExactly(a);
    assertThat(plain.indexNames()).containsExactly("app");

    StoreTestObject b = obj("ns", "b", "1", Map.of("app", "web"));
    plain.add(b);
    assertThat(plain.byIndex("app", "web")).containsExactlyInAnyOrder(a, b);
  }

  @Test
  void addIndexers_withANameInUse_throwsAndChangesNothing() {
    assertThatThrownBy(
            () -> store.addIndexers(Map.of("fresh", BY_APP, "app", IndexFunc.namespace(META))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("app");
    assertThat(store.indexNames()).containsExactlyInAnyOrder(Indexer.NAMESPACE_INDEX, "app");
  }

  @Test
  void unknownIndexName_throwsIllegalArgument() {
    StoreTestObject a = obj("ns", "a", "1");
    store.add(a);

    assertThatThrownBy(() -> store.byIndex("nope", "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nope");
    assertThatThrownBy(() -> store.indexKeys("nope", "x"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.listIndexFuncValues("nope"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.index("nope", a)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void list_isASnapshot_notChangedByLaterWrites() {
    store.add(obj("ns", "a", "1"));
    List<StoreTestObject> snapshot = store.list();
    store.add(obj("ns", "b", "1"));
    store.delete(obj("ns", "a", "1"));

    assertThat(snapshot).extracting(StoreTestObject::name).containsExactly("a");
  }

  /**
   * Writers churn objects whose "app" label moves between values while readers check that
   * every object an index bucket returns has that bucket's value; at the end the indexes
   * agree exactly with the objects.
   */
  @Test
  @Timeout(60)
  void concurrentReadersAndWriters_keepIndexesConsistent() throws Exception {
    int writers = 3;
    int readers = 2;
    int opsPerWriter = 20_000;
    String[] apps = {"a", "b", "c", "d"};
    ExecutorService pool = Executors.newFixedThreadPool(writers + readers);
    CountDownLatch start = new CountDownLatch(1);
    AtomicBoolean writing = new AtomicBoolean(true);
    try {
      List<Future<?>> writerFutures = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int seed = w;
        writerFutures.add(
            pool.submit(
                () -> {
                  SplittableRandom random = new SplittableRandom(seed);
                  start.await();
                  for (int i = 0; i < opsPerWriter; i++) {
                    String name = "o" + random.nextInt(200);
                    String ns = "ns" + seed;
                    String app = apps[random.nextInt(apps.length)];
                    if (random.nextInt(5) == 0) {
                      store.delete(obj(ns, name, "0"));
                    } else {
                      store.update(obj(ns, name, String.valueOf(i), Map.of("app", app)));
                    }
                  }
                  return null;
                }));
      }
      List<Future<Integer>> readerFutures = new ArrayList<>();
      for (int r = 0; r < readers; r++) {
        readerFutures.add(
            pool.submit(
                () -> {
                  start.await();
                  int checks = 0;
                  while (writing.get()) {
                    for (String app : apps) {
                      for (StoreTestObject o : store.byIndex("app", app)) {
                        assertThat(o).isNotNull();
                        assertThat(o.labels()).containsEntry("app", app);
                        checks++;
                      }
                    }
                  }
                  return checks;
                }));
      }
      start.countDown();
      for (Future<?> f : writerFutures) {
        f.get(50, TimeUnit.SECONDS);
      }
      writing.set(false);
      for (Future<Integer> f : readerFutures) {
        assertThat(f.get(10, TimeUnit.SECONDS)).isPositive();
      }
    } finally {
      writing.set(false);
      pool.shutdownNow();
    }

    List<StoreTestObject> all = store.list();
    int indexed = 0;
    for (String app : store.listIndexFuncValues("app")) {
      List<String> keys = store.indexKeys("app", app);
      assertThat(keys).isNotEmpty();
      for (String key : keys) {
        assertThat(store.getByKey(key).orElseThrow().labels()).containsEntry("app", app);
      }
      indexed += keys.size();
    }
    assertThat(indexed).isEqualTo(all.size());
    int byNamespace = 0;
    for (String ns : store.listIndexFuncValues(Indexer.NAMESPACE_INDEX)) {
      byNamespace += store.indexKeys(Indexer.NAMESPACE_INDEX, ns).size();
    }
    assertThat(byNamespace).isEqualTo(all.size());
  }
}
