package io.listwatch.apiserver.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.registry.ResourceRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube's LimitRanger: the cases of kube's limitranger admission_test.go (TestMergePodResourceRequirements,
 * TestPodLimitFunc, TestPersistentVolumeClaimLimitFunc), with the messages kube's constraint functions write.
 */
class LimitRangerTest {

  private static final ResourceRegistry REGISTRY = ResourceRegistry.builtins();
  private static final ResourceDefinition PODS = REGISTRY.find("", "v1", "pods").orElseThrow();
  private static final ResourceDefinition CLAIMS = REGISTRY.find("", "v1", "persistentvolumeclaims").orElseThrow();

  /** kube's validLimitRange(): Pod 50m-200m / 2Mi-4Gi; Container 25m-100m / 1Mi-2Gi, defaults 75m/10Mi, requests 50m/5Mi. */
  private static final String VALID = """
      {"metadata":{"name":"abc","namespace":"test"},"spec":{"limits":[
        {"type":"Pod","max":{"cpu":"200m","memory":"4Gi"},"min":{"cpu":"50m","memory":"2Mi"}},
        {"type":"Container","max":{"cpu":"100m","memory":"2Gi"},"min":{"cpu":"25m","memory":"1Mi"},
         "default":{"cpu":"75m","memory":"10Mi"},"defaultRequest":{"cpu":"50m","memory":"5Mi"}}]}}""";

  /** Listers that hold {@code ranges} as the namespace's LimitRanges. */
  static Listers limitRanges(String... ranges) {
    List<ObjectNode> items = java.util.Arrays.stream(ranges).map(InMemoryCore::json).toList();
    return new ListersByPlural(plural -> plural.equals("limitranges") ? items : List.of());
  }

  /** One LimitRange with one item of {@code type} and the given maps (JSON objects or empty). */
  private static String range(String type, String item) {
    return "{\"metadata\":{\"name\":\"abc\",\"namespace\":\"test\"},\"spec\":{\"limits\":[{\"type\":\"" + type + "\""
        + (item.isEmpty() ? "" : "," + item) + "}]}}";
  }

  /** A pod of {@code containers} containers foo-0, foo-1, ... with {@code resources}, and init containers. */
  private static ObjectNode pod(int containers, String resources, String... initResources) {
    StringBuilder spec = new StringBuilder("{\"containers\":[");
    for (int i = 0; i < containers; i++) {
      spec.append(i == 0 ? "" : ",").append("{\"name\":\"foo-").append(i).append("\",\"image\":\"foo\",\"resources\":")
          .append(resources).append('}');
    }
    spec.append("],\"initContainers\":[");
    for (int i = 0; i < initResources.length; i++) {
      spec.append(i == 0 ? "" : ",").append("{\"name\":\"init-").append(i).append("\",\"image\":\"foo\",\"resources\":")
          .append(initResources[i]).append('}');
    }
    return InMemoryCore.json("{\"metadata\":{\"name\":\"p\",\"namespace\":\"test\"},\"spec\":" + spec + "]}}");
  }

  private static AdmissionAttributes create(ResourceDefinition def, ObjectNode obj) {
    return new AdmissionAttributes(AdmissionAttributes.Operation.CREATE, def, "", "test",
        obj.path("metadata").path("name").asText(), obj, null, AdmissionAttributes.SERVER, false);
  }

  /** The reason the plug-in refuses {@code a} in its validating phase, or null when it lets it through. */
  private static String refusal(LimitRanger plugin, AdmissionAttributes a) {
    CompletionException e = catchThrowableOfType(CompletionException.class, () -> plugin.validate(a).join());
    if (e == null) {
      return null;
    }
    StatusException status = (StatusException) e.getCause();
    assertThat(status.code()).isEqualTo(403);
    return status.getMessage();
  }

  @Test
  void defaults_fillWhatAContainerLacks_andAnnotateThePod() {
    LimitRanger plugin = new LimitRanger(limitRanges(VALID));
    ObjectNode empty = pod(1, "{}");
    plugin.admit(create(PODS, empty));
    assertThat(empty.at("/spec/containers/0/resources")).isEqualTo(InMemoryCore.json(
        "{\"requests\":{\"cpu\":\"50m\",\"memory\":\"5Mi\"},\"limits\":{\"cpu\":\"75m\",\"memory\":\"10Mi\"}}"));
    assertThat(empty.at("/metadata/annotations").path(LimitRanger.ANNOTATION).asText()).isEqualTo(
        "LimitRanger plugin set: cpu, memory request for container foo-0; cpu, memory limit for container foo-0");

    ObjectNode some = pod(1, "{\"requests\":{\"memory\":\"512Mi\"}}", "{\"requests\":{\"cpu\":\"10m\",\"memory\":\"1Mi\"},"
        + "\"limits\":{\"cpu\":\"20m\"}}");
    plugin.admit(create(PODS, some));
    assertThat(some.at("/spec/containers/0/resources/requests")).isEqualTo(
        InMemoryCore.json("{\"memory\":\"512Mi\",\"cpu\":\"50m\"}"));
    assertThat(some.at("/metadata/annotations").path(LimitRanger.ANNOTATION).asText()).isEqualTo(
        "LimitRanger plugin set: cpu request for container foo-0; cpu, memory limit for container foo-0; "
            + "memory limit for init container init-0");

    ObjectNode all = pod(1, "{\"requests\":{\"cpu\":\"100m\",\"memory\":\"512Mi\"},\"limits\":{\"cpu\":\"200m\",\"memory\":\"1G\"}}");
    plugin.admit(create(PODS, all));
    assertThat(all.path("metadata").has("annotations")).as("nothing set, no annotation").isFalse();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      ctr-min-cpu-request          | Container | "min":{"cpu":"50m"}                    | {"requests":{"cpu":"100m"}}
      ctr-min-memory-request-limit | Container | "min":{"memory":"50Mi"}                | {"requests":{"memory":"60Mi"},"limits":{"memory":"100Mi"}}
      ctr-max-cpu-request-limit    | Container | "max":{"cpu":"2"}                      | {"requests":{"cpu":"500m"},"limits":{"cpu":"1"}}
      ctr-max-cpu-ratio            | Container | "maxLimitRequestRatio":{"cpu":"1.5"}   | {"requests":{"cpu":"500m"},"limits":{"cpu":"750m"}}
      pod-min-cpu-request          | Pod       | "min":{"cpu":"100m"}                   | {"requests":{"cpu":"75m"}}
      pod-max-cpu-request-limit    | Pod       | "max":{"cpu":"2"}                      | {"requests":{"cpu":"500m"},"limits":{"cpu":"1"}}
      """)
  void podsWithinTheirRange_pass(String name, String type, String item, String resources) {
    assertThat(refusal(new LimitRanger(limitRanges(range(type, item))), create(PODS, pod(2, resources)))).isNull();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      ctr-min-cpu-request     | Container | "min":{"cpu":"100m"}                 | {"requests":{"cpu":"50m"}}                          | minimum cpu usage per Container is 100m, but request is 50m
      ctr-min-cpu-no-request  | Container | "min":{"cpu":"100m"}                 | {}                                                  | minimum cpu usage per Container is 100m.  No request is specified
      ctr-min-cpu-limit       | Container | "min":{"cpu":"100m"}                 | {"requests":{"cpu":"100m"},"limits":{"cpu":"0.05"}} | minimum cpu usage per Container is 100m, but limit is 50m
      ctr-max-mem-limit       | Container | "max":{"memory":"1Gi"}               | {"limits":{"memory":"2Gi"}}                         | maximum memory usage per Container is 1Gi, but limit is 2Gi
      ctr-max-mem-no-limit    | Container | "max":{"memory":"1Gi"}               | {"requests":{"memory":"512Mi"}}                     | maximum memory usage per Container is 1Gi.  No limit is specified
      ctr-max-mem-request     | Container | "max":{"memory":"1Gi"}               | {"requests":{"memory":"1536Mi"},"limits":{"memory":"1Gi"}} | maximum memory usage per Container is 1Gi, but request is 1536Mi
      ctr-ratio-no-request    | Container | "maxLimitRequestRatio":{"cpu":"2"}   | {"limits":{"cpu":"1"}}                              | cpu max limit to request ratio per Container is 2, but no request is specified or request is 0
      ctr-ratio-no-limit      | Container | "maxLimitRequestRatio":{"cpu":"2"}   | {"requests":{"cpu":"1"}}                            | cpu max limit to request ratio per Container is 2, but no limit is specified or limit is 0
      ctr-ratio-over          | Container | "maxLimitRequestRatio":{"cpu":"1.5"} | {"requests":{"cpu":"500m"},"limits":{"cpu":"1"}}    | cpu max limit to request ratio per Container is 1500m, but provided ratio is 2.000000
      pod-min-memory          | Pod       | "min":{"memory":"100Mi"}             | {"requests":{"memory":"40Mi"}}                      | minimum memory usage per Pod is 100Mi, but request is 80Mi
      pod-max-cpu             | Pod       | "max":{"cpu":"1"}                    | {"requests":{"cpu":"500m"},"limits":{"cpu":"600m"}} | maximum cpu usage per Pod is 1, but limit is 1200m
      """)
  void podsOutOfTheirRange_areForbidden(String name, String type, String item, String resources, String reason) {
    assertThat(refusal(new LimitRanger(limitRanges(range(type, item))), create(PODS, pod(2, resources))))
        .isEqualTo("pods \"p\" is forbidden: " + reason);
  }

  @Test
  void severalBreaches_areOneAggregateMessage() {
    String item = "\"min\":{\"cpu\":\"100m\"},\"max\":{\"memory\":\"1Gi\"}";
    assertThat(refusal(new LimitRanger(limitRanges(range("Container", item))),
        create(PODS, pod(1, "{\"requests\":{\"cpu\":\"50m\"},\"limits\":{\"memory\":\"2Gi\"}}"))))
        .isEqualTo("pods \"p\" is forbidden: [minimum cpu usage per Container is 100m, but request is 50m, "
            + "maximum memory usage per Container is 1Gi, but limit is 2Gi]");
  }

  @Test
  void initContainers_count_alone_andAsThePodsLeastNeed() {
    LimitRanger containers = new LimitRanger(limitRanges(range("Container", "\"max\":{\"cpu\":\"1\"}")));
    assertThat(refusal(containers, create(PODS, pod(1, "{\"limits\":{\"cpu\":\"1\"}}", "{\"limits\":{\"cpu\":\"2\"}}"))))
        .isEqualTo("pods \"p\" is forbidden: maximum cpu usage per Container is 1, but limit is 2");
    LimitRanger pods = new LimitRanger(limitRanges(range("Pod", "\"max\":{\"cpu\":\"2\"}")));
    assertThat(refusal(pods, create(PODS, pod(2, "{\"limits\":{\"cpu\":\"500m\"}}", "{\"limits\":{\"cpu\":\"2\"}}"))))
        .as("the init container's 2 is the pod's least").isNull();
    assertThat(refusal(pods, create(PODS, pod(2, "{\"limits\":{\"cpu\":\"500m\"}}", "{\"limits\":{\"cpu\":\"3\"}}"))))
        .isEqualTo("pods \"p\" is forbidden: maximum cpu usage per Pod is 2, but limit is 3");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
      within           | "min":{"storage":"1Gi"},"max":{"storage":"10Gi"} | 5Gi   | -
      below-min        | "min":{"storage":"1Gi"}                          | 500Mi | minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi
      above-max        | "max":{"storage":"10Gi"}                         | 20Gi  | maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi
      """)
  void claims_requestWithinMinAndMax(String name, String item, String storage, String reason) {
    ObjectNode claim = InMemoryCore.json("{\"metadata\":{\"name\":\"c\"},\"spec\":{\"accessModes\":[\"ReadWriteOnce\"],"
        + "\"resources\":{\"requests\":{\"storage\":\"" + storage + "\"}}}}");
    String refused = refusal(new LimitRanger(limitRanges(range("PersistentVolumeClaim", item))), create(CLAIMS, claim));
    assertThat(refused).isEqualTo(reason == null ? null : "persistentvolumeclaims \"c\" is forbidden: " + reason);
  }

  @Test
  void podUpdates_andSubresources_areNotChecked() {
    LimitRanger plugin = new LimitRanger(limitRanges(range("Container", "\"min\":{\"cpu\":\"1\"}")));
    ObjectNode pod = pod(1, "{}");
    AdmissionAttributes update = new AdmissionAttributes(AdmissionAttributes.Operation.UPDATE, PODS, "", "test", "p",
        pod, pod.deepCopy(), AdmissionAttributes.SERVER, false);
    assertThat(refusal(plugin, update)).isNull();
    AdmissionAttributes status = new AdmissionAttributes(AdmissionAttributes.Operation.CREATE, PODS, "binding", "test",
        "p", pod, null, AdmissionAttributes.SERVER, false);
    assertThat(refusal(plugin, status)).isNull();
  }

  /** Through the core: a LimitRange's defaults reach the stored pod, and its bounds refuse a create. */
  @Test
  void endToEnd_defaultsAreStored_andBoundsRefuse() {
    try (InMemoryCore core = InMemoryCore.start()) {
      core.server.store("", "v1", "limitranges").createInternal("default", InMemoryCore.json("""
          {"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"limits"},"spec":{"limits":[
            {"type":"Container","max":{"memory":"1Gi"},"default":{"cpu":"200m","memory":"256Mi"},
             "defaultRequest":{"cpu":"100m"}}]}}""")).join();
      io.listwatch.testsupport.Await.until("the cache has the LimitRange", java.time.Duration.ofSeconds(10),
          () -> !core.server.cacher("", "limitranges").list("default", io.listwatch.api.ListOptions.parse(
              Map.of("resourceVersion", List.of("0")))).join().items().isEmpty());
      String body = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s\"},\"spec\":{\"containers\":"
          + "[{\"name\":\"web\",\"image\":\"nginx\"%s}]}}";
      core.send("POST", "/api/v1/namespaces/default/pods", Map.of(), body.formatted("web", ""));
      ObjectNode stored = core.server.store("", "v1", "pods").getInternal("default", "web").join().orElseThrow();
      assertThat(stored.at("/spec/containers/0/resources")).isEqualTo(InMemoryCore.json(
          "{\"requests\":{\"cpu\":\"100m\",\"memory\":\"256Mi\"},\"limits\":{\"cpu\":\"200m\",\"memory\":\"256Mi\"}}"));
      assertThat(stored.at("/metadata/annotations/kubernetes.io~1limit-ranger").asText()).isEqualTo(
          "LimitRanger plugin set: cpu, memory request for container web; cpu, memory limit for container web");

      StatusException refused = core.refusal("POST", "/api/v1/namespaces/default/pods", Map.of(),
          body.formatted("big", ",\"resources\":{\"limits\":{\"memory\":\"2Gi\"}}"));
      assertThat(refused.code()).isEqualTo(403);
      assertThat(refused.getMessage()).isEqualTo(
          "pods \"big\" is forbidden: maximum memory usage per Container is 1Gi, but limit is 2Gi");
    }
  }
}
