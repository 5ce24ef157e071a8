package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.registry.ResourceRegistry;
import org.junit.jupiter.api.Test;

/**
 * The {@link RestStrategy#defaults} of the built-in kinds, found as the store finds them
 * ({@link BuiltinStrategies}). Expected values are kube's SetDefaults_* for each kind, as
 * documented in its API reference.
 */
class BuiltinDefaultsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static ObjectNode defaulted(String group, String plural, String json) throws Exception {
    ResourceDefinition def = ResourceRegistry.builtins().find(group, "v1", plural).orElseThrow();
    ObjectNode obj = (ObjectNode) JSON.readTree(json);
    BuiltinStrategies.forResource(def).defaults(obj);
    return obj;
  }

  @Test
  void deployment_getsReplicasRollingUpdateLimits_andItsPodTemplateDefaults() throws Exception {
    JsonNode d = defaulted("apps", "deployments", """
        {"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},
         "spec":{"containers":[{"name":"web","image":"nginx:1.27","ports":[{"containerPort":80}]}]}}}}""");

    assertThat(d.at("/spec/replicas").asInt()).isEqualTo(1);
    assertThat(d.at("/spec/strategy").toString())
        .isEqualTo("{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":\"25%\",\"maxSurge\":\"25%\"}}");
    assertThat(d.at("/spec/revisionHistoryLimit").asInt()).isEqualTo(10);
    assertThat(d.at("/spec/progressDeadlineSeconds").asInt()).isEqualTo(600);
    JsonNode pod = d.at("/spec/template/spec");
    assertThat(pod.path("restartPolicy").asText()).isEqualTo("Always");
    assertThat(pod.path("terminationGracePeriodSeconds").asInt()).isEqualTo(30);
    assertThat(pod.path("dnsPolicy").asText()).isEqualTo("ClusterFirst");
    assertThat(pod.path("schedulerName").asText()).isEqualTo("default-scheduler");
    assertThat(pod.path("securityContext").isObject()).isTrue();
    JsonNode c = pod.path("containers").get(0);
    assertThat(c.path("imagePullPolicy").asText()).isEqualTo("IfNotPresent");
    assertThat(c.path("terminationMessagePath").asText()).isEqualTo("/dev/termination-log");
    assertThat(c.path("terminationMessagePolicy").asText()).isEqualTo("File");
    assertThat(c.at("/ports/0/protocol").asText()).isEqualTo("TCP");
    assertThat(c.path("resources").isObject()).isTrue();
    assertThat(pod.has("enableServiceLinks")).as("a Pod's own default, not a template's").isFalse();
  }

  @Test
  void pod_getsRequestsFromLimits_andServiceLinks_whichTemplatesDoNot() throws Exception {
    JsonNode p = defaulted("", "pods", """
        {"spec":{"containers":[{"name":"a","image":"x","resources":{"limits":{"cpu":"1","memory":"1Gi"},
         "requests":{"cpu":"500m"}}}],"initContainers":[{"name":"i","image":"x","resources":{"limits":{"cpu":"2"}}}]}}""");

    assertThat(p.at("/spec/containers/0/resources/requests").toString())
        .as("a request given is kept; a missing one is the limit").isEqualTo("{\"cpu\":\"500m\",\"memory\":\"1Gi\"}");
    assertThat(p.at("/spec/initContainers/0/resources/requests/cpu").asText()).isEqualTo("2");
    assertThat(p.at("/spec/enableServiceLinks").asBoolean()).isTrue();
  }

  @Test
  void whatTheClientSet_isKept() throws Exception {
    JsonNode d = defaulted("apps", "deployments", """
        {"spec":{"replicas":0,"strategy":{"type":"Recreate"},"revisionHistoryLimit":2,
         "template":{"spec":{"restartPolicy":"Always","dnsPolicy":"Default",
           "containers":[{"name":"c","image":"nginx","imagePullPolicy":"Never"}]}}}}""");

    assertThat(d.at("/spec/replicas").asInt()).isZero();
    assertThat(d.at("/spec/strategy").toString()).isEqualTo("{\"type\":\"Recreate\"}");
    assertThat(d.at("/spec/revisionHistoryLimit").asInt()).isEqualTo(2);
    assertThat(d.at("/spec/template/spec/dnsPolicy").asText()).isEqualTo("Default");
    assertThat(d.at("/spec/template/spec/containers/0/imagePullPolicy").asText()).isEqualTo("Never");
  }

  @Test
  void job_completionsAndParallelism_defaultTogether_elseParallelismAlone() throws Exception {
    JsonNode plain = defaulted("batch", "jobs", "{\"spec\":{\"template\":{\"spec\":{\"restartPolicy\":\"Never\"}}}}");
    JsonNode parallel = defaulted("batch", "jobs", "{\"spec\":{\"parallelism\":3}}");

    assertThat(plain.at("/spec/completions").asInt()).isEqualTo(1);
    assertThat(plain.at("/spec/parallelism").asInt()).isEqualTo(1);
    assertThat(plain.at("/spec/backoffLimit").asInt()).isEqualTo(6);
    assertThat(plain.at("/spec/completionMode").asText()).isEqualTo("NonIndexed");
    assertThat(plain.at("/spec/suspend").asBoolean(true)).isFalse();
    assertThat(plain.at("/spec/podReplacementPolicy").asText()).isEqualTo("TerminatingOrFailed");
    assertThat(plain.at("/spec/template/spec/restartPolicy").asText()).isEqualTo("Never");
    assertThat(parallel.at("/spec").has("completions")).isFalse();
    assertThat(parallel.at("/spec/parallelism").asInt()).isEqualTo(3);
  }

  @Test
  void serviceSecretAndVolumes_getTheirDefaults() throws Exception {
    JsonNode svc = defaulted("", "services", "{\"spec\":{\"ports\":[{\"port\":80},{\"port\":53,\"protocol\":\"UDP\",\"targetPort\":\"dns\"}]}}");
    JsonNode secret = defaulted("", "secrets", "{\"data\":{}}");
    JsonNode pod = defaulted("", "pods", """
        {"spec":{"containers":[{"name":"c","image":"busybox"}],
         "volumes":[{"name":"s","secret":{"secretName":"x"}},{"name":"c","configMap":{"name":"y","defaultMode":256}}]}}""");

    assertThat(svc.at("/spec/type").asText()).isEqualTo("ClusterIP");
    assertThat(svc.at("/spec/sessionAffinity").asText()).isEqualTo("None");
    assertThat(svc.at("/spec/internalTrafficPolicy").asText()).isEqualTo("Cluster");
    assertThat(svc.at("/spec/ports/0").toString()).isEqualTo("{\"port\":80,\"protocol\":\"TCP\",\"targetPort\":80}");
    assertThat(svc.at("/spec/ports/1/targetPort").asText()).isEqualTo("dns");
    assertThat(secret.path("type").asText()).isEqualTo("Opaque");
    assertThat(pod.at("/spec/volumes/0/secret/defaultMode").asInt()).isEqualTo(420);
    assertThat(pod.at("/spec/volumes/1/configMap/defaultMode").asInt()).isEqualTo(256);
  }
}
