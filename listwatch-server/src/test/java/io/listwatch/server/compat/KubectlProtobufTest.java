package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.testsupport.EndToEnd;
import org.junit.jupiter.api.Test;

/**
 * kubectl's typed {@code create} commands, which send their objects as kube protobuf
 * ({@code Content-Type: application/vnd.kubernetes.protobuf}) and ask for protobuf answers: each
 * object lands as the user asked, and kubectl prints what kube's kubectl prints.
 */
@EndToEnd
class KubectlProtobufTest extends KubectlAgainstServer {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode stored(String path) throws Exception {
    return JSON.readTree(api.expect(200, "GET", path, null, null));
  }

  @Test
  void createNamespace_isStored() throws Exception {
    assertThat(kubectl.ok("create", "namespace", "foo").stdout().strip()).isEqualTo("namespace/foo created");

    assertThat(stored("/api/v1/namespaces/foo").at("/metadata/name").asText()).isEqualTo("foo");
    assertThat(kubectl.ok("get", "namespace", "foo").names()).containsExactly("foo");
  }

  @Test
  void createConfigMapAndSecret_keepTheirData() throws Exception {
    kubectl.ok("create", "namespace", "pb-data");

    assertThat(kubectl.ok("create", "configmap", "x", "--from-literal=a=b", "-n", "pb-data").stdout().strip())
        .isEqualTo("configmap/x created");
    assertThat(kubectl.ok("create", "secret", "generic", "s", "--from-literal=a=b", "-n", "pb-data").stdout().strip())
        .isEqualTo("secret/s created");

    assertThat(stored("/api/v1/namespaces/pb-data/configmaps/x").at("/data/a").asText()).isEqualTo("b");
    JsonNode secret = stored("/api/v1/namespaces/pb-data/secrets/s");
    assertThat(secret.at("/data/a").asText()).isEqualTo("Yg=="); // base64 of "b", as kube stores it
    assertThat(kubectl.ok("get", "configmap", "x", "-n", "pb-data", "-o", "jsonpath={.data.a}").stdout())
        .isEqualTo("b");
  }

  @Test
  void createServiceAccount_isStored() throws Exception {
    kubectl.ok("create", "namespace", "pb-sa");

    assertThat(kubectl.ok("create", "serviceaccount", "sa", "-n", "pb-sa").stdout().strip())
        .isEqualTo("serviceaccount/sa created");

    assertThat(stored("/api/v1/namespaces/pb-sa/serviceaccounts/sa").at("/metadata/name").asText()).isEqualTo("sa");
  }

  @Test
  void createDeployment_keepsReplicasSelectorAndContainer() throws Exception {
    kubectl.ok("create", "namespace", "pb-deploy");

    assertThat(kubectl.ok("create", "deployment", "web", "--image=nginx", "-n", "pb-deploy").stdout().strip())
        .isEqualTo("deployment.apps/web created");

    JsonNode d = stored("/apis/apps/v1/namespaces/pb-deploy/deployments/web");
    assertThat(d.at("/spec/replicas").asInt()).isEqualTo(1);
    assertThat(d.at("/spec/selector/matchLabels/app").asText()).isEqualTo("web");
    assertThat(d.at("/spec/template/metadata/labels/app").asText()).isEqualTo("web");
    assertThat(d.at("/spec/template/spec/containers/0/image").asText()).isEqualTo("nginx");
    assertThat(d.at("/spec/template/spec/containers/0/name").asText()).isEqualTo("nginx");
    assertThat(d.at("/spec/template/metadata/creationTimestamp").isMissingNode())
        .as("Go's zero time is left out, as kube's JSON has it as null").isTrue();
  }

  @Test
  void createServiceClusterIp_keepsPortsAndTargetPortAsANumber() throws Exception {
    kubectl.ok("create", "namespace", "pb-svc");

    assertThat(kubectl.ok("create", "service", "clusterip", "svc", "--tcp=80:8080", "-n", "pb-svc").stdout().strip())
        .isEqualTo("service/svc created");

    JsonNode port = stored("/api/v1/namespaces/pb-svc/services/svc").at("/spec/ports/0");
    assertThat(port.path("port").asInt()).isEqualTo(80);
    assertThat(port.path("targetPort").isInt()).as("an IntOrString of type 0 is a JSON number").isTrue();
    assertThat(port.path("targetPort").asInt()).isEqualTo(8080);
    assertThat(port.path("protocol").asText()).isEqualTo("TCP");
    assertThat(port.path("name").asText()).isEqualTo("80-8080");
  }

  @Test
  void createRoleBinding_andAuthCanI_stillWork() throws Exception {
    kubectl.ok("create", "namespace", "pb-rbac");

    assertThat(kubectl.ok("create", "rolebinding", "rb", "--clusterrole=view", "--user=alice", "-n", "pb-rbac")
        .stdout().strip()).isEqualTo("rolebinding.rbac.authorization.k8s.io/rb created");
    assertThat(kubectl.ok("auth", "can-i", "list", "pods", "-n", "pb-rbac").stdout().strip()).isEqualTo("yes");

    JsonNode rb = stored("/apis/rbac.authorization.k8s.io/v1/namespaces/pb-rbac/rolebindings/rb");
    assertThat(rb.at("/subjects/0/name").asText()).isEqualTo("alice");
    assertThat(rb.at("/subjects/0/kind").asText()).isEqualTo("User");
    assertThat(rb.at("/roleRef/name").asText()).isEqualTo("view");
  }
}
