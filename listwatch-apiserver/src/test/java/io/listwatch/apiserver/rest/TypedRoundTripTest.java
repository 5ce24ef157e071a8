package io.listwatch.apiserver.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.GenericApiServer;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.admission.AdmissionAttributes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What kube's decoding into its Go types and encoding again does to a stored object: nulls,
 * empty lists and maps and the zero scalars of non-pointer {@code omitempty} fields left out,
 * explicit zeros of pointer fields kept, kube's defaults applied afterwards.
 */
class TypedRoundTripTest {

  private final InMemoryCore core = InMemoryCore.start();
  private final GenericApiServer server = core.server;

  @AfterEach
  void stop() {
    core.close();
  }

  private static ObjectNode json(String s) {
    return InMemoryCore.json(s);
  }

  @Test
  void emptyLabelsAnnotationsAndFinalizers_areLeftOut_onCreateAndWhenAnUpdateEmptiesThem() {
    ResourceStore cms = server.store("", "v1", "configmaps");
    ObjectNode created = cms.create("default", json("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":"
        + "{\"name\":\"a\",\"labels\":{},\"finalizers\":[],\"annotations\":{\"k\":\"v\"}}}"), false,
        AdmissionAttributes.SERVER).join();
    assertThat(created.path("metadata").has("labels")).isFalse();
    assertThat(created.path("metadata").has("finalizers")).isFalse();

    ObjectNode updated = cms.guaranteedUpdate("default", "a", false, false, AdmissionAttributes.SERVER, cm -> {
      ((ObjectNode) cm.at("/metadata/annotations")).remove("k");
      return cm;
    }).join();
    assertThat(updated.path("metadata").has("annotations")).as("no \"annotations\": {}").isFalse();
  }

  @Test
  void endpointsPorts_defaultToTcp() {
    ObjectNode created = server.store("", "v1", "endpoints").create("default", json("{\"apiVersion\":\"v1\","
        + "\"kind\":\"Endpoints\",\"metadata\":{\"name\":\"e\"},\"subsets\":[{\"addresses\":[{\"ip\":\"10.0.0.1\"}],"
        + "\"ports\":[{\"name\":\"http\",\"port\":80},{\"name\":\"dns\",\"port\":53,\"protocol\":\"UDP\"}]}]}"), false, AdmissionAttributes.SERVER).join();

    assertThat(created.at("/subsets/0/ports/0/protocol").asText()).isEqualTo("TCP");
    assertThat(created.at("/subsets/0/ports/1/protocol").asText()).isEqualTo("UDP");
  }

  @Test
  void nullsAndEmptyListsAndMaps_areLeftOut_butFieldsGoAlwaysEncodesStay() {
    String pod = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{"
        + "\"hostname\":null,\"nodeSelector\":{},\"readinessGates\":[],"
        + "\"containers\":[{\"name\":\"c\",\"image\":\"nginx\",\"env\":[],\"args\":[],\"resources\":{}}]}}";
    assertThat(core.send("POST", "/api/v1/namespaces/default/pods", java.util.Map.of(), pod).code()).isEqualTo(201);
    ObjectNode stored = stored("", "pods", "default", "p");
    assertThat(stored.at("/spec").has("hostname")).as("null dropped").isFalse();
    assertThat(stored.at("/spec").has("nodeSelector")).as("empty map dropped").isFalse();
    assertThat(stored.at("/spec").has("readinessGates")).as("empty list dropped").isFalse();
    assertThat(stored.at("/spec/containers/0").has("env")).isFalse();
    assertThat(stored.at("/spec/containers/0").has("args")).isFalse();
    assertThat(stored.at("/spec/containers/0/resources").isObject()).as("an empty struct stays {}").isTrue();

    core.send("POST", "/api/v1/namespaces/default/configmaps", java.util.Map.of(),
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"},\"data\":{}}");
    assertThat(stored("", "configmaps", "default", "c").has("data")).isFalse();

    core.send("POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles", java.util.Map.of(),
        "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\",\"metadata\":{\"name\":\"r\"},"
        + "\"rules\":[]}");
    assertThat(stored("rbac.authorization.k8s.io", "clusterroles", "", "r").path("rules").isArray())
        .as("ClusterRole.rules has no omitempty in kube's types").isTrue();
  }

  @Test
  void zeroScalarsOfNonPointerOmitemptyFields_areLeftOut_andDefaultsThenApply() {
    assertThat(core.send("POST", "/api/v1/namespaces/default/pods", java.util.Map.of(), """
        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"z"},"spec":{"hostNetwork":false,"nodeName":"",
         "volumes":[{"name":"v","configMap":{"name":"x","defaultMode":0}}],
         "containers":[{"name":"c","image":"nginx","stdin":false,"tty":false,"workingDir":"",
          "terminationMessagePath":"","ports":[{"containerPort":80,"hostPort":0,"protocol":""}],
          "volumeMounts":[{"name":"v","mountPath":"/v","readOnly":false}]}]}}""").code()).isEqualTo(201);
    ObjectNode pod = stored("", "pods", "default", "z");
    ObjectNode container = (ObjectNode) pod.at("/spec/containers/0");
    assertThat(container.has("stdin")).isFalse();
    assertThat(container.has("tty")).isFalse();
    assertThat(container.has("workingDir")).isFalse();
    assertThat(pod.at("/spec").has("hostNetwork")).isFalse();
    assertThat(pod.at("/spec").has("nodeName")).isFalse();
    assertThat(container.at("/volumeMounts/0").has("readOnly")).as("VolumeMount.ReadOnly is a bool").isFalse();
    assertThat(container.at("/ports/0").has("hostPort")).isFalse();
    assertThat(container.at("/ports/0/containerPort").asInt()).isEqualTo(80);
    assertThat(pod.at("/spec/volumes/0/configMap/defaultMode").isInt()).as("DefaultMode is an *int32").isTrue();
    assertThat(pod.at("/spec/volumes/0/configMap/defaultMode").asInt()).isZero();
    assertThat(container.at("/terminationMessagePath").asText()).as("left out, then defaulted")
        .isEqualTo("/dev/termination-log");
    assertThat(container.at("/ports/0/protocol").asText()).isEqualTo("TCP");

    assertThat(core.send("POST", "/apis/apps/v1/namespaces/default/deployments", java.util.Map.of(), """
        {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"replicas":0,
         "selector":{"matchLabels":{"app":"d"}},"template":{"metadata":{"labels":{"app":"d"}},
         "spec":{"containers":[{"name":"c","image":"nginx"}]}}}}""").code()).isEqualTo(201);
    ObjectNode deployment = server.store("apps", "v1", "deployments").getInternal("default", "d").join().orElseThrow();
    assertThat(deployment.at("/spec/replicas").isInt()).as("Replicas is an *int32").isTrue();
    assertThat(deployment.at("/spec/replicas").asInt()).isZero();

    assertThat(core.send("POST", "/api/v1/namespaces/default/services", java.util.Map.of(), """
        {"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},"spec":{"type":"","sessionAffinity":"",
         "ports":[{"port":80,"nodePort":0}]}}""").code()).isEqualTo(201);
    ObjectNode service = stored("", "services", "default", "s");
    assertThat(service.at("/spec/sessionAffinity").asText()).as("left out, then defaulted").isEqualTo("None");
    assertThat(service.at("/spec/type").asText()).isEqualTo("ClusterIP");
    assertThat(service.at("/spec/ports/0").has("nodePort")).isFalse();
  }

  private ObjectNode stored(String group, String plural, String namespace, String name) {
    return server.store(group, "v1", plural).getInternal(namespace, name).join().orElseThrow();
  }

  @Test
  void quantities_areStoredInKubesCanonicalForm_andOneThatDoesNotParseIsKubesDecodingError() {
    assertThat(core.send("POST", "/api/v1/namespaces/default/pods", java.util.Map.of(), """
        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"q"},"spec":{"containers":[{"name":"c","image":"nginx",
         "resources":{"requests":{"cpu":"0.5","memory":"1024Mi"},"limits":{"cpu":2,"memory":"1.5Gi"}}}]}}""").code())
        .isEqualTo(201);
    ObjectNode resources = (ObjectNode) stored("", "pods", "default", "q").at("/spec/containers/0/resources");
    assertThat(resources.toString()).isEqualTo(
        "{\"requests\":{\"cpu\":\"500m\",\"memory\":\"1Gi\"},\"limits\":{\"cpu\":\"2\",\"memory\":\"1536Mi\"}}");

    io.listwatch.api.StatusException bad = core.refusal("POST", "/api/v1/namespaces/default/pods", java.util.Map.of(), """
        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"b"},"spec":{"containers":[{"name":"c","image":"nginx",
         "resources":{"requests":{"cpu":"half"}}}]}}""");
    assertThat(bad.code()).isEqualTo(400);
    assertThat(bad.getMessage()).isEqualTo("Pod in version \"v1\" cannot be handled as a Pod: quantities must match the "
        + "regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  }
}
