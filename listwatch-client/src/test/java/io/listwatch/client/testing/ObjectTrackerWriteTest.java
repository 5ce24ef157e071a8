package io.listwatch.client.testing;

import static io.listwatch.client.testing.Pods.CONFIG_MAP;
import static io.listwatch.client.testing.Pods.POD;
import static io.listwatch.client.testing.Pods.configMap;
import static io.listwatch.client.testing.Pods.pod;
import static io.listwatch.client.testing.Pods.rv;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.listwatch.api.StatusException;
import io.listwatch.api.patch.PatchType;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.api.clock.FakeClock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ObjectTrackerWriteTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final FakeClock clock = new FakeClock(Instant.parse("2026-03-04T05:06:07.890Z"));
  private final FakeClient client = FakeClient.create(ObjectTracker.builder().clock(clock).build());
  private final ResourceClient<Pod> pods = client.resource(ResourceType.PODS, POD);
  private final ResourceClient<ConfigMap> configMaps = client.resource(ResourceType.CONFIGMAPS, CONFIG_MAP);

  @Test
  void create_setsServerOwnedMetadata_andReturnsTheStoredObject() {
    Pod created = pods.create(pod("default", "web"));

    assertThat(created.getMetadata().getUid()).isNotEmpty();
    assertThat(created.getMetadata().getCreationTimestamp()).isEqualTo("2026-03-04T05:06:07Z");
    assertThat(created.getMetadata().getGeneration()).as("pods track no generation, as on the server").isNull();
    assertThat(created.getMetadata().getResourceVersion()).isEqualTo("1");
    assertThat(created.getKind()).isEqualTo("Pod");
    assertThat(pods.get("default", "web")).contains(created);
  }

  @Test
  void generation_isSetAndBumpedOnSpecChanges_onlyForTypesThatTrackIt() {
    ObjectNode deployment = JSON.createObjectNode();
    deployment.putObject("metadata").put("namespace", "default").put("name", "web");
    deployment.putObject("spec").put("replicas", 1);

    ObjectNode created = client.tracker().create(ResourceType.DEPLOYMENTS, deployment);
    assertThat(created.at("/metadata/generation").asLong()).isEqualTo(1);

    ObjectNode labelled = created.deepCopy();
    ((ObjectNode) labelled.get("metadata")).putObject("labels").put("a", "1");
    assertThat(client.tracker().update(ResourceType.DEPLOYMENTS, labelled).at("/metadata/generation").asLong())
        .as("metadata-only change").isEqualTo(1);

    ObjectNode scaled = client.tracker().get(ResourceType.DEPLOYMENTS, "default", "web").orElseThrow();
    ((ObjectNode) scaled.get("spec")).put("replicas", 3);
    assertThat(client.tracker().update(ResourceType.DEPLOYMENTS, scaled).at("/metadata/generation").asLong())
        .as("spec change").isEqualTo(2);

    ConfigMap cm = configMaps.create(configMap("default", "settings"));
    assertThat(cm.getMetadata().getGeneration()).isNull();
  }

  @Test
  void create_ofAnExistingName_fails409AlreadyExists() {
    pods.create(pod("default", "web"));

    assertThatThrownBy(() -> pods.create(pod("default", "web")))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.code()).isEqualTo(409);
          assertThat(e.reason()).isEqualTo("AlreadyExists");
          assertThat(e.status().details().name()).isEqualTo("web");
          assertThat(e.status().details().kind()).isEqualTo("pods");
        });
    assertThat(pods.create(pod("other", "web")).getMetadata().getNamespace()).isEqualTo("other");
  }

  @Test
  void create_withGenerateName_appendsFiveRandomCharacters() {
    Pod template = new PodBuilder().withNewMetadata().withNamespace("default").withGenerateName("web-")
        .endMetadata().build();

    Pod a = pods.create(template);
    Pod b = pods.create(template);

    assertThat(a.getMetadata().getName()).matches("web-[bcdfghjklmnpqrstvwxz2456789]{5}");
    assertThat(b.getMetadata().getName()).startsWith("web-").isNotEqualTo(a.getMetadata().getName());
  }

  @Test
  void create_withoutName_fails422Invalid_andTheTrackerWithoutNamespace_too() {
    assertThatThrownBy(() -> pods.create(new PodBuilder().withNewMetadata().withNamespace("default").endMetadata()
        .build()))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.code()).isEqualTo(422);
          assertThat(e.status().details().causes()).extracting(c -> c.field()).containsExactly("metadata.name");
        });
    assertThatThrownBy(() -> client.tracker().add(ResourceType.PODS, POD, pod(null, "web")))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.code()).isEqualTo(422);
          assertThat(e.getMessage()).contains("metadata.namespace");
        });
  }

  @Test
  void createAndUpdate_withoutNamespace_useTheDefaultNamespace_asTheHttpClientDoes() {
    Pod created = pods.create(pod(null, "web"));

    assertThat(created.getMetadata().getNamespace()).isEqualTo("default");
    assertThat(client.actionsFor(Action.CREATE, ResourceType.PODS)).extracting(Action::namespace)
        .containsExactly("default");
    Pod relabelled = new PodBuilder(created).editMetadata().withNamespace(null).addToLabels("a", "1").endMetadata()
        .build();
    assertThat(pods.update(relabelled).getMetadata().getLabels()).containsEntry("a", "1");

    client.defaultNamespace("team-a");
    assertThat(pods.create(pod(null, "web")).getMetadata().getNamespace()).isEqualTo("team-a");
  }

  @Test
  void update_withStaleResourceVersion_fails409Conflict() {
    Pod v1 = pods.create(pod("default", "web"));
    pods.update(new PodBuilder(v1).editMetadata().addToLabels("a", "1").endMetadata().build());

    Pod stale = new PodBuilder(v1).editMetadata().addToLabels("a", "2").endMetadata().build();

    assertThatThrownBy(() -> pods.update(stale))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.code()).isEqualTo(409);
          assertThat(e.reason()).isEqualTo("Conflict");
          assertThat(e.status().details().name()).isEqualTo("web");
          assertThat(e.status().details().kind()).isEqualTo("pods");
          assertThat(e.getMessage()).contains("the object has been modified");
        });
    assertThat(pods.get("default", "web").orElseThrow().getMetadata().getLabels()).containsEntry("a", "1");
  }

  @Test
  void update_withoutResourceVersion_updatesUnconditionally() {
    Pod v1 = pods.create(pod("default", "web"));
    Pod blind = new PodBuilder(v1).editMetadata().withResourceVersion(null).endMetadata()
        .editSpec().withNodeName("node-2").endSpec().build();

    Pod v2 = pods.update(blind);

    assertThat(rv(v2)).isGreaterThan(rv(v1));
    assertThat(v2.getSpec().getNodeName()).isEqualTo("node-2");
    assertThat(v2.getMetadata().getGeneration()).as("pods track no generation").isNull();
    assertThat(v2.getMetadata().getUid()).isEqualTo(v1.getMetadata().getUid());
  }

  @Test
  void update_thatChangesNothing_isNotAWrite() {
    Pod v1 = pods.create(pod("default", "web"));

    Pod same = pods.update(v1);

    assertThat(same.getMetadata().getResourceVersion()).isEqualTo(v1.getMetadata().getResourceVersion());
    assertThat(client.tracker().resourceVersion()).isEqualTo(rv(v1));
  }

  @Test
  void getUpdateDeleteAndPatch_ofAMissingObject_answerNotFound() {
    assertThat(pods.get("default", "nope")).isEmpty();
    assertThat(pods.delete("default", "nope")).isFalse();
    assertThatThrownBy(() -> pods.update(pod("default", "nope")))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.code()).isEqualTo(404);
          assertThat(e.reason()).isEqualTo("NotFound");
          assertThat(e.getMessage()).isEqualTo("pods \"nope\" not found");
        });
    assertThatThrownBy(() -> pods.mergePatch("default", "nope", "{}"))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(404));
  }

  @Test
  void namespacedCalls_withoutNamespace_fail400_andClusterScopedWithOne_too() {
    assertThatThrownBy(() -> pods.get("", "web"))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(400))
        .hasMessageContaining("namespace is required");
    assertThatThrownBy(() -> client.resource(ResourceType.NODES, io.listwatch.client.JacksonCodec.of(io.fabric8.kubernetes.api.model.Node.class)).get("default", "n1"))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(400))
        .hasMessageContaining("cluster-scoped");
  }

  @Test
  void resourceVersion_isOneCounterAcrossResources() {
    long pod = rv(pods.create(pod("default", "a")));
    long cm = rv(configMaps.create(configMap("default", "b")));
    long pod2 = rv(pods.create(pod("default", "c")));

    assertThat(List.of(pod, cm, pod2)).containsExactly(1L, 2L, 3L);
    assertThat(client.tracker().resourceVersion()).isEqualTo(3);
  }

  @Test
  void update_keepsStoredStatus_andUpdateStatus_keepsTheSpec() {
    Pod v1 = pods.create(pod("default", "web"));
    Pod withStatus = new PodBuilder(v1).withStatus(new PodStatusBuilder().withPhase("Running").build())
        .editMetadata().addToLabels("label", "yes").endMetadata()
        .editSpec().withNodeName("ignored").endSpec().build();

    Pod v2 = pods.updateStatus(withStatus);
    assertThat(v2.getStatus().getPhase()).isEqualTo("Running");
    assertThat(v2.getSpec().getNodeName()).isNotEqualTo("ignored");
    // kube's pod status strategy resets the spec only: metadata changes go through /status
    assertThat(v2.getMetadata().getLabels()).containsEntry("label", "yes");
    assertThat(v2.getMetadata().getGeneration()).isNull();

    Pod v3 = pods.update(new PodBuilder(v2).withStatus(new PodStatusBuilder().withPhase("Failed").build())
        .editMetadata().addToLabels("kept", "yes").endMetadata().build());
    assertThat(v3.getStatus().getPhase()).isEqualTo("Running");
    assertThat(v3.getMetadata().getLabels()).containsEntry("kept", "yes");
  }

  @Test
  void mergePatch_mergesObjects_removesNulls_andChecksAResourceVersionInThePatch() {
    pods.create(pod("default", "web", Map.of("a", "1", "b", "2")));

    Pod patched = pods.mergePatch("default", "web", "{\"metadata\":{\"labels\":{\"a\":null,\"c\":\"3\"}}}");

    assertThat(patched.getMetadata().getLabels()).containsExactlyInAnyOrderEntriesOf(Map.of("b", "2", "c", "3"));
    assertThat(patched.getSpec().getNodeName()).isEqualTo("node-1");
    assertThatThrownBy(() -> pods.mergePatch("default", "web", "{\"metadata\":{\"resourceVersion\":\"1\"}}"))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(409));
    assertThatThrownBy(() -> pods.mergePatch("default", "web", "[1]"))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(400));
  }

  @Test
  void patch_strategicMergeAndJsonPatch_applyAsOnTheServer_andCustomKindsGet415ForStrategic() {
    pods.create(new PodBuilder(pod("default", "web")).editSpec()
        .addNewContainer().withName("sidecar").withImage("busybox:1.36").endContainer().endSpec().build());

    Pod strategic = pods.patch("default", "web", PatchType.STRATEGIC_MERGE_PATCH,
        "{\"spec\":{\"containers\":[{\"name\":\"sidecar\",\"image\":\"busybox:1.37\"}]}}");
    Pod json = pods.patch("default", "web", PatchType.JSON_PATCH,
        "[{\"op\":\"test\",\"path\":\"/spec/containers/1/image\",\"value\":\"busybox:1.37\"},"
            + "{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"tier\":\"front\"}}]");

    assertThat(strategic.getSpec().getContainers()).hasSize(2);
    assertThat(strategic.getSpec().getContainers().get(1).getImage()).isEqualTo("busybox:1.37");
    assertThat(json.getMetadata().getLabels()).containsEntry("tier", "front");
    assertThatThrownBy(() -> pods.patch("default", "web", PatchType.JSON_PATCH,
        "[{\"op\":\"test\",\"path\":\"/spec/nodeName\",\"value\":\"other\"}]"))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(422));
    ResourceType widgets = new ResourceType("example.com", "v1", "widgets", "Widget", true);
    ResourceClient<DynamicObject> widgetClient = client.resource(widgets, DynamicObject.CODEC);
    widgetClient.create(DynamicObject.parse(
        "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\",\"namespace\":\"default\"}}"));
    assertThatThrownBy(() -> widgetClient.patch("default", "w", PatchType.STRATEGIC_MERGE_PATCH, "{}"))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(415));
  }

  @Test
  void delete_ofAnObjectWithFinalizers_marksIt_untilTheLastFinalizerIsRemoved() {
    pods.create(new PodBuilder(pod("default", "web")).editMetadata().addToFinalizers("example.com/f")
        .endMetadata().build());

    assertThat(pods.delete("default", "web")).isTrue();
    Pod marked = pods.get("default", "web").orElseThrow();
    assertThat(marked.getMetadata().getDeletionTimestamp()).isEqualTo("2026-03-04T05:06:07Z");

    pods.update(new PodBuilder(marked).editMetadata().withFinalizers(List.of()).endMetadata().build());
    assertThat(pods.get("default", "web")).isEmpty();
  }

  @Test
  void seededObjects_keepTheirUid_butGetFreshResourceVersions() {
    Pod seed = new PodBuilder(pod("default", "web")).editMetadata().withUid("u-1").withResourceVersion("999")
        .endMetadata().build();

    FakeClient seeded = FakeClient.withObjects(ResourceType.PODS, POD, seed, pod("default", "db"));

    assertThat(seeded.actions()).isEmpty();
    Pod web = seeded.resource(ResourceType.PODS, POD).get("default", "web").orElseThrow();
    assertThat(web.getMetadata().getUid()).isEqualTo("u-1");
    assertThat(web.getMetadata().getResourceVersion()).isEqualTo("1");
    assertThat(seeded.tracker().list(ResourceType.PODS, "default")).hasSize(2);
  }

  @Test
  void objectsPassedIn_andHandedOut_areNeverShared() {
    Pod mine = pod("default", "web");
    Pod created = pods.create(mine);
    created.getMetadata().getLabels().put("mutated", "yes");

    assertThat(mine.getMetadata().getResourceVersion()).isNull();
    assertThat(pods.get("default", "web").orElseThrow().getMetadata().getLabels()).doesNotContainKey("mutated");
  }
}
