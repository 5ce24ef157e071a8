package io.listwatch.apiserver.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.entry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.ApiResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The PodSecurity plug-in through the core, as a client meets it: namespaces labelled with a
 * level, pods refused with kube's message, warnings as {@code Warning} headers.
 */
class PodSecurityTest {

  private static final String RESTRICTED_POD = """
      {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s"},"spec":{
       "securityContext":{"runAsNonRoot":true,"seccompProfile":{"type":"RuntimeDefault"}},
       "containers":[{"name":"c","image":"nginx","securityContext":{"allowPrivilegeEscalation":false,
       "capabilities":{"drop":["ALL"]}%s}}]}}""";

  private static final String ENFORCE = "pod-security.kubernetes.io/enforce";

  private final InMemoryCore core = InMemoryCore.start();

  @AfterEach
  void stop() {
    core.close();
  }

  private void namespace(String name, String labels) {
    core.send("POST", "/api/v1/namespaces", Map.of(),
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + name + "\",\"labels\":{" + labels
            + "}}}");
  }

  private static String pod(String name, String spec) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\"},\"spec\":" + spec + "}";
  }

  /** PUTs the object at {@code path} with {@code change} made to it. */
  private ApiResponse update(String path, java.util.function.Consumer<ObjectNode> change) {
    ObjectNode obj = InMemoryCore.json(new String(core.send("GET", path, Map.of(), null).jsonParts().orElseThrow()[0],
        java.nio.charset.StandardCharsets.UTF_8));
    change.accept(obj);
    return core.send("PUT", path, Map.of(), obj.toString());
  }

  /**
   * Waits until the watch caches the plug-in reads (namespaces, pods) hold every write so far: a
   * list without a resourceVersion is a consistent read, served once the cache caught up.
   */
  private void sync() {
    core.send("GET", "/api/v1/namespaces", Map.of(), null);
    core.send("GET", "/api/v1/pods", Map.of(), null);
  }

  private static void label(ObjectNode obj, String key, String value) {
    obj.with("metadata").with("labels").put(key, value);
  }

  private static List<String> warnings(ApiResponse r) {
    return r.headers().getOrDefault("Warning", List.of());
  }

  @Test
  void enforceRestricted_refusesAPrivilegedPod_withKubesMessage() {
    namespace("r", "\"pod-security.kubernetes.io/enforce\":\"restricted\"");
    StatusException e = core.refusal("POST", "/api/v1/namespaces/r/pods", Map.of(),
        pod("p", "{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\",\"securityContext\":{\"privileged\":true}}]}"));
    assertThat(e.code()).isEqualTo(403);
    assertThat(e.status().reason()).isEqualTo("Forbidden");
    assertThat(e.getMessage()).isEqualTo("pods \"p\" is forbidden: violates PodSecurity \"restricted:latest\": "
        + "privileged (container \"c\" must not set securityContext.privileged=true), "
        + "allowPrivilegeEscalation != false (container \"c\" must set securityContext.allowPrivilegeEscalation=false), "
        + "unrestricted capabilities (container \"c\" must set securityContext.capabilities.drop=[\"ALL\"]), "
        + "runAsNonRoot != true (pod or container \"c\" must set securityContext.runAsNonRoot=true), "
        + "seccompProfile (pod or container \"c\" must set securityContext.seccompProfile.type to \"RuntimeDefault\" "
        + "or \"Localhost\")");
    assertThat(core.refusal("GET", "/api/v1/namespaces/r/pods/p", Map.of(), null).code()).isEqualTo(404);
  }

  @Test
  void enforceRestricted_admitsAPodThatFollowsIt_andDryRunsAreChecked() {
    namespace("r", "\"pod-security.kubernetes.io/enforce\":\"restricted\"");
    assertThat(core.send("POST", "/api/v1/namespaces/r/pods", Map.of(), RESTRICTED_POD.formatted("ok", "")).code())
        .isEqualTo(201);
    StatusException dryRun = core.refusal("POST", "/api/v1/namespaces/r/pods", Map.of("dryRun", List.of("All")),
        RESTRICTED_POD.formatted("root", ",\"runAsUser\":0"));
    assertThat(dryRun.getMessage()).isEqualTo("pods \"root\" is forbidden: violates PodSecurity \"restricted:latest\": "
        + "runAsUser=0 (container \"c\" must not set runAsUser=0)");
  }

  @Test
  void aPinnedVersion_checksWhatThatVersionChecked() {
    // runAsUser=0 is refused from v1.23 on
    namespace("old", "\"pod-security.kubernetes.io/enforce\":\"restricted\","
        + "\"pod-security.kubernetes.io/enforce-version\":\"v1.22\"");
    assertThat(core.send("POST", "/api/v1/namespaces/old/pods", Map.of(),
        RESTRICTED_POD.formatted("root", ",\"runAsUser\":0")).code()).isEqualTo(201);
  }

  @Test
  void warn_admitsThePod_withKubesWarning() {
    namespace("w", "\"pod-security.kubernetes.io/warn\":\"baseline\"");
    ApiResponse r = core.send("POST", "/api/v1/namespaces/w/pods", Map.of(),
        pod("p", "{\"hostNetwork\":true,\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}"));
    assertThat(r.code()).isEqualTo(201);
    assertThat(warnings(r)).containsExactly(
        "299 - \"would violate PodSecurity \\\"baseline:latest\\\": host namespaces (hostNetwork=true)\"");
  }

  @Test
  void audit_admitsThePod_andNotesWhatViolatesItForTheAuditEvent() {
    namespace("a", "\"pod-security.kubernetes.io/audit\":\"baseline\"");
    ApiRequest create = InMemoryCore.request("POST", "/api/v1/namespaces/a/pods", Map.of(),
        pod("p", "{\"hostNetwork\":true,\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}"));
    ApiResponse r = core.send(create);
    assertThat(r.code()).isEqualTo(201);
    assertThat(warnings(r)).isEmpty();
    assertThat(create.auditAnnotations().map()).containsExactly(
        entry("pod-security.kubernetes.io/audit-violations",
            "would violate PodSecurity \"baseline:latest\": host namespaces (hostNetwork=true)"),
        entry("pod-security.kubernetes.io/enforce-policy", "privileged:latest"));

    ApiRequest workload = InMemoryCore.request("POST", "/apis/apps/v1/namespaces/a/deployments", Map.of(), """
        {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{
         "selector":{"matchLabels":{"app":"d"}},"template":{"metadata":{"labels":{"app":"d"}},
         "spec":{"hostPID":true,"containers":[{"name":"nginx","image":"nginx"}]}}}}""");
    assertThat(core.send(workload).code()).isEqualTo(201);
    assertThat(workload.auditAnnotations().map()).containsExactly(
        entry("pod-security.kubernetes.io/audit-violations",
            "would violate PodSecurity \"baseline:latest\": host namespaces (hostPID=true)"));
  }

  @Test
  void aRefusedPod_notesTheEnforcedPolicy_andAnUnlabelledNamespaceNotesPrivileged() {
    namespace("e", "\"pod-security.kubernetes.io/enforce\":\"baseline\"");
    ApiRequest refused = InMemoryCore.request("POST", "/api/v1/namespaces/e/pods", Map.of(),
        pod("p", "{\"hostIPC\":true,\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}"));
    assertThat(catchThrowableOfType(java.util.concurrent.CompletionException.class, () -> core.send(refused))
        .getCause()).isInstanceOf(StatusException.class);
    assertThat(refused.auditAnnotations().map())
        .containsExactly(entry("pod-security.kubernetes.io/enforce-policy", "baseline:latest"));

    ApiRequest free = InMemoryCore.request("POST", "/api/v1/namespaces/default/pods", Map.of(),
        pod("p", "{\"hostIPC\":true,\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}"));
    assertThat(core.send(free).code()).isEqualTo(201);
    assertThat(free.auditAnnotations().map())
        .containsExactly(entry("pod-security.kubernetes.io/enforce-policy", "privileged:latest"));
  }

  @Test
  void aRefusedPod_getsNoWarning_andAnUnlabelledNamespaceAllowsEverything() {
    namespace("both", "\"pod-security.kubernetes.io/enforce\":\"baseline\","
        + "\"pod-security.kubernetes.io/warn\":\"restricted\"");
    StatusException e = core.refusal("POST", "/api/v1/namespaces/both/pods", Map.of(),
        pod("p", "{\"hostPID\":true,\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}"));
    assertThat(e.getMessage()).isEqualTo(
        "pods \"p\" is forbidden: violates PodSecurity \"baseline:latest\": host namespaces (hostPID=true)");
    ApiResponse free = core.send("POST", "/api/v1/namespaces/default/pods", Map.of(),
        pod("p", "{\"hostPID\":true,\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}"));
    assertThat(free.code()).isEqualTo(201);
    assertThat(warnings(free)).isEmpty();
  }

  @Test
  void workloads_areNeverRefused_onlyWarnedAbout() {
    namespace("r", "\"pod-security.kubernetes.io/enforce\":\"restricted\","
        + "\"pod-security.kubernetes.io/warn\":\"restricted\"");
    ApiResponse r = core.send("POST", "/apis/apps/v1/namespaces/r/deployments", Map.of(), """
        {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{
         "selector":{"matchLabels":{"app":"d"}},"template":{"metadata":{"labels":{"app":"d"}},
         "spec":{"containers":[{"name":"nginx","image":"nginx"}]}}}}""");
    assertThat(r.code()).isEqualTo(201);
    assertThat(warnings(r)).containsExactly("299 - \"would violate PodSecurity \\\"restricted:latest\\\": "
        + "allowPrivilegeEscalation != false (container \\\"nginx\\\" must set "
        + "securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container \\\"nginx\\\" must set "
        + "securityContext.capabilities.drop=[\\\"ALL\\\"]), runAsNonRoot != true (pod or container \\\"nginx\\\" "
        + "must set securityContext.runAsNonRoot=true), seccompProfile (pod or container \\\"nginx\\\" must set "
        + "securityContext.seccompProfile.type to \\\"RuntimeDefault\\\" or \\\"Localhost\\\")\"");
  }

  @Test
  void aNamespaceLabelThatNamesNoLevel_isRefused() {
    StatusException e = core.refusal("POST", "/api/v1/namespaces", Map.of(), """
        {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"bad","labels":{
         "pod-security.kubernetes.io/enforce":"strict","pod-security.kubernetes.io/warn-version":"1.25"}}}""");
    assertThat(e.code()).isEqualTo(422);
    assertThat(e.getMessage()).isEqualTo("Namespace \"bad\" is invalid: ["
        + "metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: \"strict\": must be one of privileged, "
        + "baseline, restricted, metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: \"1.25\": "
        + "must be \"latest\" or \"v1.x\"]");
  }

  @Test
  void raisingTheEnforceLevel_warnsOfThePodsThatViolateIt() {
    namespace("n", "");
    for (String name : List.of("b", "a")) {
      core.send("POST", "/api/v1/namespaces/n/pods", Map.of(),
          pod(name, "{\"hostNetwork\":true,\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}"));
    }
    core.send("POST", "/api/v1/namespaces/n/pods", Map.of(),
        pod("c", "{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\",\"securityContext\":{\"privileged\":true}}]}"));
    sync();
    ApiResponse r = update("/api/v1/namespaces/n", ns -> label(ns, ENFORCE, "baseline"));
    assertThat(r.code()).isEqualTo(200);
    assertThat(warnings(r)).containsExactly(
        "299 - \"existing pods in namespace \\\"n\\\" violate the new PodSecurity enforce level \\\"baseline:latest\\\"\"",
        "299 - \"a (and 1 other pod): host namespaces\"",
        "299 - \"c: privileged\"");
    // relaxing it again warns of nothing
    ApiResponse relaxed = update("/api/v1/namespaces/n", ns -> label(ns, ENFORCE, "privileged"));
    assertThat(warnings(relaxed)).isEmpty();
  }

  @Test
  void updatingAPodsMetadata_isNotCheckedAgain() {
    namespace("n", "");
    core.send("POST", "/api/v1/namespaces/n/pods", Map.of(),
        pod("p", "{\"hostIPC\":true,\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}"));
    update("/api/v1/namespaces/n", ns -> label(ns, ENFORCE, "baseline"));
    sync();
    assertThat(update("/api/v1/namespaces/n/pods/p", p -> label(p, "x", "y")).code()).isEqualTo(200);
    Throwable image = catchThrowableOfType(java.util.concurrent.CompletionException.class,
        () -> update("/api/v1/namespaces/n/pods/p", p -> ((ObjectNode) p.at("/spec/containers/0")).put("image",
            "nginx:2"))).getCause();
    assertThat(image.getMessage()).isEqualTo(
        "pods \"p\" is forbidden: violates PodSecurity \"baseline:latest\": host namespaces (hostIPC=true)");
  }
}
