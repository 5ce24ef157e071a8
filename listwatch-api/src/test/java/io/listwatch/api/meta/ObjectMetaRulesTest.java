package io.listwatch.api.meta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ObjectMetaRulesTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant NOW = Instant.parse("2026-03-04T05:06:07.890Z");
  private static final NameGenerator NAMES = new NameGenerator(new SplittableRandom(1));

  record Type(String group, String plural, String kind, String apiVersion, boolean namespaced,
      boolean tracksGeneration, boolean hasStatus) implements ResourceDescriptor {
  }

  private static final Type PODS = new Type("", "pods", "Pod", "v1", true, false, true);
  private static final Type DEPLOYMENTS = new Type("apps", "deployments", "Deployment", "apps/v1", true, true, true);
  private static final Type NODES = new Type("", "nodes", "Node", "v1", false, false, true);
  private static final Type CONFIGMAPS = new Type("", "configmaps", "ConfigMap", "v1", true, false, false);

  private static ObjectNode object(String namespace, String name) {
    ObjectNode o = JSON.createObjectNode();
    ObjectNode meta = o.putObject("metadata");
    if (namespace != null) {
      meta.put("namespace", namespace);
    }
    meta.put("name", name);
    return o;
  }

  @Test
  void prepareForCreate_setsServerOwnedFields_andGenerationOnlyForTypesThatTrackIt() {
    ObjectNode pod = object("default", "web");
    pod.with("metadata").put("resourceVersion", "7").put("generation", 5).put("uid", "mine");
    ObjectMetaRules.prepareForCreate(PODS, pod, "default", NOW, NAMES);
    ObjectNode deployment = object(null, "web");
    ObjectMetaRules.prepareForCreate(DEPLOYMENTS, deployment, "default", NOW, NAMES);

    assertThat(pod.path("kind").asText()).isEqualTo("Pod");
    assertThat(pod.at("/metadata/uid").asText()).isNotEqualTo("mine").isNotEmpty();
    assertThat(pod.at("/metadata/creationTimestamp").asText()).isEqualTo("2026-03-04T05:06:07Z");
    assertThat(pod.path("metadata").has("resourceVersion")).isFalse();
    assertThat(pod.path("metadata").has("generation")).isFalse();
    assertThat(deployment.at("/metadata/generation").asLong()).isEqualTo(1);
    assertThat(deployment.at("/metadata/namespace").asText()).isEqualTo("default");
  }

  @Test
  void prepareForCreate_refusesAnotherNamespace_andClearsItOnClusterScopedObjects() {
    assertThatThrownBy(() -> ObjectMetaRules.prepareForCreate(PODS, object("a", "web"), "b", NOW, NAMES))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(400))
        .hasMessage("the namespace of the provided object does not match the namespace sent on the request");
    ObjectNode node = object("a", "n1");
    ObjectMetaRules.prepareForCreate(NODES, node, "", NOW, NAMES);
    assertThat(node.path("metadata").has("namespace")).isFalse();
  }

  @Test
  void prepareForCreate_withoutNameOrGenerateName_is422() {
    ObjectNode unnamed = JSON.createObjectNode();
    unnamed.putObject("metadata").put("generateName", "web-");
    ObjectMetaRules.prepareForCreate(PODS, unnamed, "default", NOW, NAMES);
    assertThat(unnamed.at("/metadata/name").asText()).matches("web-[bcdfghjklmnpqrstvwxz2456789]{5}");

    assertThatThrownBy(() -> ObjectMetaRules.prepareForCreate(PODS, JSON.createObjectNode(), "default", NOW, NAMES))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.code()).isEqualTo(422);
          assertThat(e.status().details().causes()).extracting(c -> c.message())
              .containsExactly("Required value: name or generateName is required");
        });
  }

  @Test
  void prepareForUpdate_keepsServerFieldsAndStatus_andBumpsGenerationOnSpecChange() {
    ObjectNode current = object("default", "web");
    current.putObject("spec").put("replicas", 1);
    ObjectMetaRules.prepareForCreate(DEPLOYMENTS, current, "default", NOW, NAMES);
    current.putObject("status").put("replicas", 1);

    ObjectNode change = object("default", "web");
    change.putObject("spec").put("replicas", 3);
    change.putObject("status").put("replicas", 99);
    change.with("metadata").put("creationTimestamp", "1999-01-01T00:00:00Z");
    ObjectNode result = ObjectMetaRules.prepareForUpdate(DEPLOYMENTS, change, current, "default", "web", false);

    assertThat(result.at("/metadata/generation").asLong()).isEqualTo(2);
    assertThat(result.at("/metadata/uid")).isEqualTo(current.at("/metadata/uid"));
    assertThat(result.at("/metadata/creationTimestamp").asText()).isEqualTo("2026-03-04T05:06:07Z");
    assertThat(result.at("/status/replicas").asInt()).as("status kept on the main resource").isEqualTo(1);

    ObjectNode cm = object("default", "c");
    ObjectMetaRules.prepareForCreate(CONFIGMAPS, cm, "default", NOW, NAMES);
    ObjectNode cmChange = cm.deepCopy();
    cmChange.putObject("status").put("x", 1);
    assertThat(ObjectMetaRules.prepareForUpdate(CONFIGMAPS, cmChange, cm, "default", "c", false).at("/status/x")
        .asInt()).as("no status subresource: the field is the client's").isEqualTo(1);
  }

  @Test
  void prepareForUpdate_refusesAChangedUid_andAnotherName() {
    ObjectNode current = object("default", "web");
    ObjectMetaRules.prepareForCreate(PODS, current, "default", NOW, NAMES);
    ObjectNode changedUid = current.deepCopy();
    changedUid.with("metadata").put("uid", "other");

    assertThatThrownBy(() -> ObjectMetaRules.prepareForUpdate(PODS, changedUid, current, "default", "web", false))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(422));
    assertThatThrownBy(() -> ObjectMetaRules.prepareForUpdate(PODS, object("default", "x"), current, "default",
        "web", false))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(400))
        .hasMessage("the name of the object (x) does not match the name on the URL (web)");
  }

  @Test
  void finalizers_mayBeRemovedButNotAdded_whileDeleting() {
    ObjectNode current = object("default", "web");
    current.with("metadata").putArray("finalizers").add("a");
    ObjectNode marked = ObjectMetaRules.markForDeletion(current, NOW);
    assertThat(ObjectMetaRules.isMarkedForDeletion(marked)).isTrue();
    assertThat(ObjectMetaRules.isMarkedForDeletion(current)).isFalse();

    ObjectNode added = marked.deepCopy();
    added.with("metadata").withArray("finalizers").add("b");
    assertThatThrownBy(() -> ObjectMetaRules.checkNoNewFinalizersWhileDeleting(PODS, marked, added, "web"))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(422));
    ObjectNode removed = marked.deepCopy();
    removed.with("metadata").putArray("finalizers");
    ObjectMetaRules.checkNoNewFinalizersWhileDeleting(PODS, marked, removed, "web");
  }
}
