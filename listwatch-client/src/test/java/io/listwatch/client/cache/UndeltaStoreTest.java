package io.listwatch.client.cache;

import static io.listwatch.client.cache.StoreTestObject.KEY;
import static io.listwatch.client.cache.StoreTestObject.obj;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class UndeltaStoreTest {

  private final List<List<StoreTestObject>> pushes = Collections.synchronizedList(new ArrayList<>());
  private final UndeltaStore<StoreTestObject> store = new UndeltaStore<>(KEY, pushes::add);

  @Test
  void everyChange_pushesTheCompleteState() {
    StoreTestObject a = obj("ns", "a", "1");
    StoreTestObject b = obj("ns", "b", "1");
    StoreTestObject a2 = obj("ns", "a", "2");
    StoreTestObject c = obj("ns", "c", "3");

    store.add(a);
    store.add(b);
    store.update(a2);
    store.delete(b);
    store.replace(List.of(c), "3");

    assertThat(pushes).hasSize(5);
    assertThat(pushes.get(0)).containsExactly(a);
    assertThat(pushes.get(1)).containsExactlyInAnyOrder(a, b);
    assertThat(pushes.get(2)).containsExactlyInAnyOrder(a2, b);
    assertThat(pushes.get(3)).containsExactly(a2);
    assertThat(pushes.get(4)).containsExactly(c);
    assertThat(store.list()).containsExactly(c);
    assertThat(store.getByKey("ns/c")).containsSame(c);
  }

  @Test
  void resync_pushesNothing() {
    store.add(obj("ns", "a", "1"));
    store.resync();

    assertThat(pushes).hasSize(1);
  }

  @Test
  @Timeout(30)
  void pushes_fromConcurrentWriters_arriveInChangeOrder() throws Exception {
    int threads = 4;
    int perThread = 500;
    CountDownLatch start = new CountDownLatch(1);
    List<CompletableFuture<Void>> writers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      writers.add(
          CompletableFuture.runAsync(
              () -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  throw new IllegalStateException(e);
                }
                for (int i = 0; i < perThread; i++) {
                  store.add(obj("ns" + id, "o" + i, "1"));
                }
              }));
    }
    start.countDown();
    for (CompletableFuture<Void> w : writers) {
      w.get(20, TimeUnit.SECONDS);
    }

    // Each add creates a new key, so in change order the n-th push holds exactly n objects;
    // a push delivered out of order would break the sequence.
    assertThat(pushes).hasSize(threads * perThread);
    for (int n = 0; n < pushes.size(); n++) {
      assertThat(pushes.get(n)).hasSize(n + 1);
    }
  }
}
