package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.ApiResponse;
import io.listwatch.apiserver.request.ConnectionInfo;
import io.listwatch.apiserver.request.Headers;
import io.listwatch.apiserver.request.UserInfo;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A pod's {@code ephemeralcontainers} subresource as kube 1.32 serves it (what
 * {@code kubectl debug} patches): the body and the answer are the whole Pod, of which only
 * {@code spec.ephemeralContainers} is taken; containers may be added (with the container
 * defaults), never changed or removed; each new one is validated as a pod's ephemeral
 * containers are; the main resource may not change them, nor may a create set them. The cases
 * follow kube's {@code TestValidatePodEphemeralContainersUpdate}.
 */
class PodEphemeralContainersStrategyTest {

  private static final String PODS = "/api/v1/namespaces/default/pods";
  private static final String SUBRESOURCE = PODS + "/p/ephemeralcontainers";
  private static final String POD = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\","
      + "\"labels\":{\"app\":\"web\"}%s},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx:1.26\"}]}}";
  private static final String STRATEGIC = "application/strategic-merge-patch+json";
  private static final String MERGE = "application/merge-patch+json";
  private static final String JSON_PATCH = "application/json-patch+json";
  private static final String APPLY = "application/apply-patch+yaml";

  private final InMemoryCore core = InMemoryCore.start();

  @AfterEach
  void stop() {
    core.close();
  }

  private ObjectNode create(String extraMetadata) {
    ApiResponse r = core.send("POST", PODS, Map.of(), POD.formatted(extraMetadata));
    assertThat(r.code()).isEqualTo(201);
    return body(r);
  }

  private static ObjectNode body(ApiResponse r) {
    return InMemoryCore.json(new String(r.jsonParts().orElseThrow()[0], StandardCharsets.UTF_8));
  }

  private ApiResponse send(String method, String path, String contentType, String body) {
    return send(method, path, Map.of(), contentType, body);
  }

  private ApiResponse send(String method, String path, Map<String, List<String>> query, String contentType,
      String body) {
    ApiRequest request = new ApiRequest(method, path, query, Headers.of("Content-Type", contentType),
        body.getBytes(StandardCharsets.UTF_8), ConnectionInfo.insecure(null), UserInfo.UNSECURED);
    return core.server.routes().handle(core.server.routes().requestInfo(request), request).join();
  }

  private StatusException refusal(String method, String path, String contentType, String body) {
    return refusal(method, path, Map.of(), contentType, body);
  }

  private StatusException refusal(String method, String path, Map<String, List<String>> query, String contentType,
      String body) {
    RuntimeException e = catchThrowableOfType(RuntimeException.class,
        () -> send(method, path, query, contentType, body));
    assertThat(e).as("refused: " + method + " " + path + " " + body).isNotNull();
    return (StatusException) (e instanceof CompletionException ? e.getCause() : e);
  }

  private static List<String> causes(StatusException e) {
    assertThat(e.code()).isEqualTo(422);
    return e.status().details().causes().stream().map(c -> c.field() + ": " + c.message()).toList();
  }

  private ObjectNode stored() {
    return body(core.send("GET", PODS + "/p", Map.of(), null));
  }

  /** PUTs the stored pod to the subresource as {@code change} leaves it. */
  private ApiResponse put(Consumer<ObjectNode> change) {
    ObjectNode pod = stored();
    change.accept(pod);
    return core.send("PUT", SUBRESOURCE, Map.of(), pod.toString());
  }

  private List<String> refusedPut(Consumer<ObjectNode> change) {
    ObjectNode pod = stored();
    change.accept(pod);
    return causes(core.refusal("PUT", SUBRESOURCE, Map.of(), pod.toString()));
  }

  private static ArrayNode ephemeral(ObjectNode pod) {
    return ((ObjectNode) pod.get("spec")).withArray("ephemeralContainers");
  }

  private static ObjectNode debugger(String name) {
    ObjectNode c = InMemoryCore.json("{}");
    return c.put("name", name).put("image", "busybox:1.36");
  }

  private void added(String name) {
    assertThat(put(pod -> ephemeral(pod).add(debugger(name))).code()).isEqualTo(200);
  }

  /** The pod without what an ephemeral container write may change or the server stamps. */
  private static JsonNode rest(ObjectNode pod) {
    ObjectNode copy = pod.deepCopy();
    ((ObjectNode) copy.get("spec")).remove("ephemeralContainers");
    ((ObjectNode) copy.get("metadata")).remove(List.of("resourceVersion", "managedFields"));
    return copy;
  }

  @Test
  void discovery_listsTheSubresource_asKube() {
    JsonNode resources = body(core.send("GET", "/api/v1", Map.of(), null)).get("resources");
    JsonNode found = null;
    for (JsonNode r : resources) {
      if (r.path("name").asText().equals("pods/ephemeralcontainers")) {
        found = r;
      }
    }
    assertThat(found).isNotNull();
    assertThat(found.path("kind").asText()).isEqualTo("Pod");
    assertThat(found.path("namespaced").asBoolean()).isTrue();
    assertThat(found.path("verbs").toString()).isEqualTo("[\"get\",\"patch\",\"update\"]");
  }

  @Test
  void get_answersThePod() {
    ObjectNode created = create("");
    ApiResponse r = core.send("GET", SUBRESOURCE, Map.of(), null);
    assertThat(r.code()).isEqualTo(200);
    assertThat(body(r).path("kind").asText()).isEqualTo("Pod");
    assertThat(body(r).path("metadata").path("uid")).isEqualTo(created.path("metadata").path("uid"));
  }

  @Test
  void update_addsAContainer_withTheContainerDefaults_andKeepsEverythingElse() {
    create("");
    ObjectNode before = stored();
    ApiResponse r = put(pod -> {
      ephemeral(pod).add(debugger("debugger").put("targetContainerName", "c").put("stdin", true));
      // what else the body changes is not taken
      ((ObjectNode) pod.at("/metadata/labels")).put("app", "other");
      ((ObjectNode) pod.at("/spec/containers/0")).put("image", "nginx:1.27");
      ((ObjectNode) pod.get("status")).put("phase", "Running");
    });
    assertThat(r.code()).isEqualTo(200);
    ObjectNode answered = body(r);
    assertThat(answered.path("kind").asText()).isEqualTo("Pod");
    JsonNode added = answered.at("/spec/ephemeralContainers/0");
    assertThat(added.path("name").asText()).isEqualTo("debugger");
    assertThat(added.path("targetContainerName").asText()).isEqualTo("c");
    assertThat(added.path("terminationMessagePath").asText()).isEqualTo("/dev/termination-log");
    assertThat(added.path("terminationMessagePolicy").asText()).isEqualTo("File");
    assertThat(added.path("imagePullPolicy").asText()).isEqualTo("IfNotPresent");
    assertThat(rest(answered)).isEqualTo(rest(before));
    assertThat(stored().at("/spec/ephemeralContainers/0")).isEqualTo(added);
    assertThat(stored().at("/status/phase").asText()).isEqualTo("Pending");
  }

  @Test
  void strategicMergePatch_addsOne_asKubectlDebugDoes_andKeepsTheOthers() {
    ObjectNode before = create("");
    String patch = "{\"spec\":{\"ephemeralContainers\":[{\"name\":\"%s\",\"image\":\"busybox\","
        + "\"terminationMessagePolicy\":\"File\",\"resources\":{}}]}}";
    ApiResponse first = send("PATCH", SUBRESOURCE, STRATEGIC, patch.formatted("debugger"));
    assertThat(first.code()).isEqualTo(200);
    assertThat(body(first).at("/spec/ephemeralContainers/0/imagePullPolicy").asText()).isEqualTo("Always");
    // kubectl's two-way patch orders the list with a directive
    ApiResponse second = send("PATCH", SUBRESOURCE, STRATEGIC, patch.formatted("debugger-2").replace("{\"spec\":{",
        "{\"spec\":{\"$setElementOrder/ephemeralContainers\":[{\"name\":\"debugger\"},{\"name\":\"debugger-2\"}],"));
    assertThat(second.code()).isEqualTo(200);
    assertThat(body(second).at("/spec/ephemeralContainers").findValuesAsText("name"))
        .containsExactly("debugger", "debugger-2");
    assertThat(rest(body(second))).isEqualTo(rest(before));
  }

  @Test
  void mergePatch_andJsonPatch_add_too() {
    create("");
    ApiResponse merged = send("PATCH", SUBRESOURCE, MERGE,
        "{\"spec\":{\"ephemeralContainers\":[{\"name\":\"a\",\"image\":\"busybox\"}]}}");
    assertThat(merged.code()).isEqualTo(200);
    ApiResponse patched = send("PATCH", SUBRESOURCE, JSON_PATCH,
        "[{\"op\":\"add\",\"path\":\"/spec/ephemeralContainers/-\",\"value\":{\"name\":\"b\",\"image\":\"busybox\"}}]");
    assertThat(patched.code()).isEqualTo(200);
    assertThat(stored().at("/spec/ephemeralContainers").findValuesAsText("name")).containsExactly("a", "b");
  }

  @Test
  void serverSideApply_addsOne_butCreatesNoPod() {
    create("");
    String applied = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},"
        + "\"spec\":{\"ephemeralContainers\":[{\"name\":\"a\",\"image\":\"busybox\"}]}}";
    Map<String, List<String>> manager = Map.of("fieldManager", List.of("debug"));
    ApiResponse r = send("PATCH", SUBRESOURCE, manager, APPLY, applied);
    assertThat(r.code()).isEqualTo(200);
    assertThat(stored().at("/spec/ephemeralContainers/0/name").asText()).isEqualTo("a");
    assertThat(stored().at("/spec/containers/0/name").asText()).isEqualTo("c");
    StatusException missing = refusal("PATCH", PODS + "/q/ephemeralcontainers", manager, APPLY,
        applied.replace("\"p\"", "\"q\""));
    assertThat(missing.code()).as(missing.getMessage()).isEqualTo(404);
  }

  @Test
  void aPatchOfAnythingElse_changesNothing() {
    create("");
    String rv = stored().at("/metadata/resourceVersion").asText();
    ApiResponse r = send("PATCH", SUBRESOURCE, MERGE,
        "{\"metadata\":{\"labels\":{\"app\":\"x\"}},\"spec\":{\"activeDeadlineSeconds\":5}}");
    assertThat(r.code()).isEqualTo(200);
    assertThat(stored().at("/metadata/resourceVersion").asText()).isEqualTo(rv);
    assertThat(stored().at("/metadata/labels/app").asText()).isEqualTo("web");
    assertThat(stored().at("/spec").has("activeDeadlineSeconds")).isFalse();
  }

  @Test
  void anExistingContainer_mayNotBeChanged() {
    create("");
    added("debugger");
    List<String> causes = refusedPut(pod -> ((ObjectNode) ephemeral(pod).get(0)).put("image", "busybox:1.37"));
    assertThat(causes).hasSize(1);
    assertThat(causes.get(0)).startsWith("spec.ephemeralContainers: Forbidden: existing ephemeral containers "
        + "\"debugger\" may not be changed\n  core.EphemeralContainer{\n")
        .contains("- \tImage: \"busybox:1.36\"").contains("+ \tImage: \"busybox:1.37\"");
  }

  @Test
  void anExistingContainer_mayNotBeRemoved_norReplaced() {
    create("");
    added("debugger");
    assertThat(refusedPut(pod -> ephemeral(pod).removeAll())).containsExactly(
        "spec.ephemeralContainers: Forbidden: existing ephemeral containers \"debugger\" may not be removed\n");
    assertThat(refusedPut(pod -> ephemeral(pod).set(0, debugger("other")))).containsExactly(
        "spec.ephemeralContainers: Forbidden: existing ephemeral containers \"debugger\" may not be removed\n");
    // a merge patch replaces the list
    assertThat(causes(refusal("PATCH", SUBRESOURCE, MERGE,
        "{\"spec\":{\"ephemeralContainers\":[{\"name\":\"new\",\"image\":\"busybox\"}]}}"))).containsExactly(
        "spec.ephemeralContainers: Forbidden: existing ephemeral containers \"debugger\" may not be removed\n");
  }

  @Test
  void theOrder_mayChange_andMoreMayBeAdded() {
    create("");
    added("a");
    added("b");
    ApiResponse r = put(pod -> {
      ArrayNode list = ephemeral(pod);
      JsonNode first = list.remove(0);
      list.add(first);
      list.add(debugger("c2"));
    });
    assertThat(r.code()).isEqualTo(200);
    assertThat(stored().at("/spec/ephemeralContainers").findValuesAsText("name")).containsExactly("b", "a", "c2");
  }

  static List<Arguments> badContainers() {
    return List.of(
        Arguments.of("{\"name\":\"c\",\"image\":\"busybox\"}", List.of(
            "spec.ephemeralContainers[0].name: Duplicate value: \"c\"")),
        Arguments.of("{\"name\":\"d\",\"image\":\"busybox\",\"targetContainerName\":\"nope\"}", List.of(
            "spec.ephemeralContainers[0].targetContainerName: Not found: \"nope\"")),
        Arguments.of("{\"name\":\"d\"}", List.of("spec.ephemeralContainers[0].image: Required value")),
        Arguments.of("{\"name\":\"D_1\",\"image\":\"busybox\"}", List.of(
            "spec.ephemeralContainers[0].name: Invalid value: \"D_1\": a lowercase RFC 1123 label must consist of "
                + "lower case alphanumeric characters or '-', and must start and end with an alphanumeric character "
                + "(e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')")),
        Arguments.of("{\"name\":\"d\",\"image\":\"busybox\",\"ports\":[{\"containerPort\":80}],"
            + "\"resources\":{\"limits\":{\"cpu\":\"1\"}},\"lifecycle\":{}}", List.of(
            "spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container",
            "spec.ephemeralContainers[0].resources: Forbidden: cannot be set for an Ephemeral Container",
            "spec.ephemeralContainers[0].lifecycle: Forbidden: cannot be set for an Ephemeral Container")),
        Arguments.of("{\"name\":\"d\",\"image\":\"busybox\",\"volumeMounts\":[{\"name\":\"v\",\"mountPath\":\"/v\","
            + "\"subPath\":\"x\"}]}", List.of(
            "spec.ephemeralContainers[0].volumeMounts[0].name: Not found: \"v\"",
            "spec.ephemeralContainers[0].volumeMounts[0].subPath: Forbidden: cannot be set for an Ephemeral Container")));
  }

  @ParameterizedTest
  @MethodSource("badContainers")
  void aNewContainer_isValidated_asAPodsEphemeralContainers(String container, List<String> expected) {
    create("");
    String rv = stored().at("/metadata/resourceVersion").asText();
    StatusException e = refusal("PATCH", SUBRESOURCE, STRATEGIC,
        "{\"spec\":{\"ephemeralContainers\":[" + container + "]}}");
    assertThat(causes(e)).containsExactlyElementsOf(expected);
    assertThat(e.getMessage()).startsWith("Pod \"p\" is invalid: ");
    assertThat(stored().at("/metadata/resourceVersion").asText()).isEqualTo(rv);
  }

  @Test
  void aStaticPodsMirror_takesNone() {
    ApiResponse r = core.send("POST", PODS, Map.of(), "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{"
        + "\"name\":\"p\",\"annotations\":{\"kubernetes.io/config.mirror\":\"x\"}},\"spec\":{\"nodeName\":\"n1\","
        + "\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}");
    assertThat(r.code()).isEqualTo(201);
    StatusException e = refusal("PATCH", SUBRESOURCE, STRATEGIC,
        "{\"spec\":{\"ephemeralContainers\":[{\"name\":\"d\",\"image\":\"busybox\"}]}}");
    assertThat(causes(e)).containsExactly(": Forbidden: static pods do not support ephemeral containers");
  }

  @Test
  void theMainResource_mayNotAddOrRemoveThem() {
    create("");
    ObjectNode pod = stored();
    ephemeral(pod).add(debugger("debugger"));
    assertThat(causes(core.refusal("PUT", PODS + "/p", Map.of(), pod.toString())))
        .singleElement().asString()
        .startsWith("spec: Forbidden: pod updates may not change fields other than ")
        .contains("+ \tEphemeralContainers: ");
    added("debugger");
    assertThat(causes(refusal("PATCH", PODS + "/p", MERGE, "{\"spec\":{\"ephemeralContainers\":null}}")))
        .singleElement().asString()
        .startsWith("spec: Forbidden: pod updates may not change fields other than ")
        .contains("- \tEphemeralContainers: ");
  }

  @Test
  void aCreate_mayNotSetThem() {
    StatusException e = core.refusal("POST", PODS, Map.of(), "{\"apiVersion\":\"v1\",\"kind\":\"Pod\","
        + "\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}],"
        + "\"ephemeralContainers\":[{\"name\":\"d\",\"image\":\"busybox\"}]}}");
    assertThat(causes(e)).containsExactly("spec.ephemeralContainers: Forbidden: cannot be set on create");
  }

  @Test
  void otherVerbs_andMissingPods_areRefusedAsKube() {
    assertThat(core.refusal("PUT", SUBRESOURCE, Map.of(), POD.formatted("")).code()).isEqualTo(404);
    create("");
    assertThat(core.refusal("DELETE", SUBRESOURCE, Map.of(), null).code()).isEqualTo(405);
    assertThat(core.refusal("POST", SUBRESOURCE, Map.of(), POD.formatted("")).code()).isEqualTo(405);
    assertThat(core.refusal("GET", PODS + "/p/nothing", Map.of(), null).code()).isEqualTo(404);
    assertThat(core.refusal("GET", "/api/v1/namespaces/default/configmaps/c/ephemeralcontainers", Map.of(), null)
        .code()).isEqualTo(404);
  }

  @Test
  void aDryRun_storesNothing() {
    create("");
    String rv = stored().at("/metadata/resourceVersion").asText();
    ObjectNode pod = stored();
    ephemeral(pod).add(debugger("debugger"));
    ApiResponse r = core.send("PUT", SUBRESOURCE, Map.of("dryRun", List.of("All")), pod.toString());
    assertThat(r.code()).isEqualTo(200);
    assertThat(body(r).at("/spec/ephemeralContainers/0/name").asText()).isEqualTo("debugger");
    assertThat(stored().at("/metadata/resourceVersion").asText()).isEqualTo(rv);
    assertThat(stored().at("/spec").has("ephemeralContainers")).isFalse();
  }

  @Test
  void theWrite_isRecordedInManagedFields_underTheSubresource() {
    create("");
    ObjectNode pod = stored();
    ephemeral(pod).add(debugger("debugger"));
    ApiResponse r = core.send("PUT", SUBRESOURCE, Map.of("fieldManager", List.of("kubectl-debug")), pod.toString());
    JsonNode entry = null;
    for (JsonNode e : body(r).at("/metadata/managedFields")) {
      if (e.path("manager").asText().equals("kubectl-debug")) {
        entry = e;
      }
    }
    assertThat(entry).isNotNull();
    assertThat(entry.path("subresource").asText()).isEqualTo("ephemeralcontainers");
    assertThat(entry.path("operation").asText()).isEqualTo("Update");
    assertThat(entry.at("/fieldsV1/f:spec").fieldNames()).toIterable().containsExactly("f:ephemeralContainers");
  }
}
