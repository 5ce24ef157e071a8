package io.listwatch.server.http;

import static io.listwatch.server.http.KubeHttp.assertFailureStatus;
import static io.listwatch.server.http.KubeHttp.object;
import static io.listwatch.server.http.KubeHttp.rv;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * PATCH with each patch type over HTTP: JSON Patch (RFC 6902), strategic merge for built-in
 * kinds, and the answers to patches that cannot apply (after which the object is unchanged).
 */
@ExtendWith(ApiServerExtension.class)
class PatchTypesTest {

  private static final String JSON_PATCH = "application/json-patch+json";
  private static final String STRATEGIC = "application/strategic-merge-patch+json";

  private static KubeHttp http;

  @BeforeAll
  static void connect(ApiServer server) {
    http = new KubeHttp(server);
  }

  @AfterAll
  static void disconnect() {
    http.close();
  }

  private static KubeHttp.Response patch(String path, String type, String body) {
    return http.send("PATCH", path, type, body.replace('\'', '"').getBytes(StandardCharsets.UTF_8));
  }

  private static String cm(String ns, String name) {
    return "/api/v1/namespaces/" + ns + "/configmaps/" + name;
  }

  private static String twoContainerDeployment(String ns) {
    http.create("/apis/apps/v1/namespaces/" + ns + "/deployments", object("""
        {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
         "spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},
                 "template":{"metadata":{"labels":{"app":"web"}},
                             "spec":{"containers":[{"name":"app","image":"nginx:1.26","env":[{"name":"A","value":"1"}]},
                                                   {"name":"sidecar","image":"busybox:1.36"}]}}}}"""));
    return "/apis/apps/v1/namespaces/" + ns + "/deployments/web";
  }

  @Test
  void theAnswerToEachKindOfUpdate_isWhatAGetAnswersNext_byteForByte() {
    String ns = http.createNamespace("answers");
    http.create("/api/v1/namespaces/" + ns + "/configmaps", object("""
        {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"},"data":{"a":"1"}}"""));
    String path = cm(ns, "cm");
    java.util.List<java.util.function.Supplier<KubeHttp.Response>> writes = java.util.List.of(
        () -> patch(path, "application/merge-patch+json", "{'metadata':{'labels':{'step':'merge'}}}"),
        () -> patch(path, STRATEGIC, "{'data':{'b':'2'}}"),
        () -> patch(path, JSON_PATCH, "[{'op':'add','path':'/metadata/labels/step','value':'json'}]"),
        () -> patch(path + "?fieldManager=test", "application/apply-patch+yaml",
            "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'cm'},'data':{'c':'3'}}"),
        () -> http.send("PUT", path, "application/json", http.get(path).expect(200).toString()
            .replace("\"a\":\"1\"", "\"a\":\"put\"").getBytes(StandardCharsets.UTF_8)));

    for (java.util.function.Supplier<KubeHttp.Response> write : writes) {
      KubeHttp.Response answer = write.get();
      assertThat(answer.code()).as(answer.body()).isEqualTo(200);
      assertThat(answer.body()).isEqualTo(http.send("GET", path, null, null).body());
    }
    assertThat(http.get(path).expect(200).get("data"))
        .isEqualTo(object("{\"a\":\"put\",\"b\":\"2\",\"c\":\"3\"}"));
  }

  @Test
  void jsonPatch_appliesTestMoveCopyAndEscapedPointers() {
    String ns = http.createNamespace("jsonpatch");
    http.create("/api/v1/namespaces/" + ns + "/configmaps", object("""
        {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","labels":{"app.kubernetes.io/name":"web"}},
         "data":{"a":"1","b":"2"}}"""));

    JsonNode patched = patch(cm(ns, "cm"), JSON_PATCH, """
        [{'op':'test','path':'/data/a','value':'1'},
         {'op':'move','from':'/data/a','path':'/data/moved'},
         {'op':'copy','from':'/data/b','path':'/data/copied'},
         {'op':'remove','path':'/metadata/labels/app.kubernetes.io~1name'},
         {'op':'add','path':'/metadata/labels/tier','value':'front'}]""").expect(200);

    assertThat(patched.get("data")).isEqualTo(object("{\"b\":\"2\",\"moved\":\"1\",\"copied\":\"2\"}"));
    assertThat(patched.at("/metadata/labels")).isEqualTo(object("{\"tier\":\"front\"}"));
    assertThat(http.get(cm(ns, "cm")).expect(200).get("data")).isEqualTo(patched.get("data"));
  }

  @Test
  void jsonPatch_withAFailedTest_is422Invalid_andStoresNothing() {
    String ns = http.createNamespace("jsonpatch-test");
    JsonNode created = http.create("/api/v1/namespaces/" + ns + "/configmaps", KubeHttp.configMap("cm"));

    JsonNode status = assertFailureStatus(patch(cm(ns, "cm"), JSON_PATCH, """
        [{'op':'replace','path':'/data/k','value':'changed'},{'op':'test','path':'/data/k','value':'v'}]"""),
        422, "Invalid");

    assertThat(status.at("/details/causes/0/message").asText()).isEqualTo("testing value /data/k failed: test failed");
    assertFailureStatus(patch(cm(ns, "cm"), JSON_PATCH, "[{'op':'remove','path':'/data/missing'}]"), 422, "Invalid");
    assertFailureStatus(patch(cm(ns, "cm"), JSON_PATCH, "{'op':'remove'}"), 400, "BadRequest");
    assertThat(rv(http.get(cm(ns, "cm")).expect(200))).isEqualTo(rv(created));
  }

  @Test
  void jsonPatch_thatSetsAStaleResourceVersion_is409Conflict() {
    String ns = http.createNamespace("jsonpatch-rv");
    JsonNode created = http.create("/api/v1/namespaces/" + ns + "/configmaps", KubeHttp.configMap("cm"));
    patch(cm(ns, "cm"), JSON_PATCH, "[{'op':'add','path':'/data/x','value':'1'}]").expect(200);

    assertFailureStatus(patch(cm(ns, "cm"), JSON_PATCH, "[{'op':'replace','path':'/metadata/resourceVersion','value':'"
        + rv(created) + "'},{'op':'add','path':'/data/y','value':'2'}]"), 409, "Conflict");
    assertThat(http.get(cm(ns, "cm")).expect(200).at("/data/y").isMissingNode()).isTrue();
  }

  @Test
  void strategicMerge_changesOneContainersImage_andKeepsTheOtherContainer() {
    String ns = http.createNamespace("smp");
    String web = twoContainerDeployment(ns);

    JsonNode patched = patch(web, STRATEGIC,
        "{'spec':{'template':{'spec':{'containers':[{'name':'app','image':'nginx:1.27'}]}}}}").expect(200);

    JsonNode containers = patched.at("/spec/template/spec/containers");
    assertThat(containers).hasSize(2);
    assertThat(containers.get(0).get("image").asText()).isEqualTo("nginx:1.27");
    assertThat(containers.get(0).at("/env/0/name").asText()).as("fields the patch left alone").isEqualTo("A");
    assertThat(containers.get(1).get("name").asText()).isEqualTo("sidecar");
    assertThat(patched.at("/metadata/generation").asLong()).as("spec changed").isEqualTo(2);
  }

  @Test
  void strategicMerge_directives_deleteAnElementAndRetainKeys() {
    String ns = http.createNamespace("smp-directives");
    String web = twoContainerDeployment(ns);

    JsonNode patched = patch(web, STRATEGIC, """
        {'spec':{'strategy':{'$retainKeys':['type'],'type':'Recreate'},
                 'template':{'spec':{'containers':[{'name':'sidecar','$patch':'delete'}]}}}}""").expect(200);

    assertThat(patched.at("/spec/template/spec/containers")).hasSize(1);
    assertThat(patched.at("/spec/strategy")).isEqualTo(object("{\"type\":\"Recreate\"}"));
  }

  @Test
  void strategicMerge_thatCannotApply_is400_andStoresNothing() {
    String ns = http.createNamespace("smp-bad");
    String web = twoContainerDeployment(ns);
    long before = rv(http.get(web).expect(200));

    JsonNode status = assertFailureStatus(patch(web, STRATEGIC,
        "{'spec':{'template':{'spec':{'containers':[{'image':'nginx'}]}}}}"), 400, "BadRequest");

    assertThat(status.path("message").asText()).isEqualTo("map: map[image:nginx] does not contain declared merge key: name");
    assertFailureStatus(patch(web, STRATEGIC, "[]"), 400, "BadRequest");
    assertThat(rv(http.get(web).expect(200))).isEqualTo(before);
  }

  @Test
  void strategicMerge_withAStaleResourceVersion_is409_andDryRunStoresNothing() {
    String ns = http.createNamespace("smp-rv");
    JsonNode created = http.create("/api/v1/namespaces/" + ns + "/configmaps", KubeHttp.configMap("cm"));
    patch(cm(ns, "cm"), STRATEGIC, "{'data':{'x':'1'}}").expect(200);

    assertFailureStatus(patch(cm(ns, "cm"), STRATEGIC, "{'metadata':{'resourceVersion':'" + rv(created)
        + "'},'data':{'y':'2'}}"), 409, "Conflict");
    JsonNode dry = patch(cm(ns, "cm") + "?dryRun=All", STRATEGIC, "{'data':{'z':'3'}}").expect(200);
    assertThat(dry.at("/data/z").asText()).isEqualTo("3");
    assertThat(http.get(cm(ns, "cm")).expect(200).get("data"))
        .isEqualTo(object("{\"k\":\"v\",\"x\":\"1\"}"));
  }

  @Test
  void strategicMerge_onStatus_mergesConditionsByType_andIgnoresTheSpec() {
    String ns = http.createNamespace("smp-status");
    http.create("/api/v1/namespaces/" + ns + "/pods", KubeHttp.pod("web", java.util.Map.of(), "node-1"));
    String status = "/api/v1/namespaces/" + ns + "/pods/web/status";

    patch(status, STRATEGIC, "{'status':{'conditions':[{'type':'PodScheduled','status':'True'}]}}").expect(200);
    JsonNode patched = patch(status, STRATEGIC, """
        {'spec':{'nodeName':'elsewhere'},
         'status':{'conditions':[{'type':'Ready','status':'True'},{'type':'PodScheduled','status':'True','reason':'Bound'}]}}""")
        .expect(200);

    assertThat(patched.at("/status/conditions").valueStream().map(c -> c.get("type").asText()))
        .containsExactlyInAnyOrder("PodScheduled", "Ready");
    assertThat(patched.at("/status/conditions").valueStream()
        .filter(c -> c.get("type").asText().equals("PodScheduled")).findFirst().orElseThrow().path("reason").asText())
        .isEqualTo("Bound");
    assertThat(patched.at("/spec/nodeName").asText()).as("/status ignores the spec").isEqualTo("node-1");
  }

  @Test
  void unsupportedPatchType_is415_listingThePatchTypes() {
    String ns = http.createNamespace("patch-415");
    http.create("/api/v1/namespaces/" + ns + "/configmaps", KubeHttp.configMap("cm"));

    JsonNode status = assertFailureStatus(patch(cm(ns, "cm"), "application/apply-patch+cbor", "{}"), 415,
        "UnsupportedMediaType");

    assertThat(status.path("message").asText()).isEqualTo("the body of the request was in an unknown format - "
        + "accepted media types include: application/json-patch+json, application/merge-patch+json, "
        + "application/strategic-merge-patch+json, application/apply-patch+yaml");
  }

  @Test
  void applyPatch_createsThenMerges_recordingTheManagersFields_andConflictsWithAnotherManager() {
    String ns = http.createNamespace("patch-apply");
    String path = cm(ns, "settings");
    String yaml = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: one\n";

    KubeHttp.Response created = patch(path + "?fieldManager=alice", "application/apply-patch+yaml", yaml);
    JsonNode applied = patch(path + "?fieldManager=alice", "application/apply-patch+yaml",
        yaml + "  b: two\n").expect(200);
    KubeHttp.Response conflict = patch(path + "?fieldManager=bob", "application/apply-patch+yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: other\n");
    JsonNode forced = patch(path + "?fieldManager=bob&force=true", "application/apply-patch+yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: other\n").expect(200);

    assertThat(created.code()).isEqualTo(201);
    assertThat(applied.path("data").toString()).isEqualTo("{\"a\":\"one\",\"b\":\"two\"}");
    JsonNode entry = applied.at("/metadata/managedFields/0");
    assertThat(entry.path("manager").asText()).isEqualTo("alice");
    assertThat(entry.path("operation").asText()).isEqualTo("Apply");
    assertThat(entry.path("fieldsType").asText()).isEqualTo("FieldsV1");
    assertThat(entry.path("fieldsV1").toString()).isEqualTo("{\"f:data\":{\"f:a\":{},\"f:b\":{}}}");
    JsonNode status = assertFailureStatus(conflict, 409, "Conflict");
    assertThat(status.path("message").asText())
        .isEqualTo("Apply failed with 1 conflict: conflict with \"alice\": .data.a");
    assertThat(forced.at("/data/a").asText()).isEqualTo("other");
    assertThat(forced.at("/data/b").asText()).as("alice still owns b").isEqualTo("two");
  }

  @Test
  void applyPatch_withoutAFieldManager_is422_onPatchOptions_andChangesNothing() {
    String ns = http.createNamespace("patch-apply-422");
    http.create("/api/v1/namespaces/" + ns + "/configmaps", KubeHttp.configMap("cm"));

    JsonNode status = assertFailureStatus(patch(cm(ns, "cm"), "application/apply-patch+yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  a: b\n"), 422, "Invalid");

    assertThat(status.path("message").asText())
        .isEqualTo("PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch");
    assertThat(http.get(cm(ns, "cm")).expect(200).path("data").toString()).isEqualTo("{\"k\":\"v\"}");
  }

  @Test
  void applyPatch_thatWouldCreateAnObjectWithAnUnknownField_isRefusedUnderStrict_andCreatesNothing() {
    String ns = http.createNamespace("patch-apply-strict");
    String path = cm(ns, "strict");

    JsonNode status = assertFailureStatus(patch(path + "?fieldManager=alice&fieldValidation=Strict",
        "application/apply-patch+yaml",
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: strict\ncolour: red\ndata:\n  a: b\n"), 400, "BadRequest");

    assertThat(status.path("message").asText()).contains("unknown field \"colour\"");
    assertThat(http.get(path).code()).isEqualTo(404);
  }
}
