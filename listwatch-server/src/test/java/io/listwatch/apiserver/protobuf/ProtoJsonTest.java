package io.listwatch.apiserver.protobuf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import io.kubernetes.client.proto.IntStr;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Apps;
import io.listwatch.api.StatusException;
import org.junit.jupiter.api.Test;

/** JSON -> protobuf -> JSON keeps every object; kube's special types have kube's JSON forms. */
class ProtoJsonTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode roundTrip(String json) throws Exception {
    return KubeProtobuf.decodeAny(KubeProtobuf.encode(JSON.readTree(json)));
  }

  private static void assertRoundTrips(String json) throws Exception {
    assertThat(roundTrip(json)).isEqualTo(JSON.readTree(json));
  }

  @Test
  void deployment_withIntOrStringPercentages_andReplicasZero_roundTrips() throws Exception {
    assertRoundTrips("""
        {"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web","namespace":"default",
          "generation":3,"labels":{"app":"web"},"annotations":{"a":"b"},
          "ownerReferences":[{"apiVersion":"v1","kind":"Thing","name":"t","uid":"u","controller":true}]},
         "spec":{"replicas":0,"selector":{"matchLabels":{"app":"web"}},
          "strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":1}},
          "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"nginx","image":"nginx",
            "env":[{"name":"K","valueFrom":{"configMapKeyRef":{"name":"cm","key":"k"}}}],
            "securityContext":{"allowPrivilegeEscalation":false},
            "resources":{}}],"volumes":[{"name":"data","emptyDir":{"sizeLimit":"1Gi"}}]}}},
         "status":{"replicas":2,"conditions":[{"type":"Available","status":"True",
          "lastTransitionTime":"2024-05-01T10:20:30Z"}]}}
        """);
  }

  @Test
  void lease_withMicroTimes_roundTrips() throws Exception {
    assertRoundTrips("""
        {"kind":"Lease","apiVersion":"coordination.k8s.io/v1","metadata":{"name":"leader","namespace":"kube-system"},
         "spec":{"holderIdentity":"a","leaseDurationSeconds":15,
          "acquireTime":"2024-05-01T10:20:30.000000Z","renewTime":"2024-05-01T10:20:31.123456Z"}}
        """);
  }

  @Test
  void secret_bytesAreBase64_andManagedFieldsKeepTheirRawJson() throws Exception {
    assertRoundTrips("""
        {"kind":"Secret","apiVersion":"v1","metadata":{"name":"s","namespace":"default",
          "managedFields":[{"manager":"kubectl","operation":"Update","apiVersion":"v1",
            "time":"2024-05-01T10:20:30Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{".":{},"f:a":{}}}}]},
         "data":{"a":"Yg==","empty":""},"type":"Opaque"}
        """);
  }

  @Test
  void controllerRevision_rawExtensionHoldsEmbeddedJson() throws Exception {
    assertRoundTrips("""
        {"kind":"ControllerRevision","apiVersion":"apps/v1","metadata":{"name":"r1","namespace":"default"},
         "data":{"spec":{"template":{"x":[1,2,{"y":null}]}}},"revision":2}
        """);
  }

  @Test
  void probesAndVolumes_inlineTheirGoEmbeddedStructs() throws Exception {
    String pod = """
        {"kind":"Pod","apiVersion":"v1","metadata":{"name":"p"},"spec":{"containers":[{"name":"c",
          "livenessProbe":{"exec":{"command":["true"]},"periodSeconds":5}}],
          "volumes":[{"name":"v","secret":{"secretName":"s"}}]}}
        """;
    V1.Pod message = V1.Pod.parseFrom(io.listwatch.apiserver.protobuf.Envelope.unwrap(
        KubeProtobuf.encode(JSON.readTree(pod))).raw());

    assertThat(message.getSpec().getContainers(0).getLivenessProbe().getHandler().getExec().getCommand(0))
        .isEqualTo("true");
    assertThat(message.getSpec().getVolumes(0).getVolumeSource().getSecret().getSecretName()).isEqualTo("s");
    assertRoundTrips(pod);
  }

  @Test
  void kubesZeroFields_areLeftOut_butPointerZerosKept() throws Exception {
    // what Go's generated code writes for a Deployment kubectl builds: every non-pointer field, zero
    // or not (generateName "", an empty creationTimestamp for the zero time), and replicas: 0
    V1Apps.Deployment d = V1Apps.Deployment.newBuilder()
        .setMetadata(Meta.ObjectMeta.newBuilder().setName("web").setGenerateName("").setNamespace("")
            .setCreationTimestamp(Meta.Time.newBuilder()))
        .setSpec(V1Apps.DeploymentSpec.newBuilder().setReplicas(0).setPaused(false)
            .setStrategy(V1Apps.DeploymentStrategy.newBuilder()))
        .build();
    byte[] body = envelope("apps/v1", "Deployment", d.toByteArray());

    JsonNode json = KubeProtobuf.decode(body, "apps/v1", "Deployment");

    assertThat(json).isEqualTo(JSON.readTree("""
        {"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web"},
         "spec":{"replicas":0,"paused":false,"strategy":{}}}
        """));
  }

  @Test
  void intOrString_typeSaysWhichValue() throws Exception {
    V1.ServicePort port = V1.ServicePort.newBuilder().setPort(80)
        .setTargetPort(IntStr.IntOrString.newBuilder().setType(1).setIntVal(0).setStrVal("http")).build();
    V1.Service svc = V1.Service.newBuilder().setMetadata(Meta.ObjectMeta.newBuilder().setName("s"))
        .setSpec(V1.ServiceSpec.newBuilder().addPorts(port)
            .addPorts(port.toBuilder().setPort(81).setTargetPort(IntStr.IntOrString.newBuilder().setIntVal(8080))))
        .build();

    JsonNode json = KubeProtobuf.decode(envelope("v1", "Service", svc.toByteArray()), "v1", "Service");

    assertThat(json.at("/spec/ports/0/targetPort").asText()).isEqualTo("http");
    assertThat(json.at("/spec/ports/1/targetPort").isInt()).isTrue();
    assertThat(json.at("/spec/ports/1/targetPort").intValue()).isEqualTo(8080);
  }

  @Test
  void rawExtension_holdingAProtobufObject_isDecodedToItsJson() throws Exception {
    byte[] cm = KubeProtobuf.encode(JSON.readTree(
        "{\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"c\"},\"data\":{\"k\":\"v\"}}"));
    V1Apps.ControllerRevision rev = V1Apps.ControllerRevision.newBuilder()
        .setMetadata(Meta.ObjectMeta.newBuilder().setName("r"))
        .setData(Runtime.RawExtension.newBuilder().setRaw(ByteString.copyFrom(cm))).setRevision(1).build();

    JsonNode json = KubeProtobuf.decode(envelope("apps/v1", "ControllerRevision", rev.toByteArray()), "apps/v1",
        "ControllerRevision");

    assertThat(json.at("/data/data/k").asText()).isEqualTo("v");
    assertThat(json.at("/data/kind").asText()).isEqualTo("ConfigMap");
  }

  @Test
  void roleBindingAndAccessReview_asKubectlSendsThem_readAsTheirJson() throws Exception {
    // Go writes a subject's empty apiGroup and namespace; kube's JSON leaves them out
    io.kubernetes.client.proto.V1Rbac.RoleBinding rb = io.kubernetes.client.proto.V1Rbac.RoleBinding.newBuilder()
        .setMetadata(Meta.ObjectMeta.newBuilder().setName("rb").setNamespace(""))
        .addSubjects(io.kubernetes.client.proto.V1Rbac.Subject.newBuilder().setKind("User").setApiGroup("")
            .setName("alice").setNamespace(""))
        .setRoleRef(io.kubernetes.client.proto.V1Rbac.RoleRef.newBuilder()
            .setApiGroup("rbac.authorization.k8s.io").setKind("ClusterRole").setName("view"))
        .build();
    io.kubernetes.client.proto.V1Authorization.SelfSubjectAccessReview review =
        io.kubernetes.client.proto.V1Authorization.SelfSubjectAccessReview.newBuilder()
            .setSpec(io.kubernetes.client.proto.V1Authorization.SelfSubjectAccessReviewSpec.newBuilder()
                .setResourceAttributes(io.kubernetes.client.proto.V1Authorization.ResourceAttributes.newBuilder()
                    .setNamespace("team-a").setVerb("list").setGroup("").setResource("pods")))
            .build();

    JsonNode rbJson = KubeProtobuf.decode(envelope("rbac.authorization.k8s.io/v1", "RoleBinding", rb.toByteArray()),
        "rbac.authorization.k8s.io/v1", "RoleBinding");
    JsonNode reviewJson = KubeProtobuf.decode(envelope("authorization.k8s.io/v1", "SelfSubjectAccessReview",
        review.toByteArray()), "authorization.k8s.io/v1", "SelfSubjectAccessReview");

    assertThat(rbJson.path("subjects")).isEqualTo(JSON.readTree("[{\"kind\":\"User\",\"name\":\"alice\"}]"));
    assertThat(rbJson.at("/roleRef/name").asText()).isEqualTo("view");
    assertThat(reviewJson.at("/spec/resourceAttributes")).isEqualTo(JSON.readTree(
        "{\"namespace\":\"team-a\",\"verb\":\"list\",\"resource\":\"pods\"}"));
  }

  @Test
  void badBodies_are400s() {
    byte[] notEnvelope = "{\"kind\":\"ConfigMap\"}".getBytes();
    byte[] truncated = java.util.Arrays.copyOf(envelope("v1", "ConfigMap",
        V1.ConfigMap.newBuilder().setMetadata(Meta.ObjectMeta.newBuilder().setName("a")).build().toByteArray()), 12);
    byte[] otherKind = envelope("v1", "Secret", new byte[0]);

    for (byte[] body : new byte[][] {notEnvelope, truncated, otherKind}) {
      assertThat(catchThrowableOfType(StatusException.class, () -> KubeProtobuf.decode(body, "v1", "ConfigMap"))
          .code()).isEqualTo(400);
    }
  }

  @Test
  void customResourceKinds_haveNoProtobufForm() {
    assertThat(KubeProtobuf.supports("v1", "Pod")).isTrue();
    assertThat(KubeProtobuf.supports("rbac.authorization.k8s.io/v1", "ClusterRole")).isTrue();
    assertThat(KubeProtobuf.supports("apps.example.com/v1", "Deployment")).isFalse();
    assertThat(KubeProtobuf.supports("stable.example.com/v1", "CronTab")).isFalse();
  }

  private static byte[] envelope(String apiVersion, String kind, byte[] raw) {
    return new Envelope(apiVersion, kind, raw).toBytes();
  }
}
