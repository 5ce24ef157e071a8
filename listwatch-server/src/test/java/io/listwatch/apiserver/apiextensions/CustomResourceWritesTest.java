package io.listwatch.apiserver.apiextensions;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.Await;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The write path of custom resources over HTTP against the in-process server: pruning,
 * defaults and validation by the version's schema on every kind of write, fieldValidation,
 * the status subresource, the generation, server-side apply, and definitions refused for a
 * non-structural schema. Expected messages are kube's.
 */
@ExtendWith(ApiServerExtension.class)
class CustomResourceWritesTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(15);
  private static final String CRONTABS = "/apis/stable.example.com/v1/namespaces/default/crontabs";
  private static final String WIDGETS = "/apis/stable.example.com/v1/namespaces/default/widgets";

  private static String base;
  private static HttpClient client;

  private record Response(int code, java.net.http.HttpHeaders headers, JsonNode json) {
    Response expect(int expected) {
      assertThat(code).as("HTTP status of %s", json).isEqualTo(expected);
      return this;
    }

    List<String> warnings() {
      return headers.allValues("warning");
    }
  }

  /** A CronTab: a status subresource, a default, a bounded integer, an embedded resource, a list map. */
  private static final String CRONTAB_CRD = """
      {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
       "metadata":{"name":"crontabs.stable.example.com"},
       "spec":{"group":"stable.example.com","scope":"Namespaced",
        "names":{"plural":"crontabs","kind":"CronTab"},
        "versions":[{"name":"v1","served":true,"storage":true,
         "subresources":{"status":{}},
         "schema":{"openAPIV3Schema":{"type":"object","properties":{
          "spec":{"type":"object","properties":{
            "cronSpec":{"type":"string","pattern":"^(\\\\d+|\\\\*)(/\\\\d+)?(\\\\s+(\\\\d+|\\\\*)(/\\\\d+)?){4}$"},
            "image":{"type":"string"},
            "replicas":{"type":"integer","minimum":1,"maximum":10,"default":1},
            "template":{"type":"object","x-kubernetes-embedded-resource":true,
              "x-kubernetes-preserve-unknown-fields":true},
            "ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
              "items":{"type":"object","required":["name"],"properties":{
                "name":{"type":"string"},"port":{"type":"integer"}}}},
            "extra":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}},
          "status":{"type":"object","properties":{"phase":{"type":"string","enum":["Running","Done"]}}}}}}}]}}
      """;

  /** A Widget: no status subresource. */
  private static final String WIDGET_CRD = """
      {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
       "metadata":{"name":"widgets.stable.example.com"},
       "spec":{"group":"stable.example.com","scope":"Namespaced",
        "names":{"plural":"widgets","kind":"Widget"},
        "versions":[{"name":"v1","served":true,"storage":true,
         "schema":{"openAPIV3Schema":{"type":"object","properties":{
          "spec":{"type":"object","properties":{"size":{"type":"integer"}}},
          "status":{"type":"object","properties":{"ready":{"type":"boolean"}}}}}}}]}}
      """;

  @BeforeAll
  static void defineCustomResources(ApiServer server) {
    base = server.url();
    client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(WAIT).build();
    send("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", "application/json", CRONTAB_CRD)
        .expect(201);
    send("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", "application/json", WIDGET_CRD)
        .expect(201);
    awaitServed(CRONTABS);
    awaitServed(WIDGETS);
  }

  private static void awaitServed(String path) {
    Await.until(path + " is served", WAIT, () -> get(path).code() == 200);
  }

  @AfterAll
  static void close() {
    client.close();
  }

  private static Response send(String method, String path, String contentType, String body) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(WAIT)
        .header("Accept", "application/json")
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body.replace('\'', '"'), StandardCharsets.UTF_8));
    if (contentType != null) {
      b.header("Content-Type", contentType);
    }
    try {
      HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
      return new Response(r.statusCode(), r.headers(), r.body().isEmpty() ? null : JSON.readTree(r.body()));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static Response get(String path) {
    return send("GET", path, null, null);
  }

  private static Response post(String path, String body) {
    return send("POST", path, "application/json", body);
  }

  private static Response put(String path, String body) {
    return send("PUT", path, "application/json", body);
  }

  private static Response mergePatch(String path, String body) {
    return send("PATCH", path, "application/merge-patch+json", body);
  }

  private static Response apply(String path, String manager, String yaml) {
    return send("PATCH", path + "?fieldManager=" + manager, "application/apply-patch+yaml", yaml);
  }

  private static String cronTab(String name, String spec) {
    return "{'apiVersion':'stable.example.com/v1','kind':'CronTab','metadata':{'name':'" + name + "'},'spec':"
        + spec + "}";
  }

  @Test
  void create_outOfRangeReplicas_is422WithKubesMessage_andNothingIsStored() {
    Response r = post(CRONTABS, cronTab("bad", "{'cronSpec':'* * * * */5','replicas':20}")).expect(422);

    assertThat(r.json().path("reason").asText()).isEqualTo("Invalid");
    assertThat(r.json().path("message").asText()).isEqualTo("CronTab.stable.example.com \"bad\" is invalid: "
        + "spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10");
    assertThat(r.json().at("/details/causes/0/field").asText()).isEqualTo("spec.replicas");
    assertThat(r.json().at("/details/causes/0/reason").asText()).isEqualTo("FieldValueInvalid");
    get(CRONTABS + "/bad").expect(404);
  }

  @Test
  void create_fillsInDefaults_andPrunesUnknownFields_withAWarning() {
    Response r = post(CRONTABS, cronTab("defaulted", "{'cronSpec':'* * * * */5','colour':'red',"
        + "'extra':{'anything':{'goes':1}}}").replace("'metadata':{", "'metadata':{'colour':'blue',")).expect(201);

    assertThat(r.json().at("/spec/replicas").asInt()).isEqualTo(1);
    assertThat(r.json().at("/spec/colour").isMissingNode()).isTrue();
    assertThat(r.json().at("/spec/extra/anything/goes").asInt()).as("preserved unknown fields").isEqualTo(1);
    assertThat(r.json().at("/metadata/colour").isMissingNode()).isTrue();
    assertThat(r.warnings()).containsExactly("299 - \"unknown field \\\"metadata.colour\\\"\"",
        "299 - \"unknown field \\\"spec.colour\\\"\"");
    assertThat(get(CRONTABS + "/defaulted").expect(200).json().at("/spec/colour").isMissingNode()).isTrue();
  }

  @Test
  void fieldValidationStrict_refusesUnknownFields_ignorePrunesSilently() {
    Response strict = send("POST", CRONTABS + "?fieldValidation=Strict", "application/json",
        cronTab("strict", "{'colour':'red','size':{'a':1}}")).expect(400);

    assertThat(strict.json().path("message").asText()).isEqualTo("CronTab in version \"v1\" cannot be handled as a "
        + "CronTab: strict decoding error: unknown field \"spec.colour\", unknown field \"spec.size\"");
    get(CRONTABS + "/strict").expect(404);

    Response duplicate = send("POST", CRONTABS + "?fieldValidation=Strict", "application/json",
        cronTab("dup", "{'image':'a','image':'b'}")).expect(400);
    assertThat(duplicate.json().path("message").asText()).endsWith("strict decoding error: "
        + "duplicate field \"spec.image\"");

    Response ignore = send("POST", CRONTABS + "?fieldValidation=Ignore", "application/json",
        cronTab("ignored", "{'colour':'red'}")).expect(201);
    assertThat(ignore.warnings()).isEmpty();
    assertThat(ignore.json().at("/spec/colour").isMissingNode()).isTrue();

    Response patch = send("PATCH", CRONTABS + "/ignored?fieldValidation=Strict", "application/merge-patch+json",
        "{'spec':{'colour':'blue'}}").expect(400);
    assertThat(patch.json().path("message").asText())
        .isEqualTo("strict decoding error: unknown field \"spec.colour\"");
  }

  @Test
  void updateAndPatches_areValidatedToo_andAFailedOneChangesNothing() {
    JsonNode created = post(CRONTABS, cronTab("patched", "{'replicas':2}")).expect(201).json();
    String rv = created.at("/metadata/resourceVersion").asText();

    Response merge = mergePatch(CRONTABS + "/patched", "{'spec':{'replicas':'many'}}").expect(422);
    assertThat(merge.json().path("message").asText()).isEqualTo("CronTab.stable.example.com \"patched\" is invalid: "
        + "spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\"");
    Response jsonPatch = send("PATCH", CRONTABS + "/patched", "application/json-patch+json",
        "[{'op':'add','path':'/spec/cronSpec','value':'never'}]").expect(422);
    assertThat(jsonPatch.json().at("/details/causes/0/field").asText()).as("%s", jsonPatch.json())
        .isEqualTo("spec.cronSpec");
    String update = cronTab("patched", "{'replicas':0}").replace("'metadata':{", "'metadata':{'resourceVersion':'"
        + rv + "',");
    assertThat(put(CRONTABS + "/patched", update).expect(422).json().at("/details/causes/0/field").asText())
        .isEqualTo("spec.replicas");
    send("PATCH", CRONTABS + "/patched?dryRun=All", "application/merge-patch+json", "{'spec':{'replicas':11}}")
        .expect(422);

    assertThat(get(CRONTABS + "/patched").expect(200).json().at("/metadata/resourceVersion").asText()).isEqualTo(rv);
    JsonNode removed = mergePatch(CRONTABS + "/patched", "{'spec':{'replicas':null}}").expect(200).json();
    assertThat(removed.at("/spec/replicas").asInt()).as("a removed field gets its default again").isEqualTo(1);
  }

  @Test
  void embeddedResource_needsApiVersionAndKind_andValidMetadata() {
    Response r = post(CRONTABS, cronTab("embedded", "{'template':{'metadata':{'labels':{'app':'-bad-'}}}}"))
        .expect(422);

    List<String> fields = r.json().at("/details/causes").findValuesAsText("field");
    assertThat(fields).contains("spec.template.apiVersion", "spec.template.kind", "spec.template.metadata.labels");
  }

  @Test
  void statusSubresource_mainIgnoresStatus_statusIgnoresTheRest_generationMovesOnSpecOnly() {
    JsonNode created = post(CRONTABS, cronTab("gen", "{'replicas':2}").replace("}}",
        "},'status':{'phase':'Running'}}")).expect(201).json();
    assertThat(created.has("status")).as("a create drops the status").isFalse();
    assertThat(created.at("/metadata/generation").asLong()).isEqualTo(1);

    JsonNode status = mergePatch(CRONTABS + "/gen/status", "{'status':{'phase':'Running'},'spec':{'replicas':5},"
        + "'metadata':{'labels':{'a':'b'}}}").expect(200).json();
    assertThat(status.at("/status/phase").asText()).isEqualTo("Running");
    assertThat(status.at("/spec/replicas").asInt()).as("/status ignores the spec").isEqualTo(2);
    assertThat(status.at("/metadata/labels").isMissingNode()).as("/status ignores metadata").isTrue();
    assertThat(status.at("/metadata/generation").asLong()).isEqualTo(1);
    mergePatch(CRONTABS + "/gen/status", "{'status':{'phase':'Sleeping'}}").expect(422);

    JsonNode main = mergePatch(CRONTABS + "/gen", "{'status':{'phase':'Done'},'metadata':{'labels':{'a':'b'}}}")
        .expect(200).json();
    assertThat(main.at("/status/phase").asText()).as("the main resource ignores the status").isEqualTo("Running");
    assertThat(main.at("/metadata/labels/a").asText()).isEqualTo("b");
    assertThat(main.at("/metadata/generation").asLong()).as("metadata changes keep the generation").isEqualTo(1);

    JsonNode spec = mergePatch(CRONTABS + "/gen", "{'spec':{'replicas':3}}").expect(200).json();
    assertThat(spec.at("/metadata/generation").asLong()).isEqualTo(2);
  }

  @Test
  void withoutStatusSubresource_anyNonMetadataChangeMovesTheGeneration() {
    String widget = "{'apiVersion':'stable.example.com/v1','kind':'Widget','metadata':{'name':'w'},"
        + "'spec':{'size':1},'status':{'ready':false}}";
    JsonNode created = post(WIDGETS, widget).expect(201).json();
    assertThat(created.at("/status/ready").asBoolean(true)).as("kept without a status subresource").isFalse();
    assertThat(created.at("/metadata/generation").asLong()).isEqualTo(1);

    assertThat(mergePatch(WIDGETS + "/w", "{'status':{'ready':true}}").expect(200).json()
        .at("/metadata/generation").asLong()).isEqualTo(2);
    assertThat(mergePatch(WIDGETS + "/w", "{'metadata':{'annotations':{'x':'y'}}}").expect(200).json()
        .at("/metadata/generation").asLong()).isEqualTo(2);
    get(WIDGETS + "/w/status").expect(404);
  }

  @Test
  void apply_createsMergesListMapsByKey_conflictsBetweenManagers_andForceTakesOwnership() {
    String first = """
        apiVersion: stable.example.com/v1
        kind: CronTab
        metadata: {name: applied}
        spec:
          replicas: 3
          ports: [{name: http, port: 80}]
        """;
    Response created = apply(CRONTABS + "/applied", "alice", first).expect(201);
    assertThat(created.json().at("/metadata/managedFields/0/manager").asText()).isEqualTo("alice");
    assertThat(created.json().at("/metadata/managedFields/0/fieldsV1/f:spec/f:ports")
        .has("k:{\"name\":\"http\"}")).isTrue();

    String second = """
        apiVersion: stable.example.com/v1
        kind: CronTab
        metadata: {name: applied}
        spec:
          replicas: 4
          ports: [{name: https, port: 443}]
        """;
    Response conflict = apply(CRONTABS + "/applied", "bob", second).expect(409);
    assertThat(conflict.json().path("message").asText())
        .isEqualTo("Apply failed with 1 conflict: conflict with \"alice\": .spec.replicas");

    JsonNode forced = apply(CRONTABS + "/applied", "bob&force=true", second).expect(200).json();
    assertThat(forced.at("/spec/replicas").asInt()).isEqualTo(4);
    assertThat(forced.at("/spec/ports").findValuesAsText("name")).containsExactly("http", "https");

    Response invalid = apply(CRONTABS + "/applied", "bob", second.replace("replicas: 4", "replicas: 40"))
        .expect(422);
    assertThat(invalid.json().at("/details/causes/0/field").asText()).isEqualTo("spec.replicas");
  }

  @Test
  void strategicMergePatch_andProtobuf_are415() {
    post(CRONTABS, cronTab("smp", "{}")).expect(201);

    Response smp = send("PATCH", CRONTABS + "/smp", "application/strategic-merge-patch+json", "{}").expect(415);
    assertThat(smp.json().path("message").asText()).isEqualTo("the body of the request was in an unknown format - "
        + "accepted media types include: application/json-patch+json, application/merge-patch+json, "
        + "application/apply-patch+yaml");
    send("POST", CRONTABS, "application/vnd.kubernetes.protobuf", "k8s").expect(415);
  }

  @Test
  void aNonStructuralSchema_isRefused_withKubesMessage() {
    String crd = WIDGET_CRD.replace("widgets", "gadgets").replace("Widget", "Gadget")
        .replace("\"spec\":{\"type\":\"object\",\"properties\":{\"size\":{\"type\":\"integer\"}}}",
            "\"spec\":{\"properties\":{\"size\":{\"type\":\"integer\",\"default\":\"big\"}}}");

    Response r = post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd).expect(422);

    assertThat(r.json().path("message").asText()).startsWith("CustomResourceDefinition.apiextensions.k8s.io "
        + "\"gadgets.stable.example.com\" is invalid: ")
        .contains("spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: "
            + "must not be empty for specified object fields");
    get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.stable.example.com").expect(404);
  }

  @Test
  void celRules_rejectAWrite_transitionRulesSeeTheOldObject_andARuleThatDoesNotCompileRefusesTheDefinition() {
    String crd = WIDGET_CRD.replace("widgets", "ranges").replace("Widget", "Range")
        .replace("\"spec\":{\"type\":\"object\",\"properties\":{\"size\":{\"type\":\"integer\"}}}",
            "\"spec\":{\"type\":\"object\",\"properties\":{\"min\":{\"type\":\"integer\"},"
            + "\"max\":{\"type\":\"integer\"},\"zone\":{\"type\":\"string\"}},"
            + "\"x-kubernetes-validations\":[{\"rule\":\"self.min <= self.max\",\"message\":\"min must not exceed max\"},"
            + "{\"rule\":\"self.zone == oldSelf.zone\",\"message\":\"zone is immutable\"}]}");
    post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd).expect(201);
    String ranges = "/apis/stable.example.com/v1/namespaces/default/ranges";
    awaitServed(ranges);
    String range = "{'apiVersion':'stable.example.com/v1','kind':'Range','metadata':{'name':'r'},"
        + "'spec':{'min':5,'max':1,'zone':'a'}}";

    Response refused = post(ranges, range).expect(422);
    assertThat(refused.json().path("message").asText()).isEqualTo("Range.stable.example.com \"r\" is invalid: "
        + "spec: Invalid value: \"object\": min must not exceed max");
    post(ranges, range.replace("'max':1", "'max':9")).expect(201);
    Response moved = mergePatch(ranges + "/r", "{'spec':{'zone':'b'}}").expect(422);
    assertThat(moved.json().at("/details/causes/0/message").asText())
        .isEqualTo("Invalid value: \"object\": zone is immutable");

    String broken = crd.replace("ranges", "brokens").replace("Range", "Broken").replace("self.min <= self.max",
        "self.min <= self.nothing");
    Response r = post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", broken).expect(422);
    assertThat(r.json().at("/details/causes/0/field").asText())
        .startsWith("spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0]");
  }

  @Test
  void aVersionWithoutSchema_isRefused() {
    String crd = WIDGET_CRD.replace("widgets", "thingies").replace("Widget", "Thingy")
        .replaceAll("(?s),\\s*\"schema\":.*", "}]}}");

    Response r = post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd).expect(422);

    assertThat(r.json().path("message").asText()).isEqualTo("CustomResourceDefinition.apiextensions.k8s.io "
        + "\"thingies.stable.example.com\" is invalid: spec.versions[0].schema.openAPIV3Schema: Required value: "
        + "schemas are required");
  }

  @Test
  void anInvalidDefault_isRefused() {
    String crd = WIDGET_CRD.replace("widgets", "doodads").replace("Widget", "Doodad")
        .replace("\"size\":{\"type\":\"integer\"}", "\"size\":{\"type\":\"integer\",\"default\":\"big\"}");

    Response r = post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd).expect(422);

    assertThat(r.json().at("/details/causes").findValuesAsText("field"))
        .contains("spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[size].default");
  }
}
