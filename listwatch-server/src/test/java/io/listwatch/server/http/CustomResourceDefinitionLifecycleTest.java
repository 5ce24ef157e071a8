package io.listwatch.server.http;

import static io.listwatch.server.http.KubeHttp.assertFailureStatus;
import static io.listwatch.server.http.KubeHttp.object;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A CustomResourceDefinition's life over HTTP: names in conflict are not accepted (and are once
 * the conflict goes), deleting a definition deletes its objects (watchers see each go, then
 * their watch ends) and refuses creates meanwhile, the garbage collector follows owner
 * references to and from custom resources, and a namespace holding custom resources goes
 * completely.
 */
@ExtendWith(ApiServerExtension.class)
class CustomResourceDefinitionLifecycleTest {

  private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
  private static final Duration BOUND = Duration.ofSeconds(15);
  private static KubeHttp http;

  @BeforeAll
  static void connect(ApiServer server) {
    http = new KubeHttp(server);
  }

  @AfterAll
  static void disconnect() {
    http.close();
  }

  private static ObjectNode definition(String group, String plural, String kind) {
    return object("""
        {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
         "metadata":{"name":"%s.%s"},
         "spec":{"group":"%s","scope":"Namespaced","names":{"plural":"%s","kind":"%s"},
          "versions":[{"name":"v1","served":true,"storage":true,
            "schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}
        """.formatted(plural, group, group, plural, kind));
  }

  private static Optional<JsonNode> condition(String crd, String type) {
    KubeHttp.Response r = http.get(CRDS + "/" + crd);
    if (r.code() != 200) {
      return Optional.empty();
    }
    for (JsonNode c : r.json().path("status").path("conditions")) {
      if (c.path("type").asText().equals(type)) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  private static void awaitCondition(String crd, String type, String status, String reason) {
    Await.until(crd + " " + type + "=" + status + " (" + reason + ")", BOUND, () -> condition(crd, type)
        .filter(c -> c.path("status").asText().equals(status) && c.path("reason").asText().equals(reason))
        .isPresent());
  }

  private static String collection(String group, String plural, String ns) {
    return "/apis/" + group + "/v1/namespaces/" + ns + "/" + plural;
  }

  private static ObjectNode resource(String group, String kind, String name) {
    return object("""
        {"apiVersion":"%s/v1","kind":"%s","metadata":{"name":"%s"},"spec":{}}""".formatted(group, kind, name));
  }

  @Test
  void aKindAnotherDefinitionOfTheGroupHas_isNotAccepted_untilThatOneGoes() {
    String group = "conflict.example.com";
    http.create(CRDS, definition(group, "widgets", "Widget"));
    awaitCondition("widgets." + group, "Established", "True", "InitialNamesAccepted");

    ObjectNode gadgets = definition(group, "gadgets", "Widget");
    gadgets.with("spec").with("names").put("listKind", "GadgetList"); // else the list kind conflicts too, and is reported
    http.create(CRDS, gadgets);

    awaitCondition("gadgets." + group, "NamesAccepted", "False", "KindConflict");
    assertThat(condition("gadgets." + group, "NamesAccepted").orElseThrow().path("message").asText())
        .isEqualTo("\"Widget\" is already in use");
    awaitCondition("gadgets." + group, "Established", "False", "NotAccepted");
    String ns = http.createNamespace("conflict");
    assertFailureStatus(http.get(collection(group, "gadgets", ns)), 404, "NotFound");

    http.delete(CRDS + "/widgets." + group).expect(200);

    awaitCondition("gadgets." + group, "NamesAccepted", "True", "NoConflicts");
    awaitCondition("gadgets." + group, "Established", "True", "InitialNamesAccepted");
    Await.until("gadgets served", BOUND, () -> http.get(collection(group, "gadgets", ns)).code() == 200);
    assertThat(http.get(CRDS + "/gadgets." + group).expect(200).path("status").path("acceptedNames")
        .path("kind").asText()).isEqualTo("Widget");
  }

  @Test
  void aBuiltInsPluralInItsGroup_isNotAccepted_andTheBuiltInStaysServed() {
    ObjectNode ingresses = definition("networking.k8s.io", "ingresses", "MyIngress");
    ingresses.with("metadata").putObject("annotations").put("api-approved.kubernetes.io", "unapproved, test");
    http.create(CRDS, ingresses);

    awaitCondition("ingresses.networking.k8s.io", "NamesAccepted", "False", "PluralConflict");
    assertThat(condition("ingresses.networking.k8s.io", "NamesAccepted").orElseThrow().path("message").asText())
        .isEqualTo("\"ingresses\" is already in use");
    assertThat(http.get("/apis/networking.k8s.io/v1/namespaces/default/ingresses").expect(200).path("kind").asText())
        .isEqualTo("IngressList");
  }

  @Test
  void deletingADefinition_deletesItsObjects_watchersSeeEachGo_thenTheWatchEnds_andARecreatedOneIsEmpty() {
    String group = "delete.example.com";
    String crd = "crates." + group;
    http.create(CRDS, definition(group, "crates", "Crate"));
    awaitCondition(crd, "Established", "True", "InitialNamesAccepted");
    String ns = http.createNamespace("crates");
    for (String name : List.of("a", "b", "c")) {
      http.create(collection(group, "crates", ns), resource(group, "Crate", name));
    }
    try (WatchStream watch = http.watch(collection(group, "crates", ns)
        + "?resourceVersion=" + http.listResourceVersion(collection(group, "crates", ns)))) {

      JsonNode deleting = http.delete(CRDS + "/" + crd).expect(200);

      assertThat(deleting.path("metadata").path("finalizers").toString())
          .contains("customresourcecleanup.apiextensions.k8s.io");
      assertThat(deleting.path("metadata").has("deletionTimestamp")).isTrue();
      List<JsonNode> events = new ArrayList<>();
      WatchStream.End end = watch.awaitEnd(BOUND, events);
      assertThat(end.clean()).as("the watch ends cleanly when the resource is no longer served").isTrue();
      assertThat(events).extracting(e -> e.path("type").asText()).containsExactly("DELETED", "DELETED", "DELETED");
      assertThat(events).extracting(e -> e.path("object").path("metadata").path("name").asText())
          .containsExactlyInAnyOrder("a", "b", "c");
    }
    Await.until(crd + " gone", BOUND, () -> http.get(CRDS + "/" + crd).code() == 404);
    Await.until("crates no longer served", BOUND, () -> http.get(collection(group, "crates", ns)).code() == 404);

    http.create(CRDS, definition(group, "crates", "Crate"));
    awaitCondition(crd, "Established", "True", "InitialNamesAccepted");
    Await.until("crates served again", BOUND, () -> http.get(collection(group, "crates", ns)).code() == 200);
    assertThat(http.list(collection(group, "crates", ns)).path("items")).as("the old objects went").isEmpty();
  }

  @Test
  void aTerminatingDefinition_refusesCreates_andWaitsForItsObjectsFinalizers() {
    String group = "terminating.example.com";
    String crd = "barrels." + group;
    http.create(CRDS, definition(group, "barrels", "Barrel"));
    awaitCondition(crd, "Established", "True", "InitialNamesAccepted");
    String ns = http.createNamespace("barrels");
    ObjectNode held = resource(group, "Barrel", "held");
    ((ObjectNode) held.path("metadata")).putArray("finalizers").add("example.com/hold");
    http.create(collection(group, "barrels", ns), held);

    http.delete(CRDS + "/" + crd).expect(200);

    awaitCondition(crd, "Terminating", "True", "InstanceDeletionCheck");
    KubeHttp.Response refused = http.post(collection(group, "barrels", ns), resource(group, "Barrel", "late"));
    JsonNode status = assertFailureStatus(refused, 405, "MethodNotAllowed");
    assertThat(status.path("message").asText()).isEqualTo("create not allowed while custom resource definition is terminating");
    assertThat(http.get(collection(group, "barrels", ns) + "/held").expect(200).path("metadata")
        .has("deletionTimestamp")).as("marked, waiting for its finalizer").isTrue();

    http.mergePatch(collection(group, "barrels", ns) + "/held", object("{\"metadata\":{\"finalizers\":null}}"))
        .expect(200);

    Await.until(crd + " gone", BOUND, () -> http.get(CRDS + "/" + crd).code() == 404);
  }

  @Test
  void aCustomResourceOwnedByAConfigMap_goesWithIt_andAConfigMapOwnedByACustomResource_too() {
    String group = "gc.example.com";
    http.create(CRDS, definition(group, "pallets", "Pallet"));
    awaitCondition("pallets." + group, "Established", "True", "InitialNamesAccepted");
    String ns = http.createNamespace("gc");
    Await.until("pallets served", BOUND, () -> http.get(collection(group, "pallets", ns)).code() == 200);
    JsonNode owner = http.create("/api/v1/namespaces/" + ns + "/configmaps", KubeHttp.configMap("owner"));
    ObjectNode owned = resource(group, "Pallet", "owned");
    ((ObjectNode) owned.path("metadata")).putArray("ownerReferences").addObject().put("apiVersion", "v1")
        .put("kind", "ConfigMap").put("name", "owner").put("uid", owner.path("metadata").path("uid").asText());
    JsonNode pallet = http.create(collection(group, "pallets", ns), owned);
    ObjectNode dependent = KubeHttp.configMap("dependent");
    dependent.with("metadata").putArray("ownerReferences").addObject().put("apiVersion", group + "/v1")
        .put("kind", "Pallet").put("name", "owned").put("uid", pallet.path("metadata").path("uid").asText());
    http.create("/api/v1/namespaces/" + ns + "/configmaps", dependent);

    http.delete("/api/v1/namespaces/" + ns + "/configmaps/owner").expect(200);

    Await.until("the pallet collected", BOUND,
        () -> http.get(collection(group, "pallets", ns) + "/owned").code() == 404);
    Await.until("the pallet's configmap collected", BOUND,
        () -> http.get("/api/v1/namespaces/" + ns + "/configmaps/dependent").code() == 404);
  }

  @Test
  void aNamespaceWithCustomResources_goesCompletely_onceTheirFinalizersAreRemoved() {
    String group = "ns.example.com";
    http.create(CRDS, definition(group, "bins", "Bin"));
    awaitCondition("bins." + group, "Established", "True", "InitialNamesAccepted");
    String ns = http.createNamespace("bins");
    Await.until("bins served", BOUND, () -> http.get(collection(group, "bins", ns)).code() == 200);
    http.create(collection(group, "bins", ns), resource(group, "Bin", "plain"));
    ObjectNode held = resource(group, "Bin", "held");
    ((ObjectNode) held.path("metadata")).putArray("finalizers").add("example.com/hold");
    http.create(collection(group, "bins", ns), held);

    http.delete("/api/v1/namespaces/" + ns).expect(200);

    Await.until("only the held bin left", BOUND,
        () -> http.list(collection(group, "bins", ns)).path("items").size() == 1
        && http.get(collection(group, "bins", ns) + "/held").code() == 200);
    assertThat(http.get("/api/v1/namespaces/" + ns).expect(200).path("status").path("phase").asText())
        .isEqualTo("Terminating");

    http.mergePatch(collection(group, "bins", ns) + "/held", object("{\"metadata\":{\"finalizers\":null}}"))
        .expect(200);

    Await.until("the namespace gone", BOUND, () -> http.get("/api/v1/namespaces/" + ns).code() == 404);
  }
}
