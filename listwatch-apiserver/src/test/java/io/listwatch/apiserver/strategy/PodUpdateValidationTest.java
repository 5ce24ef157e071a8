package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.request.ApiResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * kube 1.32's {@code ValidatePodUpdate} as a client meets it: a pod's images, its
 * {@code activeDeadlineSeconds} (set or lowered), its tolerations (added to) and its scheduling
 * gates (removed) may change; anything else in its spec is {@code spec: Forbidden: pod updates
 * may not change fields other than ...}. The binding, the server's own write of
 * {@code spec.nodeName}, still works.
 */
class PodUpdateValidationTest {

  private static final String PODS = "/api/v1/namespaces/default/pods";
  private static final String POD = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{"
      + "\"containers\":[{\"name\":\"c\",\"image\":\"nginx:1.26\",\"ports\":[{\"containerPort\":80}]}],"
      + "\"tolerations\":[{\"key\":\"k\",\"operator\":\"Exists\",\"effect\":\"NoExecute\",\"tolerationSeconds\":60}]%s}}";

  private final InMemoryCore core = InMemoryCore.start();

  @AfterEach
  void stop() {
    core.close();
  }

  private static ObjectNode body(ApiResponse r) {
    return InMemoryCore.json(new String(r.jsonParts().orElseThrow()[0], StandardCharsets.UTF_8));
  }

  private ObjectNode create(String extraSpec) {
    ApiResponse r = core.send("POST", PODS, Map.of(), POD.formatted(extraSpec));
    assertThat(r.code()).isEqualTo(201);
    return body(r);
  }

  /** PUTs the stored pod as {@code change} leaves it. */
  private ApiResponse update(Consumer<ObjectNode> change) {
    ObjectNode pod = body(core.send("GET", PODS + "/p", Map.of(), null));
    change.accept(pod);
    return core.send("PUT", PODS + "/p", Map.of(), pod.toString());
  }

  private List<String> refused(Consumer<ObjectNode> change) {
    ObjectNode pod = body(core.send("GET", PODS + "/p", Map.of(), null));
    change.accept(pod);
    StatusException e = core.refusal("PUT", PODS + "/p", Map.of(), pod.toString());
    assertThat(e.code()).isEqualTo(422);
    return e.status().details().causes().stream().map(c -> c.field() + ": " + c.message()).toList();
  }

  private static ObjectNode spec(ObjectNode pod) {
    return (ObjectNode) pod.get("spec");
  }

  private static ObjectNode container(ObjectNode pod) {
    return (ObjectNode) pod.at("/spec/containers/0");
  }

  @Test
  void image_labels_andAnAddedToleration_mayChange() {
    create("");
    ApiResponse r = update(pod -> {
      container(pod).put("image", "nginx:1.27");
      ((ObjectNode) pod.get("metadata")).putObject("labels").put("app", "web");
      spec(pod).withArray("tolerations").addObject().put("key", "other").put("operator", "Exists");
      ((ObjectNode) pod.at("/spec/tolerations/0")).put("tolerationSeconds", 30);
    });
    assertThat(r.code()).isEqualTo(200);
    assertThat(body(r).at("/spec/containers/0/image").asText()).isEqualTo("nginx:1.27");
    // the pod's own, the added one, and the two DefaultTolerationSeconds gave it on create
    assertThat(body(r).at("/spec/tolerations").size()).isEqualTo(4);
    assertThat(body(r).at("/spec/tolerations").findValuesAsText("key")).contains("other");
  }

  @Test
  void anyOtherSpecField_isForbidden_withKubesMessage() {
    create("");
    List<String> causes = refused(pod -> ((ObjectNode) pod.at("/spec/containers/0/ports/0")).put("containerPort", 81));
    assertThat(causes).hasSize(1);
    assertThat(causes.get(0)).startsWith("spec: Forbidden: pod updates may not change fields other than "
        + "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,"
        + "`spec.tolerations` (only additions to existing tolerations),"
        + "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n  core.PodSpec{\n");
    assertThat(causes.get(0)).contains("- \tContainers: ").contains("\"containerPort\":80").contains("\"containerPort\":81");
  }

  @Test
  void terminationGracePeriod_andNodeName_areImmutable() {
    create("");
    assertThat(refused(pod -> spec(pod).put("terminationGracePeriodSeconds", 60)).get(0))
        .startsWith("spec: Forbidden: pod updates may not change fields other than").contains("TerminationGracePeriodSeconds: 30");
    assertThat(refused(pod -> spec(pod).put("nodeName", "n1")).get(0))
        .startsWith("spec: Forbidden: pod updates may not change fields other than").contains("+ \tNodeName: \"n1\"");
  }

  @Test
  void containers_mayNotBeAddedOrRemoved_norTheirImageEmptied() {
    create("");
    assertThat(refused(pod -> spec(pod).withArray("containers").addObject().put("name", "d").put("image", "x")))
        .containsExactly("spec.containers: Forbidden: pod updates may not add or remove containers");
    // the spec's own rule and the update's rule both report it, as kube's do
    assertThat(refused(pod -> container(pod).put("image", "")))
        .containsExactly("spec.containers[0].image: Required value", "spec.containers[0].image: Required value");
    assertThat(refused(pod -> container(pod).put("image", "nginx ")))
        .containsExactly("spec.containers[0].image: Invalid value: \"nginx \": must not have leading or trailing whitespace",
            "spec.containers[0].image: Invalid value: \"nginx \": must not have leading or trailing whitespace");
  }

  @Test
  void activeDeadlineSeconds_mayBeSetAndLowered_notRaisedOrUnset() {
    create("");
    assertThat(update(pod -> spec(pod).put("activeDeadlineSeconds", 100)).code()).isEqualTo(200);
    assertThat(update(pod -> spec(pod).put("activeDeadlineSeconds", 50)).code()).isEqualTo(200);
    assertThat(refused(pod -> spec(pod).put("activeDeadlineSeconds", 60)))
        .containsExactly("spec.activeDeadlineSeconds: Invalid value: 60: must be less than or equal to previous value");
    assertThat(refused(pod -> spec(pod).remove("activeDeadlineSeconds")))
        .containsExactly("spec.activeDeadlineSeconds: Invalid value: \"null\": must not update from a positive integer to nil value");
  }

  @Test
  void existingTolerations_mayNotBeModified() {
    create("");
    assertThat(refused(pod -> ((ObjectNode) pod.at("/spec/tolerations/0")).put("effect", "NoSchedule").remove("tolerationSeconds")))
        .containsExactly("spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds");
    assertThat(refused(pod -> spec(pod).remove("tolerations")))
        .containsExactly("spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds");
  }

  @Test
  void schedulingGates_mayOnlyBeRemoved_andAGatedPodsNodeSelector_onlyAddedTo() {
    create(",\"schedulingGates\":[{\"name\":\"a\"},{\"name\":\"b\"}],\"nodeSelector\":{\"disk\":\"ssd\"}");
    assertThat(refused(pod -> spec(pod).withArray("schedulingGates").addObject().put("name", "c")))
        .containsExactly("spec.schedulingGates[2].name: Forbidden: only deletion is allowed, but found new scheduling gate 'c'");
    assertThat(refused(pod -> ((ObjectNode) spec(pod).get("nodeSelector")).put("disk", "hdd")))
        .containsExactly("spec.nodeSelector: Invalid value: map[string]string{\"disk\":\"hdd\"}: "
            + "only additions to spec.nodeSelector are allowed (no mutations or deletions)");
    assertThat(update(pod -> ((ObjectNode) spec(pod).get("nodeSelector")).put("zone", "a")).code()).isEqualTo(200);
    assertThat(update(pod -> spec(pod).withArray("schedulingGates").remove(0)).code()).isEqualTo(200);
  }

  @Test
  void binding_setsTheNodeName_theUsersUpdateRulesNotwithstanding() {
    create("");
    ApiResponse r = core.send("POST", PODS + "/p/binding", Map.of(),
        "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"p\"},\"target\":{\"kind\":\"Node\",\"name\":\"n1\"}}");
    assertThat(r.code()).isEqualTo(201);
    assertThat(body(core.send("GET", PODS + "/p", Map.of(), null)).at("/spec/nodeName").asText()).isEqualTo("n1");
  }

  @Test
  void anUnchangedPut_isAccepted_evenWithFieldsLeftToTheirZeroValues() {
    create(",\"hostNetwork\":false,\"enableServiceLinks\":true");
    assertThat(update(pod -> spec(pod).remove("hostNetwork")).code()).isEqualTo(200);
  }

  @Test
  void aPodStoredBeforeADefaultExisted_comparesDefaulted_soAMetadataUpdatePasses() {
    PodStrategy strategy = new PodStrategy();
    ObjectNode stored = InMemoryCore.json("""
        {"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"nginx",
          "livenessProbe":{"httpGet":{"port":80}}}]}}""");
    ObjectNode updated = stored.deepCopy();
    ((ObjectNode) updated.get("metadata")).putObject("labels").put("app", "web");
    strategy.defaults(updated);
    List<io.listwatch.api.Status.Cause> errors = new java.util.ArrayList<>();
    strategy.validate(updated, stored, errors);
    assertThat(errors).isEmpty();
  }

  @Test
  void theMirrorPodAnnotation_mayNotBeAdded_andAnInvalidDeletionCostStoredBefore_mayStay() {
    create("");
    assertThat(refused(pod -> ((ObjectNode) pod.get("metadata")).putObject("annotations")
        .put("kubernetes.io/config.mirror", "x")))
        .contains("metadata.annotations[kubernetes.io/config.mirror]: Forbidden: may not add mirror pod annotation");
    assertThat(refused(pod -> ((ObjectNode) pod.get("metadata")).putObject("annotations")
        .put("controller.kubernetes.io/pod-deletion-cost", "x")))
        .containsExactly("metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: \"x\": must be a 32bit integer");
  }
}
