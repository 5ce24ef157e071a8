package io.listwatch.server.rbac;

import static io.listwatch.server.rbac.TestPolicy.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.Http;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The RBAC resources as served (over the plain listener, as the cluster admin). */
@ExtendWith(ApiServerExtension.class)
class RbacServerTest {

  private static final String RBAC = "/apis/rbac.authorization.k8s.io/v1";
  /** How long the server's cluster role aggregator and authorizer may take to catch up. */
  private static final Duration WAIT = Duration.ofSeconds(15);
  private static final PolicyRule READ_PODS = PolicyRule.resource(List.of("get", "list", "watch"), List.of(""),
      List.of("pods"), List.of());

  @Test
  void start_createsTheBootstrapPolicy(ApiServer server) {
    Http http = Http.plain(server.url());
    JsonNode roles = json(http.get(RBAC + "/clusterroles").expect(200));
    List<String> names = new ArrayList<>();
    roles.path("items").forEach(r -> names.add(r.at("/metadata/name").asText()));

    assertThat(names).contains("cluster-admin", "admin", "edit", "view", "system:discovery", "system:basic-user",
        "system:public-info-viewer", "system:aggregate-to-view");
    JsonNode admin = json(http.get(RBAC + "/clusterroles/cluster-admin").expect(200));
    assertThat(admin.at("/metadata/labels/kubernetes.io~1bootstrapping").asText()).isEqualTo("rbac-defaults");
    assertThat(admin.at("/metadata/annotations/rbac.authorization.kubernetes.io~1autoupdate").asText())
        .isEqualTo("true");
    assertThat(admin.at("/rules/0/verbs/0").asText()).isEqualTo("*");
    assertThat(admin.at("/rules/1/nonResourceURLs/0").asText()).isEqualTo("*");
    JsonNode masters = json(http.get(RBAC + "/clusterrolebindings/cluster-admin").expect(200));
    assertThat(masters.at("/subjects/0/name").asText()).isEqualTo("system:masters");
    JsonNode publicInfo = json(http.get(RBAC + "/clusterrolebindings/system:public-info-viewer").expect(200));
    assertThat(publicInfo.at("/subjects/1/name").asText()).isEqualTo("system:unauthenticated");
  }

  @Test
  void aggregatedRoles_areFilled_andPickUpANewLabelledClusterRole(ApiServer server) {
    Http http = Http.plain(server.url());
    Await.until("view has the aggregated pod rules", WAIT, () -> json(http.get(RBAC + "/clusterroles/view").expect(200))
        .path("rules").toString().contains("\"pods\""));

    ObjectNode crons = TestPolicy.roleJson("ClusterRole", "", "widgets-view",
        PolicyRule.resource(List.of("get", "list"), List.of("example.com"), List.of("widgets"), List.of()));
    ((ObjectNode) crons.get("metadata")).putObject("labels").put("rbac.authorization.k8s.io/aggregate-to-view", "true");
    http.post(RBAC + "/clusterroles", crons.toString()).expect(201);

    for (String role : List.of("view", "edit", "admin")) {
      Await.until(role + " includes widgets", WAIT, () -> json(http.get(RBAC + "/clusterroles/" + role).expect(200))
          .path("rules").toString().contains("\"widgets\""));
    }
    http.delete(RBAC + "/clusterroles/widgets-view").expect(200);
    Await.until("view drops widgets", WAIT, () -> !json(http.get(RBAC + "/clusterroles/view").expect(200))
        .path("rules").toString().contains("\"widgets\""));
  }

  @Test
  void role_crud_andMergePatch(ApiServer server) {
    Http http = Http.plain(server.url());
    http.post(RBAC + "/namespaces/default/roles", TestPolicy.roleJson("Role", "default", "crud", READ_PODS).toString())
        .expect(201);

    JsonNode patched = json(http.mergePatch(RBAC + "/namespaces/default/roles/crud",
        "{\"rules\":[{\"verbs\":[\"get\"],\"apiGroups\":[\"\"],\"resources\":[\"secrets\"]}]}").expect(200));
    assertThat(patched.at("/rules/0/resources/0").asText()).isEqualTo("secrets");
    assertThat(json(http.get(RBAC + "/namespaces/default/roles").expect(200)).path("items").size())
        .isGreaterThanOrEqualTo(1);
    http.delete(RBAC + "/namespaces/default/roles/crud").expect(200);
    http.get(RBAC + "/namespaces/default/roles/crud").expect(404);
  }

  @Test
  void invalidRole_is422_andNotStored(ApiServer server) {
    Http http = Http.plain(server.url());
    JsonNode status = json(http.post(RBAC + "/namespaces/default/roles",
        "{\"metadata\":{\"name\":\"bad\"},\"rules\":[{\"apiGroups\":[\"\"],\"resources\":[\"pods\"]}]}").expect(422));

    assertThat(status.path("reason").asText()).isEqualTo("Invalid");
    assertThat(status.path("message").asText()).isEqualTo("Role.rbac.authorization.k8s.io \"bad\" is invalid: "
        + "rules[0].verbs: Required value: verbs must contain at least one value");
    assertThat(status.at("/details/kind").asText()).isEqualTo("Role");
    http.get(RBAC + "/namespaces/default/roles/bad").expect(404);
  }

  @Test
  void binding_roleRefIsImmutable_subjectsAreNot(ApiServer server) {
    Http http = Http.plain(server.url());
    http.post(RBAC + "/namespaces/default/rolebindings", TestPolicy.bindingJson("RoleBinding", "default", "rb",
        "ClusterRole", "view", "User:alice").toString()).expect(201);

    JsonNode status = json(http.mergePatch(RBAC + "/namespaces/default/rolebindings/rb",
        "{\"roleRef\":{\"name\":\"edit\"}}").expect(422));
    assertThat(status.path("message").asText()).isEqualTo("RoleBinding.rbac.authorization.k8s.io \"rb\" is invalid: "
        + "roleRef: Invalid value: rbac.RoleRef{APIGroup:\"rbac.authorization.k8s.io\", Kind:\"ClusterRole\", "
        + "Name:\"edit\"}: cannot change roleRef");
    JsonNode updated = json(http.mergePatch(RBAC + "/namespaces/default/rolebindings/rb",
        "{\"subjects\":[{\"kind\":\"Group\",\"name\":\"devs\"}]}").expect(200));
    assertThat(updated.at("/subjects/0/apiGroup").asText()).as("defaulted").isEqualTo("rbac.authorization.k8s.io");
  }

  @Test
  void discovery_listsRbacAndTheReviews(ApiServer server) {
    Http http = Http.plain(server.url());
    JsonNode rbac = json(http.get(RBAC).expect(200));
    List<String> rbacNames = new ArrayList<>();
    rbac.path("resources").forEach(r -> rbacNames.add(r.path("name").asText()));
    assertThat(rbacNames).containsExactly("clusterrolebindings", "clusterroles", "rolebindings", "roles");
    assertThat(rbac.path("resources").get(0).has("shortNames")).isFalse();

    JsonNode authz = json(http.get("/apis/authorization.k8s.io/v1").expect(200));
    assertThat(authz.path("resources")).hasSize(4).allSatisfy(r -> assertThat(r.path("verbs").toString())
        .isEqualTo("[\"create\"]"));
    assertThat(authz.path("resources").toString()).contains("\"name\":\"selfsubjectaccessreviews\"",
        "\"name\":\"selfsubjectrulesreviews\"", "\"name\":\"subjectaccessreviews\"",
        "\"name\":\"localsubjectaccessreviews\",\"singularName\":\"localsubjectaccessreview\",\"namespaced\":true");
  }

  @Test
  void subjectAccessReview_answersForAnotherUser(ApiServer server) {
    Http http = Http.plain(server.url());
    http.post(RBAC + "/namespaces/kube-public/rolebindings", TestPolicy.bindingJson("RoleBinding", "kube-public",
        "sar-view", "ClusterRole", "view", "User:sar-user").toString()).expect(201);
    http.get(RBAC + "/namespaces/kube-public/rolebindings").expect(200); // consistent read: the authorizer sees it
    // "view" gets its pod rules from the aggregator, which runs apart from start; a consistent
    // list that shows them proves the authorizer sees them too
    Await.until("view has the aggregated pod rules", WAIT, () -> json(http.get(RBAC + "/clusterroles?fieldSelector="
        + "metadata.name%3Dview").expect(200)).path("items").path(0).path("rules").toString().contains("\"pods\""));

    String review = "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SubjectAccessReview\",\"spec\":{"
        + "\"user\":\"sar-user\",\"resourceAttributes\":{\"namespace\":\"%s\",\"verb\":\"list\",\"resource\":\"pods\"}}}";
    JsonNode yes = json(http.post("/apis/authorization.k8s.io/v1/subjectaccessreviews", review.formatted("kube-public"))
        .expect(201));
    assertThat(yes.at("/status/allowed").asBoolean()).isTrue();
    assertThat(yes.at("/status/reason").asText())
        .isEqualTo("RBAC: allowed by RoleBinding \"sar-view/kube-public\" of ClusterRole \"view\" to User \"sar-user\"");
    JsonNode no = json(http.post("/apis/authorization.k8s.io/v1/subjectaccessreviews", review.formatted("default"))
        .expect(201));
    assertThat(no.at("/status/allowed").asBoolean()).isFalse();
    JsonNode local = json(http.post("/apis/authorization.k8s.io/v1/namespaces/kube-public/localsubjectaccessreviews",
        review.formatted("kube-public").replace("SubjectAccessReview", "LocalSubjectAccessReview")).expect(201));
    assertThat(local.at("/status/allowed").asBoolean()).isTrue();
    http.post("/apis/authorization.k8s.io/v1/namespaces/default/localsubjectaccessreviews",
        review.formatted("kube-public").replace("SubjectAccessReview", "LocalSubjectAccessReview")).expect(400);
    JsonNode invalid = json(http.post("/apis/authorization.k8s.io/v1/subjectaccessreviews",
        "{\"spec\":{\"user\":\"x\"}}").expect(422));
    assertThat(invalid.path("message").asText()).isEqualTo("SubjectAccessReview.authorization.k8s.io \"\" is invalid: "
        + "spec.resourceAttributes: Invalid value: \"null\": exactly one of nonResourceAttributes or "
        + "resourceAttributes must be specified");
  }
}
