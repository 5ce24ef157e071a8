package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Status;
import io.kubernetes.client.util.PatchUtils;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.EndToEnd;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The official Java client's patches against the server, one test per patch type it offers
 * ({@code V1Patch.PATCH_FORMAT_*} through {@code PatchUtils}, which sends the matching
 * {@code Content-Type}): JSON Patch, JSON merge patch and strategic merge patch change what
 * they name and keep the rest; server-side apply merges the applied fields and records the
 * manager in {@code managedFields}.
 */
@EndToEnd
@ExtendWith(ApiServerExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JavaClientPatchTest {

  private static ApiClient client;
  private static CoreV1Api core;
  private static AppsV1Api apps;

  @BeforeAll
  static void setUp(ApiServer server) {
    client = JavaClientTest.newClient(server.url());
    core = new CoreV1Api(client);
    apps = new AppsV1Api(client);
  }

  /** A namespace {@code ns} holding {@link JavaClientTest#deployment the deployment} {@code web}. */
  private static void createDeployment(String ns) throws ApiException {
    JavaClientTest.createNamespace(core, ns);
    apps.createNamespacedDeployment(ns, JavaClientTest.deployment("web")).execute();
  }

  private static V1Deployment patchDeployment(String ns, String format, String patch) throws ApiException {
    return PatchUtils.patch(V1Deployment.class,
        () -> apps.patchNamespacedDeployment("web", ns, new V1Patch(patch)).buildCall(null), format, client);
  }

  private static V1Deployment readDeployment(String ns) throws ApiException {
    return apps.readNamespacedDeployment("web", ns).execute();
  }

  private static List<String> images(V1Deployment d) {
    return d.getSpec().getTemplate().getSpec().getContainers().stream().map(V1Container::getImage).toList();
  }

  @Test
  void jsonPatch_appliesEachOperation_inOrder() throws ApiException {
    createDeployment("jcp-json");

    V1Deployment patched = patchDeployment("jcp-json", V1Patch.PATCH_FORMAT_JSON_PATCH, """
        [{"op":"test","path":"/spec/replicas","value":1},
         {"op":"replace","path":"/spec/replicas","value":4},
         {"op":"add","path":"/metadata/labels/tier","value":"front"},
         {"op":"replace","path":"/spec/template/spec/containers/1/image","value":"busybox:1.37"},
         {"op":"copy","from":"/metadata/labels/tier","path":"/metadata/labels/role"}]""");

    assertThat(patched.getSpec().getReplicas()).isEqualTo(4);
    assertThat(patched.getMetadata().getLabels()).containsEntry("tier", "front").containsEntry("role", "front");
    assertThat(images(patched)).containsExactly("nginx:1.26", "busybox:1.37");
    V1Deployment stored = readDeployment("jcp-json");
    assertThat(stored.getSpec().getReplicas()).isEqualTo(4);
    assertThat(stored.getMetadata().getResourceVersion()).isEqualTo(patched.getMetadata().getResourceVersion());
  }

  @Test
  void jsonPatch_withAFailedTest_is422Invalid_andChangesNothing() throws ApiException {
    createDeployment("jcp-json-test");
    String before = readDeployment("jcp-json-test").getMetadata().getResourceVersion();

    ApiException e = catchThrowableOfType(ApiException.class, () -> patchDeployment("jcp-json-test",
        V1Patch.PATCH_FORMAT_JSON_PATCH, """
            [{"op":"replace","path":"/spec/replicas","value":5},
             {"op":"test","path":"/spec/replicas","value":1}]"""));

    assertThat(e.getCode()).isEqualTo(422);
    V1Status status = JavaClientTest.status(e);
    assertThat(status.getReason()).isEqualTo("Invalid");
    assertThat(status.getCode()).isEqualTo(422);
    V1Deployment stored = readDeployment("jcp-json-test");
    assertThat(stored.getSpec().getReplicas()).isEqualTo(1);
    assertThat(stored.getMetadata().getResourceVersion()).isEqualTo(before);
  }

  @Test
  void mergePatch_setsAndRemovesKeys_andReplacesListsWhole() throws ApiException {
    createDeployment("jcp-merge");

    V1Deployment patched = patchDeployment("jcp-merge", V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, """
        {"metadata":{"labels":{"app":null,"tier":"front"}},
         "spec":{"replicas":2,"template":{"spec":{"containers":[{"name":"app","image":"nginx:1.27"}]}}}}""");

    assertThat(patched.getMetadata().getLabels()).containsExactly(Map.entry("tier", "front"));
    assertThat(patched.getSpec().getReplicas()).isEqualTo(2);
    // a merge patch has no merge keys: the list it names replaces the stored one
    assertThat(images(patched)).containsExactly("nginx:1.27");
    assertThat(images(readDeployment("jcp-merge"))).containsExactly("nginx:1.27");
  }

  @Test
  void mergePatch_onAConfigMap_addsAndDeletesDataKeys() throws ApiException {
    String ns = "jcp-merge-cm";
    JavaClientTest.createNamespace(core, ns);
    core.createNamespacedConfigMap(ns, new V1ConfigMap().metadata(new V1ObjectMeta().name("settings"))
        .data(Map.of("mode", "prod", "level", "info"))).execute();

    V1ConfigMap patched = PatchUtils.patch(V1ConfigMap.class,
        () -> core.patchNamespacedConfigMap("settings", ns,
            new V1Patch("{\"data\":{\"level\":null,\"region\":\"eu\"}}")).buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);

    assertThat(patched.getData()).containsExactlyInAnyOrderEntriesOf(Map.of("mode", "prod", "region", "eu"));
    assertThat(core.readNamespacedConfigMap("settings", ns).execute().getData())
        .containsExactlyInAnyOrderEntriesOf(Map.of("mode", "prod", "region", "eu"));
  }

  @Test
  void strategicMergePatch_changesOneContainersImage_andKeepsTheOther() throws ApiException {
    createDeployment("jcp-smp");

    V1Deployment patched = patchDeployment("jcp-smp", V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH, """
        {"spec":{"template":{"spec":{"containers":[{"name":"app","image":"nginx:1.27",
          "env":[{"name":"MODE","value":"prod"}]}]}}}}""");

    assertThat(patched.getSpec().getTemplate().getSpec().getContainers())
        .extracting(V1Container::getName, V1Container::getImage)
        .containsExactly(tuple("app", "nginx:1.27"),
            tuple("sidecar", "busybox:1.36"));
    assertThat(patched.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv())
        .singleElement().satisfies(env -> assertThat(env.getValue()).isEqualTo("prod"));
    assertThat(images(readDeployment("jcp-smp"))).containsExactly("nginx:1.27", "busybox:1.36");
  }

  @Test
  void strategicMergePatch_deleteDirective_removesOneContainer() throws ApiException {
    createDeployment("jcp-smp-delete");

    V1Deployment patched = patchDeployment("jcp-smp-delete", V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH, """
        {"spec":{"template":{"spec":{"containers":[{"name":"sidecar","$patch":"delete"}]}}}}""");

    assertThat(patched.getSpec().getTemplate().getSpec().getContainers())
        .extracting(V1Container::getName).containsExactly("app");
  }

  @Test
  void strategicMergePatch_onAPod_mergesLabels_andTheContainerByName() throws ApiException {
    String ns = "jcp-smp-pod";
    JavaClientTest.createNamespace(core, ns);
    core.createNamespacedPod(ns, JavaClientTest.pod("web", Map.of("app", "web"), "node-1")).execute();

    V1Pod patched = PatchUtils.patch(V1Pod.class,
        () -> core.patchNamespacedPod("web", ns, new V1Patch("""
            {"metadata":{"labels":{"tier":"front"}},
             "spec":{"containers":[{"name":"main","image":"nginx:1.28"}]}}""")).buildCall(null),
        V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH, client);

    assertThat(patched.getMetadata().getLabels()).containsExactlyInAnyOrderEntriesOf(
        Map.of("app", "web", "tier", "front"));
    assertThat(patched.getSpec().getContainers()).singleElement()
        .satisfies(c -> assertThat(c.getImage()).isEqualTo("nginx:1.28"));
  }

  @Test
  void applyYaml_mergesTheAppliedFields_andRecordsTheManager() throws ApiException {
    createDeployment("jcp-apply");

    V1Deployment applied = PatchUtils.patch(V1Deployment.class,
        () -> apps.patchNamespacedDeployment("web", "jcp-apply", new V1Patch("""
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: web
            spec:
              replicas: 7
            """)).fieldManager("jcp").force(true).buildCall(null),
        V1Patch.PATCH_FORMAT_APPLY_YAML, client);

    assertThat(applied.getSpec().getReplicas()).isEqualTo(7);
    assertThat(applied.getSpec().getTemplate().getSpec().getContainers()).as("the rest is kept").isNotEmpty();
    // the client's models leave managedFields out when they read an object: read the JSON itself
    try (okhttp3.Response raw = client.getHttpClient().newCall(new okhttp3.Request.Builder()
        .url(client.getBasePath() + "/apis/apps/v1/namespaces/jcp-apply/deployments/web").build()).execute()) {
      assertThat(raw.body().string()).contains("\"managedFields\":[{\"manager\":\"jcp\",\"operation\":\"Apply\","
          + "\"apiVersion\":\"apps/v1\"").contains("\"fieldsV1\":{\"f:spec\":{\"f:replicas\":{}}}");
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
    assertThat(readDeployment("jcp-apply").getSpec().getReplicas()).isEqualTo(7);
  }
}
