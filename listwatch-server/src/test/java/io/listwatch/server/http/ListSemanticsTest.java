package io.listwatch.server.http;

import static io.listwatch.server.http.KubeHttp.assertFailureStatus;
import static io.listwatch.server.http.KubeHttp.configMap;
import static io.listwatch.server.http.KubeHttp.names;
import static io.listwatch.server.http.KubeHttp.q;
import static io.listwatch.server.http.KubeHttp.rv;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.ApiServer;
import io.listwatch.apiserver.cacher.CacherConfig;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.storage.Storage;
import io.listwatch.storage.rocksdb.RocksDbStorage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * LIST over HTTP as kube clients use it (docs/compatibility.md, "Lists"): the list shape, the
 * resourceVersion semantics, paging with limit and continue, and the 400 / 410 / 422 / 504
 * answers for options kube refuses. Selectors are in {@link SelectorSemanticsTest}.
 */
@ExtendWith(ApiServerExtension.class)
class ListSemanticsTest {

  private static KubeHttp http;

  @BeforeAll
  static void connect(ApiServer server) {
    http = new KubeHttp(server);
  }

  @AfterAll
  static void disconnect() {
    http.close();
  }

  private static String cms(String ns) {
    return "/api/v1/namespaces/" + ns + "/configmaps";
  }

  // ---- shape and resourceVersion -------------------------------------------------------

  @Test
  void list_ofEmptyCollection_hasEmptyItemsArrayAndResourceVersion() {
    String ns = http.createNamespace("empty");

    JsonNode list = http.list(cms(ns));
    assertThat(list.path("kind").asText()).isEqualTo("ConfigMapList");
    assertThat(list.path("apiVersion").asText()).isEqualTo("v1");
    assertThat(list.get("items")).as("items must be [] (Python and Java require it)").isNotNull();
    assertThat(list.get("items").isArray()).isTrue();
    assertThat(list.get("items")).isEmpty();
    assertThat(rv(list)).isPositive();
    assertThat(list.path("metadata").has("continue")).as("no continue when nothing remains").isFalse();

    JsonNode deployments = http.list("/apis/apps/v1/namespaces/" + ns + "/deployments");
    assertThat(deployments.path("kind").asText()).isEqualTo("DeploymentList");
    assertThat(deployments.path("apiVersion").asText()).isEqualTo("apps/v1");
    assertThat(deployments.get("items").isArray()).isTrue();
    assertThat(deployments.get("items")).isEmpty();

    JsonNode none = http.list(cms(ns) + "?labelSelector=" + q("app=nothing") + "&limit=5");
    assertThat(none.get("items").isArray()).isTrue();
    assertThat(none.get("items")).isEmpty();
    assertThat(rv(none)).isPositive();
  }

  @Test
  void list_withUnsetResourceVersion_seesEveryWriteMadeJustBefore() {
    String ns = http.createNamespace("consistent");
    for (int i = 0; i < 20; i++) {
      JsonNode created = http.create(cms(ns), configMap("cm-" + i));
      JsonNode list = http.list(cms(ns));
      assertThat(names(list)).as("a consistent list right after creating cm-%d", i).contains("cm-" + i);
      assertThat(rv(list)).isGreaterThanOrEqualTo(rv(created));
    }

    ObjectNode changed = configMap("cm-0", Map.of(), Map.of("k", "changed"));
    http.put(cms(ns) + "/cm-0", changed).expect(200);
    JsonNode afterUpdate = http.list(cms(ns) + "?fieldSelector=" + q("metadata.name=cm-0"));
    assertThat(afterUpdate.at("/items/0/data/k").asText()).isEqualTo("changed");

    http.delete(cms(ns) + "/cm-1").expect(200);
    assertThat(names(http.list(cms(ns)))).doesNotContain("cm-1").hasSize(19);
  }

  @Test
  void list_withResourceVersionZero_answersWithTheObjectsAndAResourceVersion() {
    String ns = http.createNamespace("rv0");
    JsonNode created = http.create(cms(ns), configMap("a"));
    http.list(cms(ns)); // a consistent read: the cache has now seen the create

    JsonNode any = http.list(cms(ns) + "?resourceVersion=0");
    assertThat(names(any)).containsExactly("a");
    assertThat(rv(any)).isGreaterThanOrEqualTo(rv(created));

    // what client-go's reflector sends first
    JsonNode reflector = http.list(cms(ns) + "?resourceVersion=0&limit=500");
    assertThat(names(reflector)).containsExactly("a");
    assertThat(rv(reflector)).isGreaterThanOrEqualTo(rv(created));
  }

  @Test
  void list_atResourceVersionZero_ignoresTheLimit_asKubesWatchCacheDoes() {
    String ns = http.createNamespace("rv0limit");
    for (String name : List.of("a", "b", "c")) {
      http.create(cms(ns), configMap(name));
    }
    http.list(cms(ns)); // the cache has seen the creates

    JsonNode all = http.list(cms(ns) + "?resourceVersion=0&limit=1");
    assertThat(names(all)).containsExactly("a", "b", "c");
    assertThat(all.path("metadata").path("continue").asText("")).isEmpty();

    JsonNode paged = http.list(cms(ns) + "?limit=1");
    assertThat(names(paged)).containsExactly("a");
    assertThat(paged.path("metadata").path("continue").asText("")).isNotEmpty();
  }

  @Test
  void list_exactAtAnOlderResourceVersion_returnsTheStateAtThatVersion() {
    String ns = http.createNamespace("exact");
    long rv1 = rv(http.create(cms(ns), configMap("x", Map.of(), Map.of("v", "1"))));
    long rv2 = rv(http.put(cms(ns) + "/x", configMap("x", Map.of(), Map.of("v", "2"))).expect(200));
    long rv3 = rv(http.create(cms(ns), configMap("y")));
    http.delete(cms(ns) + "/x").expect(200);

    JsonNode at1 = http.list(cms(ns) + "?resourceVersion=" + rv1 + "&resourceVersionMatch=Exact");
    assertThat(rv(at1)).isEqualTo(rv1);
    assertThat(names(at1)).containsExactly("x");
    assertThat(at1.at("/items/0/data/v").asText()).isEqualTo("1");
    assertThat(rv(at1.at("/items/0"))).isEqualTo(rv1);

    JsonNode at2 = http.list(cms(ns) + "?resourceVersion=" + rv2 + "&resourceVersionMatch=Exact");
    assertThat(names(at2)).containsExactly("x");
    assertThat(at2.at("/items/0/data/v").asText()).isEqualTo("2");

    JsonNode at3 = http.list(cms(ns) + "?resourceVersion=" + rv3 + "&resourceVersionMatch=Exact");
    assertThat(names(at3)).containsExactly("x", "y");

    // legacy rule: resourceVersion=N with a limit is an exact read too
    JsonNode legacy = http.list(cms(ns) + "?resourceVersion=" + rv1 + "&limit=10");
    assertThat(names(legacy)).containsExactly("x");
    assertThat(legacy.at("/items/0/data/v").asText()).isEqualTo("1");

    JsonNode notOlder = http.list(cms(ns) + "?resourceVersion=" + rv1 + "&resourceVersionMatch=NotOlderThan");
    assertThat(names(notOlder)).as("NotOlderThan serves current state").containsExactly("y");
    assertThat(rv(notOlder)).isGreaterThan(rv3);
  }

  // ---- paging --------------------------------------------------------------------------

  @Test
  void list_withLimit_pagesEveryObjectOnceAtTheFirstPagesResourceVersion_whileAnotherThreadWrites()
      throws Exception {
    String ns = http.createNamespace("paging");
    List<String> original = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      String name = String.format("cm-%02d", i);
      original.add(name);
      http.create(cms(ns), configMap(name, Map.of(), Map.of("v", "original")));
    }

    ExecutorService writer = Executors.newSingleThreadExecutor(
        r -> Thread.ofPlatform().name("between-pages-writer").daemon(true).unstarted(r));
    try {
      JsonNode page = http.list(cms(ns) + "?limit=4");
      long snapshot = rv(page);
      assertThat(page.path("metadata").path("remainingItemCount").asLong(-1))
          .as("remainingItemCount of the first page").isEqualTo(21);
      Map<String, JsonNode> seen = new LinkedHashMap<>();
      int pageNumber = 0;
      while (true) {
        assertThat(rv(page)).as("resourceVersion of page %d", pageNumber).isEqualTo(snapshot);
        assertThat(page.get("items").size()).as("page %d size", pageNumber).isLessThanOrEqualTo(4);
        for (JsonNode item : page.get("items")) {
          JsonNode previous = seen.put(KubeHttp.name(item), item);
          assertThat(previous).as("%s listed twice", KubeHttp.name(item)).isNull();
        }
        String token = page.path("metadata").path("continue").asText("");
        if (token.isEmpty()) {
          break;
        }
        int p = pageNumber++;
        // another thread changes objects that later pages cover: none of it may show
        writer.submit(() -> {
          if (4 * p + 8 < 25) {
            String updated = String.format("cm-%02d", 4 * p + 8);
            http.put(cms(ns) + "/" + updated, configMap(updated, Map.of(), Map.of("v", "changed"))).expect(200);
          }
          if (4 * p + 9 < 25) {
            http.delete(cms(ns) + "/" + String.format("cm-%02d", 4 * p + 9)).expect(200);
          }
          http.create(cms(ns), configMap(String.format("cm-%02d-new", 4 * p + 10)));
        }).get(KubeHttp.WAIT.toMillis(), TimeUnit.MILLISECONDS);
        page = http.list(cms(ns) + "?limit=4&continue=" + q(token));
      }
      assertThat(seen.keySet()).as("every object of the snapshot exactly once, in key order")
          .containsExactlyElementsOf(original);
      for (JsonNode item : seen.values()) {
        assertThat(item.at("/data/v").asText()).as("%s as of the snapshot", KubeHttp.name(item))
            .isEqualTo("original");
        assertThat(rv(item)).isLessThanOrEqualTo(snapshot);
      }
      assertThat(pageNumber).isEqualTo(6);
    } finally {
      writer.shutdownNow();
    }
  }

  @Test
  void list_reportsRemainingItemCount_onlyWithoutSelectors() {
    String ns = http.createNamespace("remaining");
    for (int i = 0; i < 10; i++) {
      http.create(cms(ns), configMap("cm-" + i, Map.of("team", "a"), Map.of()));
    }
    JsonNode plain = http.list(cms(ns) + "?limit=3");
    assertThat(names(plain)).hasSize(3);
    assertThat(plain.at("/metadata/remainingItemCount").asLong(-1)).isEqualTo(7);
    assertThat(plain.at("/metadata/continue").asText()).isNotEmpty();

    JsonNode selected = http.list(cms(ns) + "?limit=3&labelSelector=" + q("team=a"));
    assertThat(names(selected)).hasSize(3);
    assertThat(selected.at("/metadata/continue").asText()).isNotEmpty();
    assertThat(selected.path("metadata").has("remainingItemCount"))
        .as("kube leaves remainingItemCount out when a selector is present").isFalse();
  }

  @Test
  void list_withLimitAndSelector_acrossAllNamespaces_pagesEveryMatchOnce() {
    String ns1 = http.createNamespace("pages-a");
    String ns2 = http.createNamespace("pages-b");
    String scope = "pages-" + ns1;
    List<String> expected = new ArrayList<>();
    for (String ns : List.of(ns1, ns2)) {
      for (int i = 0; i < 7; i++) {
        http.create(cms(ns), configMap("match-" + i, Map.of("scope", scope), Map.of()));
        http.create(cms(ns), configMap("other-" + i, Map.of("scope", scope + "-not"), Map.of()));
        expected.add(ns + "/match-" + i);
      }
    }
    String base = "/api/v1/configmaps?limit=3&labelSelector=" + q("scope=" + scope);
    JsonNode page = http.list(base);
    long snapshot = rv(page);
    List<String> seen = new ArrayList<>();
    for (int pages = 0; pages < 20; pages++) {
      assertThat(rv(page)).isEqualTo(snapshot);
      page.get("items").forEach(i -> seen.add(i.at("/metadata/namespace").asText() + "/" + KubeHttp.name(i)));
      String token = page.at("/metadata/continue").asText("");
      if (token.isEmpty()) {
        break;
      }
      page = http.list(base + "&continue=" + q(token));
    }
    assertThat(seen).containsExactlyElementsOf(expected);
  }

  /**
   * kubectl get asks for other formats; JSON is a valid answer. (client-go in protobuf mode gets
   * protobuf: ProtobufEncodingTest.)
   */
  @Test
  void list_withProtobufOrTableAcceptHeader_answersAJsonList() {
    String ns = http.createNamespace("accept");
    http.create(cms(ns), configMap("a"));
    for (String accept : List.of(
        "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,"
            + "application/json", "*/*")) {
      KubeHttp.Response r = http.get(cms(ns), accept);
      assertThat(r.code()).as(accept).isEqualTo(200);
      assertThat(r.contentType()).as(accept).startsWith("application/json");
      JsonNode list = r.json();
      assertThat(list.path("kind").asText()).isIn("ConfigMapList", "Table");
      assertThat(rv(list)).isPositive();
    }
  }

  @Test
  void list_withMalformedContinueToken_isRejectedWith400BadRequest() {
    String ns = http.createNamespace("badtoken");
    http.create(cms(ns), configMap("a"));
    String outsidePrefix = Base64.getUrlEncoder().withoutPadding().encodeToString(
        "{\"v\":\"meta.k8s.io/v1\",\"rv\":5,\"start\":\"../secrets/x\"}".getBytes(StandardCharsets.UTF_8));
    String otherVersion = Base64.getUrlEncoder().withoutPadding().encodeToString(
        "{\"v\":\"other/v9\",\"rv\":5,\"start\":\"a\"}".getBytes(StandardCharsets.UTF_8));
    for (String token : List.of("not-a-token!", "e30", outsidePrefix, otherVersion)) {
      assertFailureStatus(http.get(cms(ns) + "?limit=1&continue=" + q(token)), 400, "BadRequest");
    }
    // a continued list may not name its own resourceVersion (kube's storage rule)
    http.create(cms(ns), configMap("b"));
    String valid = http.list(cms(ns) + "?limit=1").at("/metadata/continue").asText();
    assertThat(valid).isNotEmpty();
    assertFailureStatus(http.get(cms(ns) + "?limit=1&resourceVersion=5&continue=" + q(valid)), 400, "BadRequest");
  }

  /**
   * Storage compacts on its own only after 5 minutes or 100,000 revisions, so the test
   * compacts the store directly while the server is stopped (compaction is durable), then
   * continues the list on a restarted server.
   */
  @Test
  void list_withContinueTokenFromCompactedRevision_isRejectedWith410Expired(@TempDir Path dataDir)
      throws Exception {
    String ns;
    String token;
    try (ApiServer server = ApiServer.builder().dataDir(dataDir).build().start();
        KubeHttp h = new KubeHttp(server)) {
      ns = h.createNamespace("compacted");
      for (int i = 0; i < 5; i++) {
        h.create(cms(ns), configMap("cm-" + i));
      }
      token = h.list(cms(ns) + "?limit=2").at("/metadata/continue").asText();
      assertThat(token).isNotEmpty();
      h.create(cms(ns), configMap("cm-after")); // a revision past the token's
    }
    try (Storage storage = RocksDbStorage.builder(dataDir).open()) {
      storage.compact(storage.currentRevision()).get(KubeHttp.WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }
    try (ApiServer server = ApiServer.builder().dataDir(dataDir).build().start();
        KubeHttp h = new KubeHttp(server)) {
      JsonNode status = assertFailureStatus(h.get(cms(ns) + "?limit=2&continue=" + q(token)), 410, "Expired");
      assertThat(status.path("message").asText()).contains("continue");
      // an exact read at a compacted resourceVersion is expired too
      long tokenRv = io.listwatch.api.ContinueToken.decode(token).rv();
      assertFailureStatus(h.get(cms(ns) + "?resourceVersion=" + tokenRv + "&resourceVersionMatch=Exact"), 410,
          "Expired");
      // what client-go's pager does next: a full list works
      assertThat(names(h.list(cms(ns)))).hasSize(6);
    }
  }

  @Test
  void list_withForbiddenResourceVersionMatchOrInitialEvents_isRejectedWith422Invalid() {
    String ns = http.createNamespace("rvmatch");
    http.create(cms(ns), configMap("a"));
    http.create(cms(ns), configMap("b"));
    String token = http.list(cms(ns) + "?limit=1").at("/metadata/continue").asText();

    Map<String, String> cases = new TreeMap<>();
    cases.put("?resourceVersionMatch=NotOlderThan", "resourceVersionMatch is forbidden unless resourceVersion is provided");
    cases.put("?resourceVersionMatch=Exact", "resourceVersionMatch is forbidden unless resourceVersion is provided");
    cases.put("?resourceVersion=0&resourceVersionMatch=Exact", "forbidden for resourceVersion \"0\"");
    cases.put("?resourceVersion=5&resourceVersionMatch=Newest", "Unsupported value");
    cases.put("?resourceVersion=0&resourceVersionMatch=NotOlderThan&limit=1&continue=" + q(token),
        "resourceVersionMatch is forbidden when continue is provided");
    cases.put("?sendInitialEvents=true", "sendInitialEvents is forbidden for list");
    for (Map.Entry<String, String> c : cases.entrySet()) {
      JsonNode s = assertFailureStatus(http.get(cms(ns) + c.getKey()), 422, "Invalid");
      assertThat(s.path("message").asText()).as("message for %s", c.getKey()).contains(c.getValue());
      assertThat(s.at("/details/kind").asText()).isEqualTo("ListOptions");
      assertThat(s.at("/details/group").asText()).isEqualTo("meta.k8s.io");
      assertThat(s.at("/details/causes/0/field").asText()).as("cause field for %s", c.getKey())
          .isIn("resourceVersionMatch", "sendInitialEvents");
    }
  }

  @Test
  void watch_withResourceVersionMatchButNoInitialEvents_isRejectedWith422Invalid() {
    String ns = http.createNamespace("watchmatch");
    for (String query : List.of("?resourceVersion=1&resourceVersionMatch=NotOlderThan",
        "?sendInitialEvents=true&allowWatchBookmarks=true",
        "?sendInitialEvents=true&resourceVersionMatch=Exact&resourceVersion=1&allowWatchBookmarks=true")) {
      try (WatchStream w = http.openWatch(cms(ns) + query)) {
        JsonNode s = assertFailureStatus(new KubeHttp.Response(w.code(), w.headers(), w.readAll()), 422, "Invalid");
        assertThat(s.at("/details/kind").asText()).as("details.kind for %s", query).isEqualTo("ListOptions");
      }
    }
  }

  @Test
  void list_withResourceVersionAheadOfTheServer_failsWith504TooLargeResourceVersion() {
    CacherConfig quick = new CacherConfig(1_000, Duration.ofMinutes(5), 1_024, Duration.ofMinutes(1),
        Duration.ofMillis(300));
    try (ApiServer server = ApiServer.builder().cacherConfig(quick).build().start();
        KubeHttp h = new KubeHttp(server)) {
      long current = h.listResourceVersion("/api/v1/configmaps");
      KubeHttp.Response r = h.get("/api/v1/configmaps?resourceVersion=" + (current + 1_000));
      JsonNode s = assertFailureStatus(r, 504, "Timeout");
      assertThat(s.at("/details/causes/0/reason").asText()).isEqualTo("ResourceVersionTooLarge");
      assertThat(s.at("/details/retryAfterSeconds").asInt()).isEqualTo(1);
      assertThat(r.headers().firstValue("retry-after")).contains("1");
    }
  }

  // ---- scope ---------------------------------------------------------------------------

  @Test
  void list_acrossAllNamespaces_includesEveryNamespace_whileNamespacedListStaysInItsNamespace() {
    String ns1 = http.createNamespace("scope-a");
    String ns2 = http.createNamespace("scope-b");
    String scope = "all-" + ns1;
    for (String ns : List.of(ns1, ns2)) {
      http.create(cms(ns), configMap("shared", Map.of("scope", scope), Map.of()));
      http.create("/apis/apps/v1/namespaces/" + ns + "/deployments", KubeHttp.deployment("web", 1));
    }
    http.create(cms(ns2), configMap("only-b", Map.of("scope", scope), Map.of()));

    JsonNode all = http.list("/api/v1/configmaps?labelSelector=" + q("scope=" + scope));
    assertThat(all.path("kind").asText()).isEqualTo("ConfigMapList");
    List<String> got = new ArrayList<>();
    all.get("items").forEach(i -> got.add(i.at("/metadata/namespace").asText() + "/" + KubeHttp.name(i)));
    assertThat(got).containsExactly(ns1 + "/shared", ns2 + "/only-b", ns2 + "/shared");

    JsonNode one = http.list(cms(ns1));
    assertThat(names(one)).containsExactly("shared");
    assertThat(one.at("/items/0/metadata/namespace").asText()).isEqualTo(ns1);

    List<String> deployments = new ArrayList<>();
    http.list("/apis/apps/v1/deployments").get("items")
        .forEach(i -> deployments.add(i.at("/metadata/namespace").asText() + "/" + KubeHttp.name(i)));
    assertThat(deployments).contains(ns1 + "/web", ns2 + "/web");
    assertThat(names(http.list("/apis/apps/v1/namespaces/" + ns2 + "/deployments"))).containsExactly("web");
  }
}
