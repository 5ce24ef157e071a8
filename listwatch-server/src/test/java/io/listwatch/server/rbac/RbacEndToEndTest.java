package io.listwatch.server.rbac;

import static io.listwatch.server.rbac.TestPolicy.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.ApiServer;
import io.listwatch.server.rbac.UserCredentials.TestUser;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Http;
import io.listwatch.testsupport.Kubectl;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * RBAC as a user of the cluster meets it, over HTTPS with kubectl and plain HTTP requests:
 * alice is bound to {@code view} in ns1, nadia to {@code admin} in ns1, nobody has no bindings.
 * Reads, 403s on writes and in other namespaces, a watch refused before it streams, and what
 * {@code kubectl auth can-i} and {@code kubectl auth whoami} answer.
 * The checks are the same whatever the credential; each subclass picks one
 * ({@link UserCredentials}).
 */
@EndToEnd
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class RbacEndToEndTest {

  private static final String RBAC = "/apis/rbac.authorization.k8s.io/v1";
  /** How long the server's cluster role aggregator and authorizer may take to catch up. */
  private static final Duration WAIT = Duration.ofSeconds(15);
  static final TestUser ADMIN = TestUser.of("root", "system:masters");
  static final TestUser ALICE = TestUser.of("alice");
  static final TestUser NADIA = TestUser.of("nadia", "ns-admins");
  static final TestUser NOBODY = TestUser.of("nobody");

  @TempDir
  Path work;
  private UserCredentials credentials;
  private ApiServer server;
  private Http admin;
  private Http alice;
  private Http nadia;

  /** The credential kind under test. */
  abstract UserCredentials credentials();

  @BeforeAll
  void startServer() {
    credentials = credentials();
    server = credentials.start(List.of(ADMIN, ALICE, NADIA, NOBODY));
    admin = http(ADMIN);
    alice = http(ALICE);
    nadia = http(NADIA);
    for (String ns : List.of("ns1", "ns2")) {
      admin.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"" + ns + "\"}}").expect(201);
      admin.post("/api/v1/namespaces/" + ns + "/configmaps", "{\"metadata\":{\"name\":\"cm\"},\"data\":{\"k\":\"v\"}}")
          .expect(201);
    }
    admin.post(RBAC + "/namespaces/ns1/rolebindings", TestPolicy.bindingJson("RoleBinding", "ns1", "alice-view",
        "ClusterRole", "view", "User:alice").toString()).expect(201);
    admin.post(RBAC + "/namespaces/ns1/rolebindings", TestPolicy.bindingJson("RoleBinding", "ns1", "admins",
        "ClusterRole", "admin", "Group:ns-admins").toString()).expect(201);
    // a consistent read returns once the watch cache, and so the authorizer, has the bindings
    admin.get(RBAC + "/rolebindings").expect(200);
    // the aggregated roles are filled by the aggregator, apart from start; a consistent list
    // that shows them proves the authorizer sees them too (a get reads the store)
    for (String role : List.of("view", "admin")) {
      Await.until("the aggregated " + role + " role is filled", WAIT, () -> json(admin.get(RBAC
          + "/clusterroles?fieldSelector=metadata.name%3D" + role).expect(200)).path("items").path(0).path("rules")
          .toString()
          .contains("\"configmaps\""));
    }
  }

  @AfterAll
  void stopServer() {
    if (credentials != null) {
      credentials.close();
    }
  }

  private Http http(TestUser user) {
    return Http.over(server.url(), credentials.httpClient(user)).withHeaders(credentials.headers(user));
  }

  private Kubectl kubectl(TestUser user) {
    return Kubectl.withKubeconfig(credentials.kubeconfig(user), work);
  }

  @Test
  void view_readsInItsNamespace_listGetWatch() throws Exception {
    // cm, and kube-root-ca.crt, which the server keeps in every namespace as kube does
    assertThat(json(alice.get("/api/v1/namespaces/ns1/configmaps").expect(200)).path("items").findValuesAsText("name"))
        .contains("cm");
    assertThat(json(alice.get("/api/v1/namespaces/ns1/configmaps/cm").expect(200)).at("/data/k").asText())
        .isEqualTo("v");
    HttpResponse<java.util.stream.Stream<String>> watch =
        alice.lines("/api/v1/namespaces/ns1/configmaps?watch=true&timeoutSeconds=5");
    try (var lines = watch.body()) {
      assertThat(watch.statusCode()).isEqualTo(200);
      JsonNode first = TestPolicy.JSON.readTree(lines.findFirst().orElseThrow());
      assertThat(first.path("type").asText()).isEqualTo("ADDED");
      assertThat(first.at("/object/metadata/name").asText()).isEqualTo("cm");
    }
  }

  @Test
  void view_cannotWrite_withKubesForbiddenMessage() {
    JsonNode create = json(alice.post("/api/v1/namespaces/ns1/configmaps", "{\"metadata\":{\"name\":\"new\"}}")
        .expect(403));
    assertThat(create.path("reason").asText()).isEqualTo("Forbidden");
    assertThat(create.path("message").asText()).isEqualTo("configmaps is forbidden: User \"alice\" cannot create "
        + "resource \"configmaps\" in API group \"\" in the namespace \"ns1\"");
    assertThat(json(alice.put("/api/v1/namespaces/ns1/configmaps/cm", "{\"metadata\":{\"name\":\"cm\"}}").expect(403))
        .path("message").asText()).isEqualTo("configmaps \"cm\" is forbidden: User \"alice\" cannot update resource "
        + "\"configmaps\" in API group \"\" in the namespace \"ns1\"");
    assertThat(json(alice.mergePatch("/api/v1/namespaces/ns1/configmaps/cm", "{\"data\":{\"k\":\"x\"}}").expect(403))
        .path("message").asText()).contains("cannot patch resource \"configmaps\"");
    assertThat(json(alice.delete("/api/v1/namespaces/ns1/configmaps/cm").expect(403)).path("message").asText())
        .isEqualTo("configmaps \"cm\" is forbidden: User \"alice\" cannot delete resource \"configmaps\" in API "
            + "group \"\" in the namespace \"ns1\"");
    assertThat(json(admin.get("/api/v1/namespaces/ns1/configmaps/cm").expect(200)).at("/data/k").asText())
        .as("nothing changed").isEqualTo("v");
  }

  @Test
  void view_cannotRead_inAnotherNamespace_norClusterWide() {
    assertThat(json(alice.get("/api/v1/namespaces/ns2/configmaps").expect(403)).path("message").asText())
        .isEqualTo("configmaps is forbidden: User \"alice\" cannot list resource \"configmaps\" in API group \"\" "
            + "in the namespace \"ns2\"");
    assertThat(json(alice.get("/api/v1/namespaces/ns2/configmaps/cm").expect(403)).path("message").asText())
        .isEqualTo("configmaps \"cm\" is forbidden: User \"alice\" cannot get resource \"configmaps\" in API group "
            + "\"\" in the namespace \"ns2\"");
    assertThat(json(alice.get("/api/v1/configmaps").expect(403)).path("message").asText())
        .isEqualTo("configmaps is forbidden: User \"alice\" cannot list resource \"configmaps\" in API group \"\" "
            + "at the cluster scope");
    assertThat(alice.get("/api/v1/namespaces/ns1/secrets").code()).as("view does not read secrets").isEqualTo(403);
  }

  @Test
  void watch_inAnotherNamespace_isRefusedBeforeItStreams() throws Exception {
    HttpResponse<java.util.stream.Stream<String>> watch = alice.lines("/api/v1/namespaces/ns2/configmaps?watch=true");
    try (var lines = watch.body()) {
      assertThat(watch.statusCode()).isEqualTo(403);
      JsonNode status = TestPolicy.JSON.readTree(String.join("\n", lines.toList()));
      assertThat(status.path("kind").asText()).isEqualTo("Status");
      assertThat(status.path("message").asText()).isEqualTo("configmaps is forbidden: User \"alice\" cannot watch "
          + "resource \"configmaps\" in API group \"\" in the namespace \"ns2\"");
    }
  }

  @Test
  void kubectlAuthCanI_answersPerNamespace() {
    Kubectl kubectl = kubectl(ALICE);

    Kubectl.Result yes = kubectl.run("auth", "can-i", "list", "pods", "-n", "ns1");
    assertThat(yes.stdout().strip()).as(yes.stderr()).isEqualTo("yes");
    assertThat(yes.exitCode()).isZero();
    Kubectl.Result no = kubectl.run("auth", "can-i", "list", "pods", "-n", "ns2");
    assertThat(no.stdout().strip()).as(no.stderr()).isEqualTo("no");
    assertThat(no.exitCode()).isEqualTo(1);
    assertThat(kubectl.run("auth", "can-i", "create", "pods", "-n", "ns1").stdout().strip()).isEqualTo("no");
    assertThat(kubectl.run("auth", "can-i", "get", "/healthz").stdout().strip()).isEqualTo("yes");
  }

  @Test
  void kubectlAuthWhoami_printsTheUserAndItsGroups() {
    Kubectl.Result alice = kubectl(ALICE).run("auth", "whoami");
    assertThat(alice.exitCode()).as(alice.stderr()).isZero();
    assertThat(alice.stdout()).containsPattern("(?m)^Username\\s+alice\\s*$")
        .containsPattern("Groups\\s+\\[system:authenticated\\]");

    Kubectl.Result nadia = kubectl(NADIA).run("auth", "whoami");
    assertThat(nadia.exitCode()).as(nadia.stderr()).isZero();
    assertThat(nadia.stdout()).containsPattern("(?m)^Username\\s+nadia\\s*$")
        .containsPattern("Groups\\s+\\[ns-admins system:authenticated\\]");
  }

  @Test
  void kubectlAuthCanIList_showsTheViewRules() {
    Kubectl.Result list = kubectl(ALICE).run("auth", "can-i", "--list", "-n", "ns1");

    assertThat(list.exitCode()).as(list.stderr()).isZero();
    assertThat(list.stdout()).containsPattern("(?m)^pods\\s+\\[\\]\\s+\\[\\]\\s+\\[get list watch\\]")
        .containsPattern("(?m)^deployments\\.apps\\s+\\[\\]\\s+\\[\\]\\s+\\[get list watch\\]")
        .containsPattern("(?m)^selfsubjectaccessreviews\\.authorization\\.k8s\\.io\\s+\\[\\]\\s+\\[\\]\\s+\\[create\\]")
        .containsPattern("(?m)^\\s+\\[/apis/\\*\\]\\s+\\[\\]\\s+\\[get\\]");
    Kubectl.Result other = kubectl(ALICE).run("auth", "can-i", "--list", "-n", "ns2");
    assertThat(other.stdout()).doesNotContainPattern("(?m)^pods\\s");
  }

  @Test
  void kubectlCreateRoleAndBindings_work_andGrantView() {
    Kubectl root = kubectl(ADMIN);
    Kubectl.Result created = root.run("create", "rolebinding", "nobody-view", "--clusterrole=view",
        "--user=nobody", "-n", "ns2");
    assertThat(created.exitCode()).as(created.stderr()).isZero();
    try {
      admin.get(RBAC + "/namespaces/ns2/rolebindings").expect(200); // the authorizer has it once this returns
      Kubectl.Result canI = kubectl(NOBODY).run("auth", "can-i", "list", "pods", "-n", "ns2");
      assertThat(canI.stdout().strip()).as(canI.stderr()).isEqualTo("yes");
      Kubectl.Result role = root.run("create", "role", "pod-reader", "--verb=get,list", "--resource=pods",
          "-n", "ns2");
      assertThat(role.exitCode()).as(role.stderr()).isZero();
      assertThat(json(admin.get(RBAC + "/namespaces/ns2/roles/pod-reader").expect(200)).path("rules").toString())
          .isEqualTo("[{\"verbs\":[\"get\",\"list\"],\"apiGroups\":[\"\"],\"resources\":[\"pods\"]}]");
      Kubectl.Result crb = root.run("create", "clusterrolebinding", "viewers", "--clusterrole=view",
          "--group=viewers", "--serviceaccount=ns2:robot");
      assertThat(crb.exitCode()).as(crb.stderr()).isZero();
      JsonNode viewers = json(admin.get(RBAC + "/clusterrolebindings/viewers").expect(200));
      assertThat(viewers.path("roleRef").toString()).isEqualTo(
          "{\"apiGroup\":\"rbac.authorization.k8s.io\",\"kind\":\"ClusterRole\",\"name\":\"view\"}");
      assertThat(viewers.path("subjects").toString()).contains(
          "{\"kind\":\"Group\",\"apiGroup\":\"rbac.authorization.k8s.io\",\"name\":\"viewers\"}",
          "{\"kind\":\"ServiceAccount\",\"name\":\"robot\",\"namespace\":\"ns2\"}");
    } finally {
      root.run("delete", "rolebinding", "nobody-view", "-n", "ns2");
      root.run("delete", "clusterrolebinding", "viewers");
    }
  }

  @Test
  void userWithoutBindings_getsDiscoveryOnly() {
    Kubectl kubectl = kubectl(NOBODY);

    Kubectl.Result resources = kubectl.run("api-resources");
    assertThat(resources.exitCode()).as(resources.stderr()).isZero();
    assertThat(resources.stdout()).contains("pods", "rolebindings", "selfsubjectaccessreviews");
    Kubectl.Result pods = kubectl.run("get", "pods", "-n", "ns1");
    assertThat(pods.exitCode()).isEqualTo(1);
    assertThat(pods.stderr()).contains("Error from server (Forbidden): pods is forbidden: User \"nobody\" cannot "
        + "list resource \"pods\" in API group \"\" in the namespace \"ns1\"");
  }

  @Test
  void namespaceAdmin_cannotGrantClusterAdmin() {
    ObjectNode crb = TestPolicy.bindingJson("ClusterRoleBinding", "", "nadia-root", "ClusterRole", "cluster-admin",
        "User:nadia");
    assertThat(json(nadia.post(RBAC + "/clusterrolebindings", crb.toString()).expect(403)).path("message").asText())
        .isEqualTo("clusterrolebindings.rbac.authorization.k8s.io is forbidden: User \"nadia\" cannot create "
            + "resource \"clusterrolebindings\" in API group \"rbac.authorization.k8s.io\" at the cluster scope");

    ObjectNode rb = TestPolicy.bindingJson("RoleBinding", "ns1", "nadia-root", "ClusterRole", "cluster-admin",
        "User:nadia");
    assertThat(json(nadia.post(RBAC + "/namespaces/ns1/rolebindings", rb.toString()).expect(403)).path("message")
        .asText())
        .isEqualTo("rolebindings.rbac.authorization.k8s.io \"nadia-root\" is forbidden: user \"nadia\" (groups="
            + "[\"ns-admins\" \"system:authenticated\"]) is attempting to grant RBAC permissions not currently held:\n"
            + "{APIGroups:[\"*\"], Resources:[\"*\"], Verbs:[\"*\"]}\n{NonResourceURLs:[\"*\"], Verbs:[\"*\"]}");
    admin.get(RBAC + "/namespaces/ns1/rolebindings/nadia-root").expect(404);

    // what she holds, she may grant
    ObjectNode view = TestPolicy.bindingJson("RoleBinding", "ns1", "bob-view", "ClusterRole", "view", "User:bob");
    nadia.post(RBAC + "/namespaces/ns1/rolebindings", view.toString()).expect(201);
  }

  @Test
  void aggregatedView_picksUpANewLabelledClusterRole() {
    assertThat(alice.get("/api/v1/namespaces/ns1/secrets").code()).isEqualTo(403);
    ObjectNode secretReader = TestPolicy.roleJson("ClusterRole", "", "secret-reader",
        PolicyRule.resource(List.of("get", "list"), List.of(""), List.of("secrets"), List.of()));
    ((ObjectNode) secretReader.get("metadata")).putObject("labels")
        .put("rbac.authorization.k8s.io/aggregate-to-view", "true");
    admin.post(RBAC + "/clusterroles", secretReader.toString()).expect(201);
    try {
      Await.until("alice reads secrets through view", WAIT,
          () -> alice.get("/api/v1/namespaces/ns1/secrets").code() == 200);
      assertThat(alice.get("/api/v1/namespaces/ns2/secrets").code()).as("still only in ns1").isEqualTo(403);
    } finally {
      admin.delete(RBAC + "/clusterroles/secret-reader").expect(200);
    }
    Await.until("view drops secrets again", WAIT, () -> alice.get("/api/v1/namespaces/ns1/secrets").code() == 403);
  }
}
