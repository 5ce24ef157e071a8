package io.listwatch.client.cache;

import static io.listwatch.client.cache.StoreTestObject.KEY;
import static io.listwatch.client.cache.StoreTestObject.META;
import static io.listwatch.client.cache.StoreTestObject.obj;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.api.LabelSelector;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ListerTest {

  private final StoreTestObject web1 = obj("ns1", "web", "1", Map.of("app", "web"));
  private final StoreTestObject db1 = obj("ns1", "db", "1", Map.of("app", "db"));
  private final StoreTestObject web2 = obj("ns2", "web", "1", Map.of("app", "web"));
  private final StoreTestObject node = obj("", "node-1", "1", Map.of("role", "worker"));

  private final List<String> calls = Collections.synchronizedList(new ArrayList<>());

  private Lister<StoreTestObject> lister(boolean namespaceIndex) {
    ThreadSafeStore<StoreTestObject> store =
        namespaceIndex
            ? new ThreadSafeStore<>(
                KEY, Map.of(Indexer.NAMESPACE_INDEX, IndexFunc.namespace(META)))
            : new ThreadSafeStore<>(KEY);
    store.replace(List.of(web1, db1, web2, node), "1");
    return new Lister<>(recording(store), META);
  }

  @Test
  void get_findsAClusterScopedObjectByName() {
    Lister<StoreTestObject> lister = lister(true);

    assertThat(lister.get("node-1")).containsSame(node);
    assertThat(lister.get("node-2")).isEmpty();
  }

  @Test
  void list_returnsObjectsOfEveryNamespaceMatchingTheSelector() {
    Lister<StoreTestObject> lister = lister(true);

    assertThat(lister.list(LabelSelector.everything()))
        .containsExactlyInAnyOrder(web1, db1, web2, node);
    assertThat(lister.list(LabelSelector.parse("app=web"))).containsExactlyInAnyOrder(web1, web2);
    assertThat(lister.list(LabelSelector.parse("app notin (web),!role"))).containsExactly(db1);
  }

  @Test
  void namespace_get_findsTheObjectOnlyInThatNamespace() {
    Lister<StoreTestObject> lister = lister(true);

    assertThat(lister.namespace("ns1").get("db")).containsSame(db1);
    assertThat(lister.namespace("ns2").get("db")).isEmpty();
    assertThat(lister.namespace("ns2").get("web")).containsSame(web2);
  }

  @Test
  void namespace_list_usesTheNamespaceIndex_whenPresent() {
    Lister<StoreTestObject> lister = lister(true);
    calls.clear();

    assertThat(lister.namespace("ns1").list(LabelSelector.everything()))
        .containsExactlyInAnyOrder(web1, db1);
    assertThat(lister.namespace("ns1").list(LabelSelector.parse("app=web")))
        .containsExactly(web1);
    assertThat(calls).contains("byIndex").doesNotContain("list");
  }

  @Test
  void namespace_list_scansEveryObject_withoutANamespaceIndex() {
    Lister<StoreTestObject> lister = lister(false);
    calls.clear();

    assertThat(lister.namespace("ns1").list(LabelSelector.everything()))
        .containsExactlyInAnyOrder(web1, db1);
    assertThat(lister.namespace("ns2").list(LabelSelector.parse("app=db"))).isEmpty();
    assertThat(lister.namespace("nowhere").list(LabelSelector.everything())).isEmpty();
    assertThat(calls).contains("list").doesNotContain("byIndex");
  }

  @Test
  void namespace_empty_isRejected() {
    Lister<StoreTestObject> lister = lister(true);

    assertThatThrownBy(() -> lister.namespace(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("namespace");
  }

  /** An indexer that delegates to {@code target} and records the names of methods called. */
  @SuppressWarnings("unchecked")
  private Indexer<StoreTestObject> recording(Indexer<StoreTestObject> target) {
    return (Indexer<StoreTestObject>)
        Proxy.newProxyInstance(
            Indexer.class.getClassLoader(),
            new Class<?>[] {Indexer.class},
            (proxy, method, args) -> {
              calls.add(method.getName());
              try {
                return method.invoke(target, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }
}
