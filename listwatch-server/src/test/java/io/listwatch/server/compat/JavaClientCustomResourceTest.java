package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.ApiextensionsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition;
import io.kubernetes.client.util.PatchUtils;
import io.kubernetes.client.util.Watch;
import io.kubernetes.client.util.Watchable;
import io.kubernetes.client.util.Yaml;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesListObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.options.ListOptions;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The official Java client ({@code io.kubernetes:client-java}) with a custom resource, as
 * operators written with it use one: the CustomResourceDefinition created through the strict
 * {@code V1CustomResourceDefinition} model, then the custom resource through the generic
 * {@link DynamicKubernetesApi} (CRUD, list, watch) and server-side apply through
 * {@link PatchUtils} with {@code V1Patch.PATCH_FORMAT_APPLY_YAML}. Each test works in a
 * namespace of its own on the class's shared server.
 */
@EndToEnd
@ExtendWith(ApiServerExtension.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JavaClientCustomResourceTest {

  private static final String CRD = """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata: {name: gadgets.example.org}
      spec:
        group: example.org
        scope: Namespaced
        names: {plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList}
        versions:
        - name: v1
          served: true
          storage: true
          subresources: {status: {}}
          schema:
            openAPIV3Schema:
              type: object
              properties:
                spec:
                  type: object
                  required: [color]
                  properties:
                    color: {type: string}
                    size: {type: integer, minimum: 1}
                status:
                  type: object
                  properties:
                    phase: {type: string}
      """;

  private static ApiClient client;
  private static CoreV1Api core;
  private static DynamicKubernetesApi gadgets;

  @BeforeAll
  static void setUp(ApiServer server) throws Exception {
    client = JavaClientTest.newClient(server.url());
    // a watch that stays silent longer than this fails the test instead of hanging it
    client.setHttpClient(client.getHttpClient().newBuilder().readTimeout(Duration.ofSeconds(10)).build());
    core = new CoreV1Api(client);
    ApiextensionsV1Api extensions = new ApiextensionsV1Api(client);
    extensions.createCustomResourceDefinition(Yaml.loadAs(CRD, V1CustomResourceDefinition.class)).execute();
    Await.until("the definition is Established", Duration.ofSeconds(10),
        () -> established(extensions.readCustomResourceDefinition("gadgets.example.org").execute()));
    gadgets = new DynamicKubernetesApi("example.org", "v1", "gadgets", client);
  }

  private static boolean established(V1CustomResourceDefinition crd) {
    return crd.getStatus() != null && crd.getStatus().getConditions() != null && crd.getStatus().getConditions()
        .stream().anyMatch(c -> c.getType().equals("Established") && c.getStatus().equals("True"));
  }

  private static DynamicKubernetesObject gadget(String namespace, String name, String color, int size) {
    JsonObject raw = JsonParser.parseString("""
        {"apiVersion": "example.org/v1", "kind": "Gadget",
         "metadata": {"name": "%s", "namespace": "%s"},
         "spec": {"color": "%s", "size": %d}}""".formatted(name, namespace, color, size)).getAsJsonObject();
    return new DynamicKubernetesObject(raw);
  }

  private static JsonObject spec(DynamicKubernetesObject o) {
    return o.getRaw().getAsJsonObject("spec");
  }

  private static DynamicKubernetesObject ok(KubernetesApiResponse<DynamicKubernetesObject> response)
      throws ApiException {
    return response.throwsApiException().getObject();
  }

  @Test
  void genericApi_createsGetsListsUpdatesAndDeletesGadgets() throws ApiException {
    JavaClientTest.createNamespace(core, "jc-cr-crud");
    DynamicKubernetesObject created = ok(gadgets.create(gadget("jc-cr-crud", "g1", "red", 1)));
    ok(gadgets.create(gadget("jc-cr-crud", "g2", "blue", 2)));

    assertThat(created.getMetadata().getUid()).isNotEmpty();
    assertThat(created.getMetadata().getGeneration()).isEqualTo(1L);
    assertThat(created.getKind()).isEqualTo("Gadget");
    DynamicKubernetesObject read = ok(gadgets.get("jc-cr-crud", "g1"));
    assertThat(spec(read).get("color").getAsString()).isEqualTo("red");

    KubernetesApiResponse<DynamicKubernetesListObject> list = gadgets.list("jc-cr-crud").throwsApiException();
    assertThat(list.getObject().getKind()).isEqualTo("GadgetList");
    assertThat(list.getObject().getItems()).extracting(o -> o.getMetadata().getName()).containsExactly("g1", "g2");

    spec(read).addProperty("size", 3);
    DynamicKubernetesObject updated = ok(gadgets.update(read));
    assertThat(spec(updated).get("size").getAsInt()).isEqualTo(3);
    assertThat(updated.getMetadata().getGeneration()).isEqualTo(2L);

    KubernetesApiResponse<DynamicKubernetesObject> duplicate = gadgets.create(gadget("jc-cr-crud", "g1", "red", 1));
    assertThat(duplicate.getHttpStatusCode()).isEqualTo(409);
    assertThat(duplicate.getStatus().getReason()).isEqualTo("AlreadyExists");
    assertThat(duplicate.getStatus().getDetails().getKind()).isEqualTo("gadgets");

    ok(gadgets.delete("jc-cr-crud", "g2"));
    KubernetesApiResponse<DynamicKubernetesObject> gone = gadgets.get("jc-cr-crud", "g2");
    assertThat(gone.getHttpStatusCode()).isEqualTo(404);
    assertThat(gadgets.list("jc-cr-crud").throwsApiException().getObject().getItems())
        .extracting(o -> o.getMetadata().getName()).containsExactly("g1");
  }

  @Test
  void genericApi_watch_seesAddedModifiedAndDeleted() throws Exception {
    JavaClientTest.createNamespace(core, "jc-cr-watch");
    String rv = gadgets.list("jc-cr-watch").throwsApiException().getObject().getMetadata().getResourceVersion();
    ListOptions options = new ListOptions();
    options.setResourceVersion(rv);
    options.setTimeoutSeconds(20);
    try (Watchable<DynamicKubernetesObject> watch = gadgets.watch("jc-cr-watch", options)) {
      DynamicKubernetesObject created = ok(gadgets.create(gadget("jc-cr-watch", "g1", "red", 1)));
      spec(created).addProperty("color", "green");
      ok(gadgets.update(created));
      ok(gadgets.delete("jc-cr-watch", "g1"));

      assertThat(describe(next(watch))).isEqualTo("ADDED g1 red");
      assertThat(describe(next(watch))).isEqualTo("MODIFIED g1 green");
      assertThat(describe(next(watch))).isEqualTo("DELETED g1 green");
    }
  }

  private static Watch.Response<DynamicKubernetesObject> next(Watchable<DynamicKubernetesObject> watch) {
    assertThat(watch.hasNext()).as("the watch has another event").isTrue();
    return watch.next();
  }

  private static String describe(Watch.Response<DynamicKubernetesObject> event) {
    return event.type + " " + event.object.getMetadata().getName() + " "
        + spec(event.object).get("color").getAsString();
  }

  // needs crwrites: server-side apply of a custom resource (answered 415 before it)
  @Test
  void apply_withPatchUtils_createsThenUpdatesAGadget() throws ApiException {
    JavaClientTest.createNamespace(core, "jc-cr-apply");
    CustomObjectsApi custom = new CustomObjectsApi(client);

    Map<String, Object> first = apply(custom, """
        apiVersion: example.org/v1
        kind: Gadget
        metadata: {name: g1}
        spec: {color: red, size: 2}
        """);
    assertThat(first).containsKey("metadata");
    Map<String, Object> second = apply(custom, """
        apiVersion: example.org/v1
        kind: Gadget
        metadata: {name: g1}
        spec: {color: red, size: 5}
        """);

    DynamicKubernetesObject read = ok(gadgets.get("jc-cr-apply", "g1"));
    assertThat(spec(read).get("size").getAsInt()).isEqualTo(5);
    assertThat(read.getMetadata().getGeneration()).isEqualTo(2L);
    assertThat(read.getMetadata().getManagedFields())
        .anyMatch(m -> m.getManager().equals("gadget-operator") && m.getOperation().equals("Apply"));
    @SuppressWarnings("unchecked")
    Map<String, Object> meta = (Map<String, Object>) second.get("metadata");
    assertThat(meta.get("uid")).isEqualTo(read.getMetadata().getUid());
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> apply(CustomObjectsApi custom, String yaml) throws ApiException {
    return PatchUtils.patch(Map.class,
        () -> custom.patchNamespacedCustomObject("example.org", "v1", "jc-cr-apply", "gadgets", "g1", new V1Patch(yaml))
            .fieldManager("gadget-operator").force(true).buildCall(null),
        V1Patch.PATCH_FORMAT_APPLY_YAML, client);
  }
}
