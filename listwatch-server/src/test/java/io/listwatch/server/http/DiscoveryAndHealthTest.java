package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Legacy discovery, /version and the health endpoints (docs/compatibility.md, "Discovery", "Version and health"), with
 * the fields the strict Java and Python models require.
 */
@ExtendWith(ApiServerExtension.class)
class DiscoveryAndHealthTest {

  /** What client-go 1.32 sends to /api and /apis. */
  private static final String AGGREGATED_ACCEPT = "application/json;g=apidiscovery.k8s.io;v=v2;"
      + "as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,"
      + "application/json";

  private static KubeHttp http;

  @BeforeAll
  static void connect(ApiServer server) {
    http = new KubeHttp(server);
  }

  @AfterAll
  static void disconnect() {
    http.close();
  }

  @Test
  void api_listsTheCoreVersionAndServerAddresses() {
    JsonNode api = http.get("/api").expect(200);
    assertThat(api.path("kind").asText()).isEqualTo("APIVersions");
    assertThat(api.path("versions").toString()).isEqualTo("[\"v1\"]");
    JsonNode cidrs = api.path("serverAddressByClientCIDRs");
    assertThat(cidrs.isArray() && !cidrs.isEmpty()).as("serverAddressByClientCIDRs is required").isTrue();
    assertThat(cidrs.get(0).path("clientCIDR").asText()).isEqualTo("0.0.0.0/0");
    assertThat(cidrs.get(0).path("serverAddress").asText()).isNotBlank();
  }

  @Test
  void apis_listsEveryGroupButCore_andEachListedGroupVersionAnswers() {
    JsonNode apis = http.get("/apis").expect(200);
    assertThat(apis.path("kind").asText()).isEqualTo("APIGroupList");
    assertThat(apis.path("apiVersion").asText()).isEqualTo("v1");
    List<String> names = new ArrayList<>();
    for (JsonNode g : apis.path("groups")) {
      String name = g.path("name").asText();
      names.add(name);
      assertThat(g.path("versions").isArray() && !g.path("versions").isEmpty()).isTrue();
      for (JsonNode v : g.path("versions")) {
        assertThat(v.path("groupVersion").asText()).isEqualTo(name + "/" + v.path("version").asText());
        JsonNode list = http.get("/apis/" + v.path("groupVersion").asText()).expect(200);
        assertResourceList(list, v.path("groupVersion").asText());
      }
      assertThat(g.path("versions")).contains(g.path("preferredVersion"));
    }
    assertThat(names).contains("apps").doesNotContain("");
    JsonNode apps = apis.path("groups").get(names.indexOf("apps"));
    assertThat(apps.at("/preferredVersion/groupVersion").asText()).isEqualTo("apps/v1");
    assertThat(apps.at("/preferredVersion/version").asText()).isEqualTo("v1");
  }

  @Test
  void coreV1_describesEachResourceWithTheRequiredFields() {
    JsonNode list = http.get("/api/v1").expect(200);
    Map<String, JsonNode> byName = assertResourceList(list, "v1");

    JsonNode pods = byName.get("pods");
    assertThat(pods).as("pods listed").isNotNull();
    assertThat(pods.path("singularName").asText()).isEqualTo("pod");
    assertThat(pods.path("namespaced").asBoolean()).isTrue();
    assertThat(pods.path("kind").asText()).isEqualTo("Pod");
    assertThat(texts(pods.path("verbs"))).contains("create", "delete", "get", "list", "patch", "update", "watch");
    assertThat(texts(pods.path("shortNames"))).contains("po");
    assertThat(texts(pods.path("categories"))).contains("all");

    JsonNode podStatus = byName.get("pods/status");
    assertThat(podStatus).as("pods/status listed").isNotNull();
    assertThat(podStatus.path("singularName").isTextual()).as("singularName present even when empty").isTrue();
    assertThat(podStatus.path("kind").asText()).isEqualTo("Pod");

    assertThat(byName.get("namespaces").path("namespaced").asBoolean()).isFalse();
    assertThat(texts(byName.get("configmaps").path("shortNames"))).contains("cm");
    assertThat(byName.get("configmaps").path("kind").asText()).isEqualTo("ConfigMap");
  }

  @Test
  void appsV1_describesDeployments() {
    Map<String, JsonNode> byName = assertResourceList(http.get("/apis/apps/v1").expect(200), "apps/v1");
    JsonNode d = byName.get("deployments");
    assertThat(d).as("deployments listed").isNotNull();
    assertThat(d.path("singularName").asText()).isEqualTo("deployment");
    assertThat(d.path("namespaced").asBoolean()).isTrue();
    assertThat(d.path("kind").asText()).isEqualTo("Deployment");
    assertThat(texts(d.path("shortNames"))).contains("deploy");
    assertThat(texts(d.path("verbs"))).contains("create", "delete", "get", "list", "patch", "update", "watch");
  }

  @Test
  void discovery_withClientGosAcceptHeader_answersAggregatedOnBothRoots_withKubesContentType() {
    for (String path : List.of("/api", "/apis")) {
      KubeHttp.Response r = http.get(path, AGGREGATED_ACCEPT);
      JsonNode list = r.expect(200);
      assertThat(r.contentType()).as(path)
          .isEqualTo("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList");
      assertThat(list.path("kind").asText()).isEqualTo("APIGroupDiscoveryList");
      assertThat(list.path("apiVersion").asText()).isEqualTo("apidiscovery.k8s.io/v2");
      assertThat(r.headers().firstValue("etag").orElse("")).as(path).matches("\"[0-9A-F]{128}\"");
    }
  }

  @Test
  void aggregatedApi_holdsOnlyTheCoreGroup_withShortNamesCategoriesVerbsAndSubresources() {
    JsonNode list = http.get("/api", AGGREGATED_ACCEPT).expect(200);

    assertThat(list.path("items")).hasSize(1);
    JsonNode core = list.path("items").get(0);
    assertThat(core.at("/metadata/name").asText("")).isEmpty();
    JsonNode v1 = core.path("versions").get(0);
    assertThat(v1.path("version").asText()).isEqualTo("v1");
    assertThat(v1.path("freshness").asText()).isEqualTo("Current");
    Map<String, JsonNode> byName = new TreeMap<>();
    v1.path("resources").forEach(r -> byName.put(r.path("resource").asText(), r));
    JsonNode pods = byName.get("pods");
    assertThat(pods.path("responseKind").toString()).isEqualTo("{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"}");
    assertThat(pods.path("scope").asText()).isEqualTo("Namespaced");
    assertThat(pods.path("singularResource").asText()).isEqualTo("pod");
    assertThat(texts(pods.path("shortNames"))).containsExactly("po");
    assertThat(texts(pods.path("categories"))).containsExactly("all");
    assertThat(texts(pods.path("verbs"))).contains("create", "get", "list", "watch");
    assertThat(pods.at("/subresources/0/subresource").asText()).isEqualTo("status");
    assertThat(byName.get("namespaces").path("scope").asText()).isEqualTo("Cluster");
    JsonNode token = byName.get("serviceaccounts").at("/subresources/0");
    assertThat(token.path("subresource").asText()).isEqualTo("token");
    assertThat(token.path("responseKind").toString())
        .isEqualTo("{\"group\":\"authentication.k8s.io\",\"version\":\"v1\",\"kind\":\"TokenRequest\"}");
    assertThat(texts(token.path("verbs"))).containsExactly("create");
  }

  @Test
  void aggregatedApis_holdsEveryOtherGroup_andV2beta1IsServedToo() {
    KubeHttp.Response beta = http.get("/apis", "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList");
    JsonNode list = beta.expect(200);

    assertThat(beta.contentType()).isEqualTo("application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList");
    assertThat(list.path("apiVersion").asText()).isEqualTo("apidiscovery.k8s.io/v2beta1");
    List<String> groups = new ArrayList<>();
    list.path("items").forEach(g -> groups.add(g.at("/metadata/name").asText()));
    assertThat(groups).contains("apps", "rbac.authorization.k8s.io").doesNotContain("");
    JsonNode apps = list.path("items").get(groups.indexOf("apps")).at("/versions/0");
    JsonNode deployments = null;
    for (JsonNode r : apps.path("resources")) {
      if (r.path("resource").asText().equals("deployments")) {
        deployments = r;
      }
    }
    assertThat(deployments).isNotNull();
    assertThat(texts(deployments.path("shortNames"))).containsExactly("deploy");
    assertThat(texts(deployments.path("categories"))).containsExactly("all");
    assertThat(deployments.at("/responseKind/group").asText()).isEqualTo("apps");
  }

  @Test
  void aggregatedDiscovery_withTheCurrentETag_isNotModified_andPlainJsonStaysLegacy() {
    KubeHttp.Response first = http.get("/apis", AGGREGATED_ACCEPT);
    String etag = first.headers().firstValue("etag").orElseThrow();

    KubeHttp.Response again = http.send(java.net.http.HttpRequest.newBuilder(http.uri("/apis"))
        .header("Accept", AGGREGATED_ACCEPT).header("If-None-Match", etag).GET());
    KubeHttp.Response stale = http.send(java.net.http.HttpRequest.newBuilder(http.uri("/apis"))
        .header("Accept", AGGREGATED_ACCEPT).header("If-None-Match", "\"0\"").GET());
    KubeHttp.Response legacy = http.get("/apis", "application/json");

    assertThat(again.code()).isEqualTo(304);
    assertThat(again.body()).isEmpty();
    assertThat(again.headers().firstValue("etag")).contains(etag);
    assertThat(stale.code()).isEqualTo(200);
    assertThat(stale.json().path("kind").asText()).isEqualTo("APIGroupDiscoveryList");
    assertThat(legacy.contentType()).isEqualTo("application/json");
    assertThat(legacy.json().path("kind").asText()).isEqualTo("APIGroupList");
  }

  @Test
  void version_hasTheNineStringFieldsOfKube132() {
    JsonNode v = http.get("/version").expect(200);
    List<String> fields = List.of("major", "minor", "gitVersion", "gitCommit", "gitTreeState", "buildDate",
        "goVersion", "compiler", "platform");
    for (String f : fields) {
      assertThat(v.path(f).isTextual()).as("%s is a string in %s", f, v).isTrue();
      assertThat(v.path(f).asText()).as(f).isNotEmpty();
    }
    List<String> present = new ArrayList<>();
    v.fieldNames().forEachRemaining(present::add);
    assertThat(present).as("no fields the strict 1.32 models do not know").containsExactlyInAnyOrderElementsOf(fields);
    assertThat(v.path("gitVersion").asText()).matches("v\\d+\\.\\d+\\.\\d+.*");
    assertThat(v.path("major").asText()).isEqualTo("1");
  }

  @Test
  void versionAndDiscoveryRoots_answerWithATrailingSlashToo_asTheGeneratedClientsAskThem() {
    for (String path : List.of("/version", "/api", "/apis", "/api/v1", "/apis/apps/v1")) {
      assertThat(http.get(path + "/").expect(200)).as(path + "/").isEqualTo(http.get(path).expect(200));
    }
  }

  @Test
  void healthEndpoints_answerOkAsPlainText() {
    for (String path : List.of("/healthz", "/livez", "/readyz")) {
      KubeHttp.Response r = http.get(path);
      assertThat(r.code()).as(path).isEqualTo(200);
      assertThat(r.body()).as(path).isEqualTo("ok");
      assertThat(r.contentType()).as(path).startsWith("text/plain");
    }
    KubeHttp.Response verbose = http.get("/readyz?verbose");
    assertThat(verbose.code()).isEqualTo(200);
    assertThat(verbose.body()).contains("[+]ping ok").contains("check passed");
    assertThat(http.get("/livez/ping").code()).isEqualTo(200);
  }

  /** Checks the fields the Java and Python models require; returns the resources by name. */
  private static Map<String, JsonNode> assertResourceList(JsonNode list, String groupVersion) {
    assertThat(list.path("kind").asText()).isEqualTo("APIResourceList");
    assertThat(list.path("groupVersion").asText()).isEqualTo(groupVersion);
    assertThat(list.path("resources").isArray()).as("resources of %s", groupVersion).isTrue();
    Map<String, JsonNode> byName = new TreeMap<>();
    for (JsonNode r : list.path("resources")) {
      String where = groupVersion + " " + r;
      assertThat(r.path("name").asText()).as("name in %s", where).isNotEmpty();
      assertThat(r.path("singularName").isTextual()).as("singularName in %s", where).isTrue();
      assertThat(r.path("namespaced").isBoolean()).as("namespaced in %s", where).isTrue();
      assertThat(r.path("kind").asText()).as("kind in %s", where).isNotEmpty();
      assertThat(r.path("verbs").isArray()).as("verbs in %s", where).isTrue();
      r.path("verbs").forEach(verb -> assertThat(verb.asText()).isIn("create", "delete", "deletecollection",
          "get", "list", "patch", "update", "watch", "proxy"));
      byName.put(r.path("name").asText(), r);
    }
    return byName;
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
