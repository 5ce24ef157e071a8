package io.listwatch.client.contract;

import static io.listwatch.client.contract.ConfigMaps.configMap;
import static io.listwatch.client.contract.ConfigMaps.createdBy;
import static io.listwatch.client.contract.ConfigMaps.data;
import static io.listwatch.client.contract.ConfigMaps.names;
import static io.listwatch.client.contract.ConfigMaps.rv;
import static io.listwatch.client.contract.ConfigMaps.withData;
import static io.listwatch.client.contract.ConfigMaps.withResourceVersion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.api.FieldSelector;
import io.listwatch.api.LabelSelector;
import io.listwatch.api.ListOptions;
import io.listwatch.api.ResourceVersionMatch;
import io.listwatch.api.StatusException;
import io.listwatch.api.patch.PatchType;
import io.listwatch.client.DeleteOptions;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ObjectList;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.WatchEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/**
 * What every {@link ResourceClient} answers, as kube-apiserver answers it: one suite that the
 * HTTP client (against the in-process server) and the {@link io.listwatch.client.testing.FakeClient}
 * both run, so the fake users test against behaves as the server their code will meet.
 *
 * <p>Scope: create, get, update (409 on a stale resourceVersion, none for an update that
 * changes nothing, 404 for {@code /status} of a kind without it) and delete (preconditions,
 * finalizers); LIST with resourceVersion unset, "0" and a past N, with and without limit,
 * resourceVersionMatch NotOlderThan and Exact, paging with continue at one snapshot, expired
 * versions and continue tokens (410), a future version (504); label and field selectors;
 * WATCH from a list's version, from a past version, from "0" and unset, from an expired or a
 * future version (an ERROR event), with a timeout, with bookmarks, with selectors, with
 * {@code sendInitialEvents}; the three patch types. (Server-side apply is not here: the
 * client's {@link PatchType} has no apply type.)
 *
 * <p>Only what kube guarantees is asserted: resourceVersions are compared for order and
 * equality, never for their values; a list is one consistent snapshot at its resourceVersion
 * (the objects created up to it); a read at "0" or NotOlderThan may be served at any version
 * not older than asked. Each test works in a namespace of its own, on ConfigMaps, as
 * {@link DynamicObject}s. No test sleeps: watches are read by a {@link WatchReader}, and every
 * wait is bounded by {@link #AWAIT}.
 *
 * <p>A backend extends this class and provides a client ({@link #newClient()}) and the two
 * things only it can do: make old resourceVersions expire ({@link #expireResourceVersions()})
 * and make a bookmark due ({@link #makeBookmarksDue()}).
 */
@Timeout(60)
public abstract class ResourceClientContract {

  /** The bound on every wait for a watch event (a server's bookmark comes about once a second). */
  protected static final Duration AWAIT = Duration.ofSeconds(15);
  /** The ConfigMaps resource the contract works on. */
  protected static final ResourceType CONFIGMAPS = ResourceType.CONFIGMAPS;

  private static final AtomicInteger NAMESPACES = new AtomicInteger();

  /** This test's client. */
  protected KubeClient client;
  /** ConfigMaps through {@link #client}. */
  protected ResourceClient<DynamicObject> configMaps;
  /** The namespace this test works in (created before it). */
  protected String ns;

  /** A client on the backend for one test; the contract closes it after the test. */
  protected abstract KubeClient newClient() throws Exception;

  /**
   * Makes every resourceVersion handed out before this call expire: afterwards a watch from
   * one, a list at one with Exact, or a continue token issued before, is answered 410 Expired
   * (the server compacts its history; etcd's compaction and the watch cache's window). May
   * write objects outside the tests' namespaces.
   */
  protected abstract void expireResourceVersions() throws Exception;

  /**
   * Makes a bookmark due on every open watch that allows bookmarks, or ensures that one will
   * be sent within {@link #AWAIT} (a server sends them on its own timer).
   */
  protected abstract void makeBookmarksDue() throws Exception;

  /**
   * Lets {@code duration} pass on the backend's clock, e.g. to a watch's timeout: a server on
   * real time has nothing to do (the test then waits, within {@link #AWAIT}), a fake clock moves.
   */
  protected abstract void timePasses(Duration duration) throws Exception;

  @BeforeEach
  final void openClientAndNamespace(TestInfo test) throws Exception {
    client = newClient();
    configMaps = client.dynamic(CONFIGMAPS);
    String method = test.getTestMethod().map(m -> m.getName()).orElse("test");
    String verb = method.contains("_") ? method.substring(0, method.indexOf('_')) : method;
    ns = verb.toLowerCase(java.util.Locale.ROOT) + "-" + NAMESPACES.incrementAndGet();
    client.dynamic(ResourceType.NAMESPACES).create(ConfigMaps.namespace(ns));
  }

  @AfterEach
  final void closeClient() {
    if (client != null) {
      client.close();
    }
  }

  // ---- create, get, update, delete --------------------------------------------------

  @Test
  void create_returnsTheStoredObject_withServerSetMetadata_andGetReadsItBack() {
    DynamicObject created = configMaps.create(configMap(ns, "a", Map.of("app", "web"), Map.of("k", "v")));

    assertThat(created.name()).isEqualTo("a");
    assertThat(created.namespace()).isEqualTo(ns);
    assertThat(created.resourceVersion()).isNotEmpty();
    assertThat(created.uid()).isNotEmpty();
    assertThat(created.get("metadata", "creationTimestamp")).isPresent();
    assertThat(created.labels()).containsEntry("app", "web");
    assertThat(data(created, "k")).isEqualTo("v");
    DynamicObject read = configMaps.get(ns, "a").orElseThrow();
    assertThat(read.resourceVersion()).isEqualTo(created.resourceVersion());
    assertThat(read.uid()).isEqualTo(created.uid());
    assertThat(data(read, "k")).isEqualTo("v");
  }

  @Test
  void create_withGenerateName_getsANewNameWithThatPrefix() {
    DynamicObject template = DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":"
        + "{\"generateName\":\"gen-\",\"namespace\":\"" + ns + "\"}}");

    DynamicObject first = configMaps.create(template);
    DynamicObject second = configMaps.create(template);

    assertThat(first.name()).startsWith("gen-").isNotEqualTo("gen-");
    assertThat(second.name()).startsWith("gen-").isNotEqualTo(first.name());
  }

  @Test
  void create_ofAnExistingName_fails409AlreadyExists() {
    configMaps.create(configMap(ns, "a"));

    assertStatus(() -> configMaps.create(configMap(ns, "a")), 409, "AlreadyExists");
  }

  @Test
  void get_ofAMissingObject_isEmpty() {
    assertThat(configMaps.get(ns, "missing")).isEmpty();
  }

  @Test
  void update_withTheCurrentResourceVersion_replacesTheObject_withANewResourceVersion() {
    DynamicObject created = configMaps.create(configMap(ns, "a", Map.of(), Map.of("k", "v1")));

    DynamicObject updated = configMaps.update(withData(created, "k", "v2"));

    assertThat(data(updated, "k")).isEqualTo("v2");
    assertThat(updated.uid()).isEqualTo(created.uid());
    assertThat(rv(updated.resourceVersion())).isGreaterThan(rv(created.resourceVersion()));
    assertThat(data(configMaps.get(ns, "a").orElseThrow(), "k")).isEqualTo("v2");
  }

  @Test
  void update_withAStaleResourceVersion_fails409Conflict_andChangesNothing() {
    DynamicObject created = configMaps.create(configMap(ns, "a", Map.of(), Map.of("k", "v1")));
    configMaps.update(withData(created, "k", "v2"));

    assertStatus(() -> configMaps.update(withData(created, "k", "stale")), 409, "Conflict");
    assertThat(data(configMaps.get(ns, "a").orElseThrow(), "k")).isEqualTo("v2");
  }

  @Test
  void update_withoutResourceVersion_isUnconditional() {
    DynamicObject created = configMaps.create(configMap(ns, "a", Map.of(), Map.of("k", "v1")));
    configMaps.update(withData(created, "k", "v2"));

    DynamicObject forced = configMaps.update(withResourceVersion(withData(created, "k", "v3"), ""));

    assertThat(data(forced, "k")).isEqualTo("v3");
  }

  /** kube does not write an update that changes nothing: no new resourceVersion, no watch event. */
  @Test
  void update_thatChangesNothing_keepsTheResourceVersion_andSendsNoEvent() throws Exception {
    DynamicObject created = configMaps.create(configMap(ns, "a", Map.of(), Map.of("k", "v")));
    String start = configMaps.list(ns, options().build()).resourceVersion();

    try (WatchReader w = watch(options().resourceVersion(start))) {
      DynamicObject updated = configMaps.update(created);
      DynamicObject patched = configMaps.mergePatch(ns, "a", "{\"data\":{\"k\":\"v\"}}");
      configMaps.create(configMap(ns, "b"));

      assertThat(updated.resourceVersion()).isEqualTo(created.resourceVersion());
      assertThat(patched.resourceVersion()).isEqualTo(created.resourceVersion());
      assertThat(describe(w.next())).as("the first event after the no-op writes").isEqualTo("ADDED b");
    }
  }

  @Test
  void update_ofAMissingObject_fails404NotFound() {
    assertStatus(() -> configMaps.update(configMap(ns, "missing")), 404, "NotFound");
  }

  /** ConfigMaps have no status subresource: PUT to {@code /status} is a path the server does not serve. */
  @Test
  void updateStatus_ofAKindWithoutStatus_fails404NotFound() {
    DynamicObject created = configMaps.create(configMap(ns, "a"));

    assertStatus(() -> configMaps.updateStatus(created), 404, "NotFound");
  }

  @Test
  void delete_removesTheObject_andSaysWhetherItExisted() {
    configMaps.create(configMap(ns, "a"));

    assertThat(configMaps.delete(ns, "a")).isTrue();
    assertThat(configMaps.get(ns, "a")).isEmpty();
    assertThat(configMaps.delete(ns, "a")).isFalse();
  }

  @Test
  void delete_withAStaleResourceVersionPrecondition_fails409Conflict_andKeepsTheObject() {
    DynamicObject created = configMaps.create(configMap(ns, "a"));
    DynamicObject updated = configMaps.update(withData(created, "k", "v"));

    assertStatus(() -> configMaps.delete(ns, "a", new DeleteOptions(null, "", created.resourceVersion(), "")),
        409, "Conflict");
    assertThat(configMaps.get(ns, "a")).isPresent();
    assertThat(configMaps.delete(ns, "a", new DeleteOptions(null, "", updated.resourceVersion(), ""))).isTrue();
    assertThat(configMaps.get(ns, "a")).isEmpty();
  }

  @Test
  void delete_withAMismatchedUidPrecondition_fails409Conflict_andKeepsTheObject() {
    DynamicObject created = configMaps.create(configMap(ns, "a"));

    assertStatus(() -> configMaps.delete(ns, "a", new DeleteOptions(null, "00000000-0000-0000-0000-000000000000", "", "")),
        409, "Conflict");
    assertThat(configMaps.get(ns, "a")).isPresent();
    assertThat(configMaps.delete(ns, "a", DeleteOptions.immediate(created.uid()))).isTrue();
  }

  /**
   * A finalizer defers the deletion: the object is marked (MODIFIED); the update that removes
   * its last finalizer is written (MODIFIED), then the object is deleted (DELETED), as kube's
   * registry does it, and the update answers with the object it wrote.
   */
  @Test
  void delete_ofAnObjectWithFinalizers_marksIt_untilTheLastFinalizerIsRemoved() throws Exception {
    configMaps.create(DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\","
        + "\"namespace\":\"" + ns + "\",\"finalizers\":[\"example.com/hold\"]}}"));
    String start = configMaps.list(ns, options().build()).resourceVersion();

    try (WatchReader w = watch(options().resourceVersion(start))) {
      assertThat(configMaps.delete(ns, "a")).isTrue();
      DynamicObject marked = configMaps.get(ns, "a").orElseThrow();
      assertThat(marked.get("metadata", "deletionTimestamp")).isPresent();

      DynamicObject released = configMaps.mergePatch(ns, "a", "{\"metadata\":{\"finalizers\":null}}");

      assertThat(configMaps.get(ns, "a")).isEmpty();
      assertThat(released.get("metadata", "finalizers")).isEmpty();
      List<WatchEvent<DynamicObject>> events = new ArrayList<>();
      do {
        events.add(w.next());
      } while (events.getLast().type() != WatchEvent.Type.DELETED);
      assertThat(events).extracting(ResourceClientContract::describe)
          .containsExactly("MODIFIED a", "MODIFIED a", "DELETED a");
      assertThat(events.get(0).object().get("metadata", "deletionTimestamp")).as("marked").isPresent();
      assertThat(finalizers(events.get(1).object())).as("the update that removed the last finalizer").isEmpty();
      assertThat(events.get(1).object().resourceVersion()).isEqualTo(released.resourceVersion());
    }
  }

  // ---- list: resourceVersion, limit, continue -----------------------------------------

  @Test
  void list_withoutResourceVersion_returnsTheLatestState() {
    configMaps.create(configMap(ns, "a"));
    DynamicObject b = configMaps.create(configMap(ns, "b"));

    ObjectList<DynamicObject> list = configMaps.list(ns, options().build());

    assertThat(names(list)).containsExactly("a", "b");
    assertThat(rv(list.resourceVersion())).isGreaterThanOrEqualTo(rv(b.resourceVersion()));
    assertThat(list.hasMore()).isFalse();
  }

  @Test
  void list_withoutResourceVersion_withLimit_pagesThroughOneSnapshot_writesBetweenPagesUnseen() {
    for (String name : List.of("p1", "p2", "p3", "p4", "p5")) {
      configMaps.create(configMap(ns, name));
    }
    ObjectList<DynamicObject> page = configMaps.list(ns, options().limit(2).build());
    String snapshot = page.resourceVersion();
    List<DynamicObject> seen = new ArrayList<>(page.items());
    assertThat(names(page)).containsExactly("p1", "p2");
    assertThat(page.hasMore()).isTrue();
    page.remainingItemCount().ifPresent(n -> assertThat(n).isEqualTo(3));

    configMaps.delete(ns, "p4");
    configMaps.create(configMap(ns, "p6"));
    configMaps.mergePatch(ns, "p5", "{\"data\":{\"changed\":\"yes\"}}");

    while (page.hasMore()) {
      page = configMaps.list(ns, options().limit(2).continueToken(page.continueToken()).build());
      assertThat(page.resourceVersion()).isEqualTo(snapshot);
      seen.addAll(page.items());
    }
    assertThat(names(seen)).containsExactly("p1", "p2", "p3", "p4", "p5");
    assertThat(data(seen.get(4), "changed")).isNull();
    assertThat(names(configMaps.list(ns, options().build()))).containsExactly("p1", "p2", "p3", "p5", "p6");
  }

  @Test
  void list_atResourceVersion0_returnsEverything() {
    createAll("a", "b", "c");
    configMaps.list(ns, options().build()); // a consistent read: whatever serves "0" has caught up

    ObjectList<DynamicObject> list = configMaps.list(ns, options().resourceVersion("0").build());

    assertThat(names(list)).containsExactly("a", "b", "c");
    assertThat(list.hasMore()).isFalse();
  }

  /** An informer's first list (rv=0, limit=500) is one response: kube's watch cache ignores the limit at "0". */
  @Test
  void list_atResourceVersion0_withLimit_returnsEverything_withoutContinue() {
    createAll("a", "b", "c");
    configMaps.list(ns, options().build());

    ObjectList<DynamicObject> list = configMaps.list(ns, options().resourceVersion("0").limit(1).build());

    assertThat(names(list)).containsExactly("a", "b", "c");
    assertThat(list.hasMore()).as("continue token").isFalse();
    assertThat(list.remainingItemCount()).isEmpty();
  }

  @Test
  void list_atResourceVersion0_notOlderThan_withLimit_returnsEverything_withoutContinue() {
    createAll("a", "b", "c");
    configMaps.list(ns, options().build());

    ObjectList<DynamicObject> list = configMaps.list(ns, options().resourceVersion("0")
        .resourceVersionMatch(ResourceVersionMatch.NOT_OLDER_THAN).limit(2).build());

    assertThat(names(list)).containsExactly("a", "b", "c");
    assertThat(list.hasMore()).as("continue token").isFalse();
  }

  @Test
  void list_atAPastResourceVersion_returnsAConsistentStateNotOlderThanIt() {
    DynamicObject[] created = createAll("a", "b", "c");

    for (ResourceVersionMatch match : List.of(ResourceVersionMatch.UNSET, ResourceVersionMatch.NOT_OLDER_THAN)) {
      ObjectList<DynamicObject> list = configMaps.list(ns, options()
          .resourceVersion(created[0].resourceVersion()).resourceVersionMatch(match).build());

      assertThat(rv(list.resourceVersion())).as(match.toString()).isGreaterThanOrEqualTo(rv(created[0].resourceVersion()));
      assertThat(names(list)).as(match.toString()).isEqualTo(createdBy(list.resourceVersion(), created));
      assertThat(list.hasMore()).isFalse();
    }
  }

  @Test
  void list_atAPastResourceVersion_notOlderThan_withLimit_pagesAConsistentStateNotOlderThanIt() {
    DynamicObject[] created = createAll("a", "b", "c", "d");
    ListOptions notOlder = options().resourceVersion(created[0].resourceVersion())
        .resourceVersionMatch(ResourceVersionMatch.NOT_OLDER_THAN).limit(1).build();

    ObjectList<DynamicObject> page = configMaps.list(ns, notOlder);
    String snapshot = page.resourceVersion();
    List<DynamicObject> seen = new ArrayList<>(page.items());
    while (page.hasMore()) {
      page = configMaps.list(ns, options().limit(1).continueToken(page.continueToken()).build());
      assertThat(page.resourceVersion()).isEqualTo(snapshot);
      seen.addAll(page.items());
    }

    assertThat(rv(snapshot)).isGreaterThanOrEqualTo(rv(created[0].resourceVersion()));
    assertThat(names(seen)).isEqualTo(createdBy(snapshot, created));
  }

  @Test
  void list_atAPastResourceVersion_exact_returnsTheStateAtThatVersion() {
    DynamicObject a = configMaps.create(configMap(ns, "a", Map.of(), Map.of("k", "old")));
    configMaps.create(configMap(ns, "b"));
    configMaps.mergePatch(ns, "a", "{\"data\":{\"k\":\"new\"}}");

    ObjectList<DynamicObject> list = configMaps.list(ns, options().resourceVersion(a.resourceVersion())
        .resourceVersionMatch(ResourceVersionMatch.EXACT).build());

    assertThat(list.resourceVersion()).isEqualTo(a.resourceVersion());
    assertThat(names(list)).containsExactly("a");
    assertThat(data(list.items().getFirst(), "k")).isEqualTo("old");
  }

  /** kube reads a limit with resourceVersion N and no match as Exact: pages of the state at N. */
  @Test
  void list_atAPastResourceVersion_withLimit_isExact_andPagesAtThatVersion() {
    configMaps.create(configMap(ns, "a"));
    DynamicObject b = configMaps.create(configMap(ns, "b"));
    configMaps.create(configMap(ns, "c"));
    configMaps.delete(ns, "a");

    ObjectList<DynamicObject> first = configMaps.list(ns, options().resourceVersion(b.resourceVersion()).limit(1).build());
    ObjectList<DynamicObject> second = configMaps.list(ns, options().limit(1).continueToken(first.continueToken()).build());

    assertThat(first.resourceVersion()).isEqualTo(b.resourceVersion());
    assertThat(names(first)).containsExactly("a");
    assertThat(first.hasMore()).isTrue();
    assertThat(second.resourceVersion()).isEqualTo(b.resourceVersion());
    assertThat(names(second)).containsExactly("b");
    assertThat(second.hasMore()).isFalse();
  }

  @Test
  void list_exactAtAnExpiredResourceVersion_fails410Expired() throws Exception {
    DynamicObject a = configMaps.create(configMap(ns, "a"));
    configMaps.create(configMap(ns, "b"));
    ListOptions exact = options().resourceVersion(a.resourceVersion()).resourceVersionMatch(ResourceVersionMatch.EXACT).build();
    assertThat(names(configMaps.list(ns, exact))).containsExactly("a");

    expireResourceVersions();

    assertStatus(() -> configMaps.list(ns, exact), 410, "Expired");
    assertThat(names(configMaps.list(ns, options().resourceVersion("0").build()))).contains("a", "b");
  }

  @Test
  void list_continuedAfterItsSnapshotExpired_fails410Expired() throws Exception {
    createAll("a", "b", "c");
    ObjectList<DynamicObject> first = configMaps.list(ns, options().limit(1).build());
    assertThat(first.hasMore()).isTrue();

    expireResourceVersions();

    assertStatus(() -> configMaps.list(ns, options().limit(1).continueToken(first.continueToken()).build()),
        410, "Expired");
  }

  @Test
  void list_atAFutureResourceVersion_fails504TooLargeResourceVersion() {
    configMaps.create(configMap(ns, "a"));
    String future = Long.toString(rv(configMaps.list(ns, options().build()).resourceVersion()) + 1_000_000);

    for (ResourceVersionMatch match : List.of(ResourceVersionMatch.UNSET, ResourceVersionMatch.EXACT)) {
      ListOptions ahead = options().resourceVersion(future).resourceVersionMatch(match).build();
      assertThatThrownBy(() -> configMaps.list(ns, ahead))
          .as(match.toString())
          .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(504))
          .hasMessageContaining("Too large resource version");
    }
  }

  // ---- list: selectors ----------------------------------------------------------------

  @Test
  void list_withLabelSelector_returnsTheMatchingObjectsOnly() {
    configMaps.create(configMap(ns, "web-1", Map.of("app", "web"), Map.of()));
    configMaps.create(configMap(ns, "web-2", Map.of("app", "web", "tier", "canary"), Map.of()));
    configMaps.create(configMap(ns, "db", Map.of("app", "db"), Map.of()));

    assertThat(names(configMaps.list(ns, selecting("app=web")))).containsExactly("web-1", "web-2");
    assertThat(names(configMaps.list(ns, selecting("app=web,!tier")))).containsExactly("web-1");
    assertThat(names(configMaps.list(ns, selecting("app in (db, cache)")))).containsExactly("db");
    assertThat(names(configMaps.list(ns, selecting("app=none")))).isEmpty();
  }

  @Test
  void list_withFieldSelectorOnName_returnsThatObjectOnly_orAllOthers() {
    createAll("a", "b", "c");

    assertThat(names(configMaps.list(ns, options().fieldSelector(FieldSelector.parse("metadata.name=b")).build())))
        .containsExactly("b");
    assertThat(names(configMaps.list(ns, options().fieldSelector(FieldSelector.parse("metadata.name!=b")).build())))
        .containsExactly("a", "c");
  }

  @Test
  void list_withSelectorAndLimit_pagesThroughTheMatchesOnly() {
    for (int i = 0; i < 6; i++) {
      configMaps.create(configMap(ns, "p" + i, Map.of("even", Boolean.toString(i % 2 == 0)), Map.of()));
    }
    ListOptions even = options().labelSelector(LabelSelector.parse("even=true")).limit(2).build();

    ObjectList<DynamicObject> first = configMaps.list(ns, even);
    ObjectList<DynamicObject> second = configMaps.list(ns, even.toBuilder().continueToken(first.continueToken()).build());

    assertThat(names(first)).containsExactly("p0", "p2");
    assertThat(first.hasMore()).isTrue();
    assertThat(names(second)).containsExactly("p4");
    assertThat(second.hasMore()).isFalse();
  }

  @Test
  void list_inANamespace_leavesOutOtherNamespaces_andAllNamespacesHasBoth() {
    String other = ns + "-other";
    client.dynamic(ResourceType.NAMESPACES).create(ConfigMaps.namespace(other));
    configMaps.create(configMap(ns, "a"));
    configMaps.create(configMap(other, "a"));

    assertThat(configMaps.list(ns, options().build()).items()).extracting(DynamicObject::namespace).containsExactly(ns);
    assertThat(configMaps.list("", options().build()).items())
        .filteredOn(o -> o.name().equals("a")).extracting(DynamicObject::namespace).contains(ns, other);
  }

  // ---- watch ----------------------------------------------------------------------------

  @Test
  void watch_fromAListsResourceVersion_seesLaterChangesInOrder() throws Exception {
    configMaps.create(configMap(ns, "before"));
    String start = configMaps.list(ns, options().build()).resourceVersion();

    try (WatchReader w = watch(options().resourceVersion(start))) {
      DynamicObject created = configMaps.create(configMap(ns, "a"));
      DynamicObject patched = configMaps.mergePatch(ns, "a", "{\"data\":{\"k\":\"v\"}}");
      configMaps.delete(ns, "a");

      List<WatchEvent<DynamicObject>> events = new ArrayList<>();
      do {
        events.add(w.next());
      } while (events.getLast().type() != WatchEvent.Type.DELETED);
      assertThat(events).extracting(ResourceClientContract::describe)
          .containsExactly("ADDED a", "MODIFIED a", "DELETED a");
      assertThat(events.get(0).object().resourceVersion()).isEqualTo(created.resourceVersion());
      assertThat(events.get(1).object().resourceVersion()).isEqualTo(patched.resourceVersion());
      assertThat(data(events.get(1).object(), "k")).isEqualTo("v");
      assertThat(rv(events.get(2).object().resourceVersion())).isGreaterThan(rv(patched.resourceVersion()));
    }
  }

  @Test
  void watch_fromAPastResourceVersion_replaysTheChangesAfterIt() throws Exception {
    DynamicObject a = configMaps.create(configMap(ns, "a"));
    DynamicObject patched = configMaps.mergePatch(ns, "a", "{\"data\":{\"k\":\"v\"}}");
    DynamicObject b = configMaps.create(configMap(ns, "b"));

    try (WatchReader w = watch(options().resourceVersion(a.resourceVersion()))) {
      List<WatchEvent<DynamicObject>> events = w.next(2);

      assertThat(events).extracting(ResourceClientContract::describe).containsExactly("MODIFIED a", "ADDED b");
      assertThat(events).extracting(e -> e.object().resourceVersion())
          .containsExactly(patched.resourceVersion(), b.resourceVersion());
    }
  }

  @Test
  void watch_fromResourceVersion0_startsWithAddedForExistingObjects_thenFollowsChanges() throws Exception {
    watchStartsWithAddedForExistingObjects("0");
  }

  @Test
  void watch_withoutResourceVersion_startsWithAddedForExistingObjects_thenFollowsChanges() throws Exception {
    watchStartsWithAddedForExistingObjects("");
  }

  private void watchStartsWithAddedForExistingObjects(String resourceVersion) throws Exception {
    createAll("a", "b");

    try (WatchReader w = watch(options().resourceVersion(resourceVersion))) {
      assertThat(w.next(2)).extracting(ResourceClientContract::describe).containsExactlyInAnyOrder("ADDED a", "ADDED b");
      configMaps.create(configMap(ns, "c"));
      assertThat(describe(w.next())).isEqualTo("ADDED c");
    }
  }

  @Test
  void watch_fromAnExpiredResourceVersion_getsA410ErrorEvent_andEnds() throws Exception {
    DynamicObject a = configMaps.create(configMap(ns, "a"));
    configMaps.create(configMap(ns, "b"));

    expireResourceVersions();

    try (WatchReader w = watch(options().resourceVersion(a.resourceVersion()))) {
      WatchEvent<DynamicObject> e = w.next();
      assertThat(e.type()).isEqualTo(WatchEvent.Type.ERROR);
      assertThat(e.status().code()).isEqualTo(410);
      assertThat(e.status().reason()).isEqualTo("Expired");
      w.awaitEnd();
    }
  }

  @Test
  void watch_withTimeoutSeconds_endsNormally_atTheTimeout() throws Exception {
    try (WatchReader w = watch(options().resourceVersion(configMaps.list(ns, options().build()).resourceVersion())
        .timeoutSeconds(1L))) {
      timePasses(Duration.ofSeconds(1));
      w.awaitEnd();
    }
  }

  /** As kube's watch cache: the watch is accepted, and a version it does not reach in time is an ERROR event. */
  @Test
  void watch_fromAFutureResourceVersion_getsA504ErrorEvent_andEnds() throws Exception {
    String future = Long.toString(rv(configMaps.list(ns, options().build()).resourceVersion()) + 1_000_000);

    try (WatchReader w = watch(options().resourceVersion(future))) {
      WatchEvent<DynamicObject> e = w.next();
      assertThat(e.type()).isEqualTo(WatchEvent.Type.ERROR);
      assertThat(e.status().code()).isEqualTo(504);
      assertThat(e.status().message()).contains("Too large resource version");
      w.awaitEnd();
    }
  }

  @Test
  void watch_allowingBookmarks_getsBookmarks_andAWatchNotAllowingThemDoesNot() throws Exception {
    String start = configMaps.list(ns, options().build()).resourceVersion();

    try (WatchReader withBookmarks = watch(options().resourceVersion(start).allowWatchBookmarks(true));
        WatchReader without = watch(options().resourceVersion(start))) {
      makeBookmarksDue();
      WatchEvent<DynamicObject> bookmark = withBookmarks.next();
      assertThat(bookmark.type()).isEqualTo(WatchEvent.Type.BOOKMARK);
      assertThat(bookmark.object().kind()).isEqualTo("ConfigMap");
      assertThat(bookmark.object().apiVersion()).isEqualTo("v1");
      assertThat(bookmark.object().name()).isEmpty();
      assertThat(rv(bookmark.object().resourceVersion())).isGreaterThanOrEqualTo(rv(start));

      configMaps.create(configMap(ns, "a"));
      assertThat(describe(without.next())).as("no bookmark before the change").isEqualTo("ADDED a");
      assertThat(describe(withBookmarks.nextIgnoringBookmarks())).isEqualTo("ADDED a");
    }
  }

  @Test
  void watch_withLabelSelector_seesObjectsEnterAsAdded_andLeaveAsDeleted() throws Exception {
    configMaps.create(configMap(ns, "web", Map.of("app", "web"), Map.of()));
    configMaps.create(configMap(ns, "db", Map.of("app", "db"), Map.of()));
    String start = configMaps.list(ns, options().build()).resourceVersion();

    try (WatchReader w = watch(options().resourceVersion(start).labelSelector(LabelSelector.parse("app=web")))) {
      configMaps.mergePatch(ns, "db", "{\"metadata\":{\"labels\":{\"app\":\"web\"}}}");
      configMaps.mergePatch(ns, "web", "{\"metadata\":{\"labels\":{\"app\":\"other\"}}}");
      configMaps.mergePatch(ns, "db", "{\"data\":{\"k\":\"v\"}}");
      configMaps.create(configMap(ns, "unrelated", Map.of("app", "other"), Map.of()));
      configMaps.create(configMap(ns, "web-2", Map.of("app", "web"), Map.of()));

      assertThat(w.next(4)).extracting(ResourceClientContract::describe)
          .containsExactly("ADDED db", "DELETED web", "MODIFIED db", "ADDED web-2");
    }
  }

  @Test
  void watch_withFieldSelectorOnName_seesOnlyThatObject() throws Exception {
    String start = configMaps.list(ns, options().build()).resourceVersion();

    try (WatchReader w = watch(options().resourceVersion(start).fieldSelector(FieldSelector.parse("metadata.name=b")))) {
      createAll("a", "b", "c");
      configMaps.mergePatch(ns, "a", "{\"data\":{\"k\":\"v\"}}");
      configMaps.delete(ns, "b");

      assertThat(w.next(2)).extracting(ResourceClientContract::describe).containsExactly("ADDED b", "DELETED b");
    }
  }

  @Test
  void watch_withSendInitialEvents_getsAddedForExistingObjects_thenTheInitialEventsEndBookmark() throws Exception {
    createAll("a", "b");

    try (WatchReader w = watch(options().allowWatchBookmarks(true).sendInitialEvents(true)
        .resourceVersionMatch(ResourceVersionMatch.NOT_OLDER_THAN))) {
      assertThat(w.next(2)).extracting(ResourceClientContract::describe).containsExactlyInAnyOrder("ADDED a", "ADDED b");
      WatchEvent<DynamicObject> end = w.next();
      assertThat(end.type()).isEqualTo(WatchEvent.Type.BOOKMARK);
      assertThat(end.object().annotations()).containsEntry(WatchEvent.INITIAL_EVENTS_END_ANNOTATION, "true");
      configMaps.create(configMap(ns, "c"));
      assertThat(describe(w.nextIgnoringBookmarks())).isEqualTo("ADDED c");
    }
  }

  // ---- patch ----------------------------------------------------------------------------

  @Test
  void mergePatch_setsAndRemovesFields() {
    configMaps.create(configMap(ns, "a", Map.of("keep", "yes"), Map.of("k1", "v1", "k2", "v2")));

    DynamicObject patched = configMaps.patch(ns, "a", PatchType.MERGE_PATCH,
        "{\"metadata\":{\"labels\":{\"added\":\"yes\"}},\"data\":{\"k1\":null,\"k3\":\"v3\"}}");

    assertThat(patched.labels()).containsEntry("keep", "yes").containsEntry("added", "yes");
    assertThat(data(patched, "k1")).isNull();
    assertThat(data(patched, "k2")).isEqualTo("v2");
    assertThat(data(patched, "k3")).isEqualTo("v3");
    assertThat(data(configMaps.get(ns, "a").orElseThrow(), "k3")).isEqualTo("v3");
  }

  @Test
  void jsonPatch_appliesItsOperations_andAFailedTestFails422() {
    configMaps.create(configMap(ns, "a", Map.of(), Map.of("k", "v1")));

    DynamicObject patched = configMaps.patch(ns, "a", PatchType.JSON_PATCH,
        "[{\"op\":\"test\",\"path\":\"/data/k\",\"value\":\"v1\"},"
            + "{\"op\":\"replace\",\"path\":\"/data/k\",\"value\":\"v2\"},"
            + "{\"op\":\"add\",\"path\":\"/data/n\",\"value\":\"new\"}]");

    assertThat(data(patched, "k")).isEqualTo("v2");
    assertThat(data(patched, "n")).isEqualTo("new");
    assertStatus(() -> configMaps.patch(ns, "a", PatchType.JSON_PATCH,
        "[{\"op\":\"test\",\"path\":\"/data/k\",\"value\":\"v1\"},{\"op\":\"remove\",\"path\":\"/data/k\"}]"),
        422, "Invalid");
    assertThat(data(configMaps.get(ns, "a").orElseThrow(), "k")).isEqualTo("v2");
  }

  /** {@code metadata.finalizers} is a set for strategic merge ({@code patchStrategy:"merge"}); a merge patch replaces lists. */
  @Test
  void strategicMergePatch_mergesFinalizersAsASet_whereAMergePatchReplacesThem() {
    configMaps.create(DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\","
        + "\"namespace\":\"" + ns + "\",\"finalizers\":[\"example.com/one\"]}}"));

    DynamicObject merged = configMaps.patch(ns, "a", PatchType.STRATEGIC_MERGE_PATCH,
        "{\"metadata\":{\"finalizers\":[\"example.com/two\"]},\"data\":{\"k\":\"v\"}}");
    assertThat(finalizers(merged)).containsExactlyInAnyOrder("example.com/one", "example.com/two");
    assertThat(data(merged, "k")).isEqualTo("v");

    DynamicObject replaced = configMaps.patch(ns, "a", PatchType.MERGE_PATCH,
        "{\"metadata\":{\"finalizers\":[\"example.com/three\"]}}");
    assertThat(finalizers(replaced)).containsExactly("example.com/three");

    configMaps.patch(ns, "a", PatchType.MERGE_PATCH, "{\"metadata\":{\"finalizers\":null}}");
  }

  @Test
  void patch_withAStaleResourceVersion_fails409Conflict() {
    DynamicObject created = configMaps.create(configMap(ns, "a"));
    configMaps.mergePatch(ns, "a", "{\"data\":{\"k\":\"v1\"}}");

    for (PatchType type : PatchType.values()) {
      String patch = type == PatchType.JSON_PATCH
          ? "[{\"op\":\"replace\",\"path\":\"/metadata/resourceVersion\",\"value\":\"" + created.resourceVersion() + "\"}]"
          : "{\"metadata\":{\"resourceVersion\":\"" + created.resourceVersion() + "\"},\"data\":{\"k\":\"stale\"}}";
      assertStatus(() -> configMaps.patch(ns, "a", type, patch), 409, "Conflict");
    }
    assertThat(data(configMaps.get(ns, "a").orElseThrow(), "k")).isEqualTo("v1");
  }

  @Test
  void patch_thatRenamesTheObject_fails400BadRequest() {
    configMaps.create(configMap(ns, "a"));

    for (PatchType type : PatchType.values()) {
      String patch = type == PatchType.JSON_PATCH
          ? "[{\"op\":\"replace\",\"path\":\"/metadata/name\",\"value\":\"b\"}]"
          : "{\"metadata\":{\"name\":\"b\"}}";
      assertStatus(() -> configMaps.patch(ns, "a", type, patch), 400, "BadRequest");
    }
    assertThat(configMaps.get(ns, "b")).isEmpty();
  }

  @Test
  void patch_ofAMissingObject_fails404NotFound() {
    for (PatchType type : PatchType.values()) {
      String patch = type == PatchType.JSON_PATCH ? "[{\"op\":\"add\",\"path\":\"/data\",\"value\":{}}]" : "{\"data\":{}}";
      assertStatus(() -> configMaps.patch(ns, "missing", type, patch), 404, "NotFound");
    }
  }

  // ---- helpers ----------------------------------------------------------------------------

  private static ListOptions.Builder options() {
    return ListOptions.builder();
  }

  private static ListOptions selecting(String labelSelector) {
    return options().labelSelector(LabelSelector.parse(labelSelector)).build();
  }

  /** Creates ConfigMaps named {@code names} in this test's namespace, in order; returns them as stored. */
  private DynamicObject[] createAll(String... names) {
    DynamicObject[] created = new DynamicObject[names.length];
    for (int i = 0; i < names.length; i++) {
      created[i] = configMaps.create(configMap(ns, names[i]));
    }
    return created;
  }

  /** Opens a watch on this test's namespace and starts reading it. */
  private WatchReader watch(ListOptions.Builder options) {
    return WatchReader.start(configMaps.watch(ns, options.watch(true).build()), ns, AWAIT);
  }

  private static List<String> finalizers(DynamicObject o) {
    List<String> names = new ArrayList<>();
    o.get("metadata", "finalizers").ifPresent(list -> list.forEach(n -> names.add(n.asText())));
    return names;
  }

  private static String describe(WatchEvent<DynamicObject> e) {
    return e.type() + " " + e.object().name();
  }

  private static void assertStatus(ThrowingCallable call, int code, String reason) {
    assertThatThrownBy(call).isInstanceOfSatisfying(StatusException.class, e -> {
      assertThat(e.code()).as("code of %s", e.getMessage()).isEqualTo(code);
      assertThat(e.reason()).as("reason of %s", e.getMessage()).isEqualTo(reason);
    });
  }
}
