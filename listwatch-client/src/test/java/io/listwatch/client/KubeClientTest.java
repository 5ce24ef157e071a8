package io.listwatch.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.listwatch.api.ListOptions;
import io.listwatch.api.StatusException;
import io.listwatch.api.patch.PatchType;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** The verbs end to end against the in-process server. */
@ExtendWith(ApiServerExtension.class)
@Timeout(60)
class KubeClientTest {

  private KubeClient client;
  private ResourceClient<DynamicObject> configMaps;
  private ResourceClient<DynamicObject> namespaces;

  @BeforeEach
  void connect(ApiServer server) {
    client = KubeClient.create(Config.forUrl(server.url()));
    configMaps = client.dynamic(ResourceType.CONFIGMAPS);
    namespaces = client.dynamic(ResourceType.NAMESPACES);
  }

  @AfterEach
  void disconnect() {
    client.close();
  }

  private String namespace(String name) {
    namespaces.create(DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + name + "\"}}"));
    return name;
  }

  private static DynamicObject configMap(String ns, String name, String value) {
    return DynamicObject.parse("""
        {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"%s","namespace":"%s","labels":{"app":"demo"}},
         "data":{"key":"%s"}}""".formatted(name, ns, value));
  }

  @Test
  void dynamicObjects_createGetUpdatePatchDelete_roundTrip() {
    String ns = namespace("crud");
    DynamicObject created = configMaps.create(configMap(ns, "a", "v1"));
    assertThat(created.uid()).isNotEmpty();
    assertThat(created.resourceVersion()).isNotEmpty();
    assertThat(created.labels()).containsEntry("app", "demo");

    DynamicObject got = configMaps.get(ns, "a").orElseThrow();
    assertThat(got.get("data", "key").orElseThrow().asText()).isEqualTo("v1");

    var tree = got.toTree();
    tree.withObject("data").put("key", "v2");
    DynamicObject updated = configMaps.update(DynamicObject.of(tree));
    assertThat(updated.get("data", "key").orElseThrow().asText()).isEqualTo("v2");
    assertThat(Long.parseLong(updated.resourceVersion())).isGreaterThan(Long.parseLong(created.resourceVersion()));

    DynamicObject patched = configMaps.mergePatch(ns, "a", "{\"metadata\":{\"labels\":{\"patched\":\"yes\"}}}");
    assertThat(patched.labels()).containsEntry("patched", "yes").containsEntry("app", "demo");

    assertThat(configMaps.delete(ns, "a")).isTrue();
    assertThat(configMaps.get(ns, "a")).isEmpty();
    assertThat(configMaps.delete(ns, "a")).as("already gone").isFalse();
  }

  @Test
  void objectWithoutNamespace_isCreatedInTheConfiguredNamespace() {
    DynamicObject created = configMaps.create(DynamicObject.parse(
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"defaulted\"}}"));
    assertThat(created.namespace()).isEqualTo("default");
    assertThat(configMaps.delete("default", "defaulted")).isTrue();
  }

  @Test
  void fabric8Pods_roundTripThroughJacksonCodec() {
    String ns = namespace("fabric8");
    ResourceClient<Pod> pods = client.resource(ResourceType.PODS, JacksonCodec.of(Pod.class));
    Pod pod = new PodBuilder().withNewMetadata().withName("web").withNamespace(ns).addToLabels("app", "web").endMetadata()
        .withNewSpec().addNewContainer().withName("c").withImage("nginx:1.27").endContainer().endSpec().build();

    Pod created = pods.create(pod);
    assertThat(created.getMetadata().getUid()).isNotEmpty();
    assertThat(created.getSpec().getContainers().get(0).getImage()).isEqualTo("nginx:1.27");

    created.getSpec().getContainers().get(0).setImage("nginx:1.28");
    Pod updated = pods.update(created);
    assertThat(updated.getSpec().getContainers().get(0).getImage()).isEqualTo("nginx:1.28");

    updated.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder().withPhase("Running").build());
    Pod withStatus = pods.updateStatus(updated);
    assertThat(withStatus.getStatus().getPhase()).isEqualTo("Running");

    assertThat(pods.get(ns, "web").orElseThrow().getMetadata().getLabels()).containsEntry("app", "web");
    assertThat(pods.list(ns, ListOptions.builder().build()).items())
        .extracting(p -> p.getMetadata().getName()).containsExactly("web");
    assertThat(pods.delete(ns, "web")).isTrue();
  }

  @Test
  void patch_sendsEachPatchType_withItsMediaType() {
    String ns = namespace("patchtypes");
    configMaps.create(configMap(ns, "a", "v1"));

    DynamicObject json = configMaps.patch(ns, "a", PatchType.JSON_PATCH,
        "[{\"op\":\"test\",\"path\":\"/data/key\",\"value\":\"v1\"},"
            + "{\"op\":\"move\",\"from\":\"/data/key\",\"path\":\"/data/moved\"}]");
    DynamicObject strategic = configMaps.patch(ns, "a", PatchType.STRATEGIC_MERGE_PATCH,
        "{\"metadata\":{\"finalizers\":[\"example.com/keep\"]},\"data\":{\"added\":\"yes\"}}");
    StatusException failedTest = catchThrowableOfType(StatusException.class, () -> configMaps.patch(ns, "a",
        PatchType.JSON_PATCH, "[{\"op\":\"test\",\"path\":\"/data/moved\",\"value\":\"other\"}]"));

    assertThat(json.get("data", "moved").orElseThrow().asText()).isEqualTo("v1");
    assertThat(strategic.get("data", "added").orElseThrow().asText()).isEqualTo("yes");
    assertThat(strategic.get("metadata", "finalizers").orElseThrow().get(0).asText()).isEqualTo("example.com/keep");
    assertThat(failedTest.code()).isEqualTo(422);
    DynamicObject released = configMaps.patch(ns, "a", PatchType.STRATEGIC_MERGE_PATCH,
        "{\"metadata\":{\"$deleteFromPrimitiveList/finalizers\":[\"example.com/keep\"]}}");
    assertThat(released.get("metadata", "finalizers").map(JsonNode::size).orElse(0)).isZero();
  }

  @Test
  void staleUpdate_isA409ConflictWithTheServersStatus() {
    String ns = namespace("conflict");
    DynamicObject v1 = configMaps.create(configMap(ns, "a", "v1"));
    configMaps.mergePatch(ns, "a", "{\"data\":{\"key\":\"v2\"}}");

    StatusException e = catchThrowableOfType(StatusException.class, () -> configMaps.update(v1));
    assertThat(e.code()).isEqualTo(409);
    assertThat(e.reason()).isEqualTo("Conflict");
    assertThat(e.status().details().name()).isEqualTo("a");
    assertThat(e.getMessage()).contains("the object has been modified");

    StatusException exists = catchThrowableOfType(StatusException.class, () -> configMaps.create(configMap(ns, "a", "x")));
    assertThat(exists.code()).isEqualTo(409);
    assertThat(exists.reason()).isEqualTo("AlreadyExists");
  }

  @Test
  void missingObjects_areEmptyOnGet_falseOnDelete_and404OnPatchAndUpdate() {
    String ns = namespace("missing");
    assertThat(configMaps.get(ns, "nope")).isEmpty();
    assertThat(configMaps.delete(ns, "nope")).isFalse();
    StatusException patch = catchThrowableOfType(StatusException.class, () -> configMaps.mergePatch(ns, "nope", "{}"));
    assertThat(patch.code()).isEqualTo(404);
    assertThat(patch.reason()).isEqualTo("NotFound");
    assertThat(patch.status().details().name()).isEqualTo("nope");
  }

  @Test
  void badArguments_areRejectedBeforeAnyRequest() {
    assertThatThrownBy(() -> configMaps.get(null, "a")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("namespace");
    assertThatThrownBy(() -> namespaces.get("ns", "a")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cluster-scoped");
    assertThatThrownBy(() -> configMaps.get("ns", "")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> configMaps.list("ns", ListOptions.builder().watch(true).build()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void pagedList_walksEveryItemWithLimitAndContinue() {
    String ns = namespace("paging");
    for (int i = 0; i < 25; i++) {
      configMaps.create(configMap(ns, "cm-%02d".formatted(i), "v"));
    }
    List<String> names = new ArrayList<>();
    ListOptions options = ListOptions.builder().limit(10).build();
    List<Integer> pageSizes = new ArrayList<>();
    ObjectList<DynamicObject> page;
    do {
      page = configMaps.list(ns, options);
      pageSizes.add(page.items().size());
      page.items().forEach(o -> names.add(o.name()));
      if (page.hasMore()) {
        assertThat(page.remainingItemCount()).hasValue(25 - names.size());
      }
      options = options.toBuilder().continueToken(page.continueToken()).build();
    } while (page.hasMore());
    assertThat(pageSizes).containsExactly(10, 10, 5);
    assertThat(names).hasSize(25).doesNotHaveDuplicates().isSorted();
    assertThat(page.resourceVersion()).isNotEmpty();
  }

  @Test
  void largeList_isDecodedFromTheStream() throws Exception {
    String ns = namespace("large");
    int count = 2000;
    String padding = "x".repeat(400);
    try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
      List<Future<?>> writes = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        String name = "cm-" + i;
        writes.add(pool.submit(() -> configMaps.create(configMap(ns, name, padding))));
      }
      for (Future<?> f : writes) {
        f.get();
      }
    }
    ObjectList<DynamicObject> all = configMaps.list(ns, ListOptions.builder().build());
    assertThat(all.items()).hasSize(count);
    assertThat(all.items()).allSatisfy(o -> {
      assertThat(o.namespace()).isEqualTo(ns);
      assertThat(o.get("data", "key").orElseThrow().asText()).hasSize(400);
    });
    assertThat(all.hasMore()).isFalse();
    assertThat(configMaps.list(null, ListOptions.builder().labelSelector(
        io.listwatch.api.LabelSelector.parse("app=demo")).limit(1).build()).items()).hasSize(1);
  }

  @Test
  void connectionRefused_isAnUncheckedIoException() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    try (KubeClient dead = KubeClient.create(Config.forUrl("http://127.0.0.1:" + port))) {
      assertThatThrownBy(() -> dead.dynamic(ResourceType.PODS).get("default", "a"))
          .isInstanceOf(UncheckedIOException.class);
    }
  }
}
