package io.listwatch.apiserver.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.openapi.FieldValidation.Directive;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FieldValidationTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final FieldValidation.Catalog CATALOG =
      new FieldValidation.Catalog(ProtoSchemas.builtins(PatchMetadata.NONE));
  private static final FieldValidation PODS = CATALOG.forKind("", "v1", "Pod");
  private static final FieldValidation CONFIG_MAPS = CATALOG.forKind("", "v1", "ConfigMap");

  private static final String BAD_POD = """
      {"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","name":"b","labels":{"any":"label"}},
       "spec":{"foo":1,"containers":[{"name":"main","image":"nginx","bar":{"x":1}}]}}""";

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static ObjectNode parse(String s) throws Exception {
    return (ObjectNode) JSON.readTree(s);
  }

  @Test
  void strict_rejectsUnknownAndDuplicateFields_inDocumentOrder_withKubesMessage() throws Exception {
    ObjectNode pod = parse(BAD_POD);

    assertThatThrownBy(() -> PODS.checkObject(Directive.STRICT, bytes(BAD_POD), pod))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.code()).isEqualTo(400);
          assertThat(e.reason()).isEqualTo("BadRequest");
          assertThat(e.getMessage()).isEqualTo("Pod in version \"v1\" cannot be handled as a Pod: strict decoding "
              + "error: duplicate field \"metadata.name\", unknown field \"spec.foo\", "
              + "unknown field \"spec.containers[0].bar\"");
        });
  }

  @Test
  void warn_returnsOneWarningPerField_andPrunesUnknownFields_lastDuplicateWins() throws Exception {
    ObjectNode pod = parse(BAD_POD);

    var warnings = PODS.checkObject(Directive.WARN, bytes(BAD_POD), pod);

    assertThat(warnings).containsExactly("duplicate field \"metadata.name\"", "unknown field \"spec.foo\"",
        "unknown field \"spec.containers[0].bar\"");
    assertThat(pod.path("metadata").path("name").asText()).isEqualTo("b");
    assertThat(pod.path("spec").has("foo")).isFalse();
    assertThat(pod.path("spec").path("containers").get(0).has("bar")).isFalse();
    assertThat(pod.path("spec").path("containers").get(0).path("image").asText()).isEqualTo("nginx");
    assertThat(pod.path("metadata").path("labels").path("any").asText()).isEqualTo("label");
  }

  @Test
  void ignore_saysNothing_butStillPrunes() throws Exception {
    ObjectNode pod = parse(BAD_POD);

    assertThat(PODS.checkObject(Directive.IGNORE, bytes(BAD_POD), pod)).isEmpty();
    assertThat(pod.path("spec").has("foo")).isFalse();
  }

  @Test
  void validBody_passesStrict_unchanged() throws Exception {
    String body = """
        {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","annotations":{"a":"b"},
         "managedFields":[{"manager":"kubectl","fieldsV1":{"f:data":{"f:anything":{}}}}]},
         "data":{"k":"v"},"binaryData":{"b":"AAE="}}""";
    ObjectNode cm = parse(body);

    assertThat(CONFIG_MAPS.checkObject(Directive.STRICT, bytes(body), cm)).isEmpty();
    assertThat(cm).isEqualTo(parse(body));
  }

  @Test
  void patch_strictNamesDuplicatesOfThePatch_andUnknownFieldsOfTheResult() throws Exception {
    String patch = "{\"data\":{\"k\":\"1\",\"k\":\"2\"},\"colour\":\"red\"}";
    ObjectNode patched = parse("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"},"
        + "\"data\":{\"k\":\"2\"},\"colour\":\"red\"}");

    assertThatThrownBy(() -> CONFIG_MAPS.checkPatched(Directive.STRICT, bytes(patch), patched))
        .hasMessage("strict decoding error: duplicate field \"data.k\", unknown field \"colour\"");
    assertThat(CONFIG_MAPS.checkPatched(Directive.WARN, bytes(patch), patched))
        .containsExactly("duplicate field \"data.k\"", "unknown field \"colour\"");
    assertThat(patched.has("colour")).isFalse();
  }

  @Test
  void directive_absentIsWarn_andAnUnknownValueIsInvalid() {
    assertThat(Directive.parse("", "CreateOptions")).isEqualTo(Directive.WARN);
    assertThat(Directive.parse("Strict", "CreateOptions")).isEqualTo(Directive.STRICT);
    assertThat(Directive.parse("Ignore", "CreateOptions")).isEqualTo(Directive.IGNORE);
    assertThatThrownBy(() -> Directive.parse("strict", "PatchOptions"))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.code()).isEqualTo(422);
          assertThat(e.getMessage()).isEqualTo("PatchOptions.meta.k8s.io \"\" is invalid: fieldValidation: "
              + "Unsupported value: \"strict\": supported values: \"Ignore\", \"Strict\", \"Warn\"");
        });
  }

  @Test
  void kindsWithoutASchema_areStoredAsSent_evenUnderStrict() throws Exception {
    String widget = "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"spec\":{\"a\":1,\"a\":2}}";
    ObjectNode object = parse(widget);

    assertThat(CATALOG.forKind("example.com", "v1", "Widget").checkObject(Directive.STRICT, bytes(widget), object))
        .isEmpty();
    assertThat(object).isEqualTo(parse(widget));
  }

  /** Fields from every corner of a pod that Go embeds inline or kube types specially. */
  private static final String RICH_POD = """
      {"apiVersion":"v1","kind":"Pod","metadata":{"name":"rich","namespace":"default","labels":{"a":"b"},
        "creationTimestamp":null,"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs",
        "uid":"u","controller":true}],"finalizers":["x/y"]},
       "spec":{"volumes":[{"name":"cm","configMap":{"name":"settings","items":[{"key":"k","path":"p"}],"defaultMode":420}},
           {"name":"s","secret":{"secretName":"tls","optional":true}},{"name":"tmp","emptyDir":{"sizeLimit":"1Gi"}},
           {"name":"proj","projected":{"sources":[{"configMap":{"name":"c"}},{"secret":{"name":"s"}},
             {"serviceAccountToken":{"path":"token","expirationSeconds":3600}},
             {"downwardAPI":{"items":[{"path":"labels","fieldRef":{"fieldPath":"metadata.labels"}}]}}]}},
           {"name":"host","hostPath":{"path":"/var/log","type":"Directory"}},
           {"name":"claim","persistentVolumeClaim":{"claimName":"data"}}],
         "initContainers":[{"name":"init","image":"busybox","command":["sh","-c","true"]}],
         "containers":[{"name":"main","image":"nginx","ports":[{"name":"http","containerPort":80,"protocol":"TCP"}],
           "env":[{"name":"A","value":"1"},{"name":"B","valueFrom":{"configMapKeyRef":{"name":"c","key":"k","optional":true}}},
             {"name":"C","valueFrom":{"secretKeyRef":{"name":"s","key":"k"}}},
             {"name":"D","valueFrom":{"fieldRef":{"fieldPath":"status.podIP"}}},
             {"name":"E","valueFrom":{"resourceFieldRef":{"containerName":"main","resource":"limits.cpu","divisor":"1m"}}}],
           "envFrom":[{"configMapRef":{"name":"c"},"prefix":"CM_"},{"secretRef":{"name":"s","optional":false}}],
           "resources":{"limits":{"cpu":"500m","memory":"128Mi"},"requests":{"cpu":0.25,"memory":134217728}},
           "livenessProbe":{"httpGet":{"path":"/healthz","port":"http","scheme":"HTTP"},"initialDelaySeconds":3},
           "readinessProbe":{"tcpSocket":{"port":80},"periodSeconds":5},
           "startupProbe":{"exec":{"command":["true"]},"failureThreshold":30},
           "lifecycle":{"preStop":{"sleep":{"seconds":5}},"postStart":{"exec":{"command":["true"]}}},
           "volumeMounts":[{"name":"cm","mountPath":"/etc/cm","readOnly":true,"subPath":"p"}],
           "securityContext":{"runAsNonRoot":true,"capabilities":{"drop":["ALL"]},"allowPrivilegeEscalation":false,
             "seccompProfile":{"type":"RuntimeDefault"}},
           "imagePullPolicy":"IfNotPresent","terminationMessagePolicy":"File"}],
         "affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
           {"matchExpressions":[{"key":"zone","operator":"In","values":["a"]}]}]}},
           "podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":1,"podAffinityTerm":{
             "labelSelector":{"matchLabels":{"a":"b"}},"topologyKey":"kubernetes.io/hostname"}}]}},
         "tolerations":[{"key":"k","operator":"Exists","effect":"NoSchedule","tolerationSeconds":10}],
         "topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule",
           "labelSelector":{"matchExpressions":[{"key":"a","operator":"Exists"}]}}],
         "imagePullSecrets":[{"name":"registry"}],"nodeSelector":{"disk":"ssd"},"restartPolicy":"Always",
         "serviceAccountName":"default","dnsPolicy":"ClusterFirst","terminationGracePeriodSeconds":30,
         "securityContext":{"fsGroup":2000,"sysctls":[{"name":"net.core.somaxconn","value":"1024"}]},
         "overhead":{"cpu":"10m"}},
       "status":{"phase":"Running","podIP":"10.0.0.1","podIPs":[{"ip":"10.0.0.1"}],"startTime":"2026-01-01T00:00:00Z",
         "conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-01-01T00:00:00Z"}],
         "containerStatuses":[{"name":"main","ready":true,"restartCount":0,"image":"nginx","imageID":"x",
           "state":{"running":{"startedAt":"2026-01-01T00:00:00Z"}},"volumeMounts":[{"name":"cm","mountPath":"/etc/cm"}]}]}}""";

  @Test
  void kubesOwnFields_passStrict_acrossAPod() throws Exception {
    assertThat(PODS.checkObject(Directive.STRICT, bytes(RICH_POD), parse(RICH_POD))).isEmpty();
  }

  @Test
  void serviceWithNamedTargetPort_andDeploymentStrategy_passStrict() throws Exception {
    FieldValidation services = CATALOG.forKind("", "v1", "Service");
    FieldValidation deployments = CATALOG.forKind("apps", "v1", "Deployment");
    String service = """
        {"apiVersion":"v1","kind":"Service","metadata":{"name":"web"},"spec":{"type":"ClusterIP","selector":{"app":"web"},
         "ports":[{"name":"http","port":80,"targetPort":"http","protocol":"TCP"},{"port":443,"targetPort":8443}],
         "sessionAffinity":"None","ipFamilies":["IPv4"]}}""";
    String deployment = """
        {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":2,
         "selector":{"matchLabels":{"app":"web"}},"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%",
         "maxUnavailable":0}},"revisionHistoryLimit":10,"template":{"metadata":{"labels":{"app":"web"}},
         "spec":{"containers":[{"name":"main","image":"nginx"}]}}},"status":{"replicas":2,"conditions":[
         {"type":"Available","status":"True","lastUpdateTime":"2026-01-01T00:00:00Z","reason":"MinimumReplicasAvailable"}]}}""";

    assertThat(services.checkObject(Directive.STRICT, bytes(service), parse(service))).isEmpty();
    assertThat(deployments.checkObject(Directive.STRICT, bytes(deployment), parse(deployment))).isEmpty();
  }

  private static final FieldValidation DEPLOYMENTS = CATALOG.forKind("apps", "v1", "Deployment");

  private static String deployment(String replicas, String port, String labels) {
    return """
        {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":%s},
         "spec":{"replicas":%s,"selector":{"matchLabels":{"app":"web"}},
          "strategy":{"rollingUpdate":{"maxSurge":"25%%","maxUnavailable":1}},
          "template":{"metadata":{"labels":{"app":"web"},"creationTimestamp":null},
           "spec":{"containers":[{"name":"main","image":"nginx",
             "resources":{"requests":{"cpu":0.5,"memory":"64Mi"}},"ports":[{"containerPort":%s}]}]}}}}"""
        .formatted(labels, replicas, port);
  }

  private static String typeError(String json) throws Exception {
    ObjectNode object = parse(json);
    try {
      DEPLOYMENTS.checkObject(Directive.IGNORE, bytes(json), object);
      return null;
    } catch (StatusException e) {
      assertThat(e.code()).isEqualTo(400);
      assertThat(e.reason()).isEqualTo("BadRequest");
      return e.getMessage();
    }
  }

  @Test
  void aValueOfTheWrongType_failsWhateverTheDirective_withGosDecodingError() throws Exception {
    String prefix = "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal ";

    assertThat(typeError(deployment("\"two\"", "80", "{}")))
        .isEqualTo(prefix + "string into Go struct field DeploymentSpec.spec.replicas of type int32");
    assertThat(typeError(deployment("2", "\"eighty\"", "{}"))).isEqualTo(prefix
        + "string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32");
    assertThat(typeError(deployment("2", "80", "{\"tier\":1}")))
        .isEqualTo(prefix + "number into Go struct field ObjectMeta.metadata.labels of type string");
    assertThat(typeError(deployment("2.5", "80", "{}")))
        .isEqualTo(prefix + "number 2.5 into Go struct field DeploymentSpec.spec.replicas of type int32");
    assertThat(typeError(deployment("[2]", "80", "{}")))
        .isEqualTo(prefix + "array into Go struct field DeploymentSpec.spec.replicas of type int32");
    assertThat(typeError(deployment("2", "80", "[\"tier\"]")))
        .isEqualTo(prefix + "array into Go struct field ObjectMeta.metadata.labels of type map[string]string");
  }

  @Test
  void wellTypedValues_nullsIntOrStringAndNumericQuantities_pass() throws Exception {
    assertThat(typeError(deployment("2", "80", "{\"tier\":\"web\"}"))).isNull();
    assertThat(typeError(deployment("null", "80", "null"))).isNull();
  }
}
