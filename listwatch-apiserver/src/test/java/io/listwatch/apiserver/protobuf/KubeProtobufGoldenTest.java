package io.listwatch.apiserver.protobuf;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.kubernetes.client.proto.IntStr;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Resource;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import java.io.ByteArrayOutputStream;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Golden bytes: what the server writes for a few objects, compared with bytes built from kube's
 * generated classes (client-java-proto) and kube's documented encoding rules, not from our encoder:
 * the envelope is {@code k8s\0} then a runtime.Unknown (typeMeta apiVersion and kind, raw, and
 * the empty contentEncoding and contentType, which kube writes); a Time is written with seconds
 * and nanos, an IntOrString with all of type, intVal and strVal; map entries in key order; a list
 * is ListMeta (selfLink, resourceVersion, continue written even when empty) then its items; a
 * watch event on a stream is its length (4 bytes, big-endian) then a WatchEvent whose object is
 * the object's envelope.
 */
class KubeProtobufGoldenTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final byte[] MAGIC = {'k', '8', 's', 0};

  private static byte[] envelope(String apiVersion, String kind, Message object) {
    Runtime.Unknown unknown = Runtime.Unknown.newBuilder()
        .setTypeMeta(Runtime.TypeMeta.newBuilder().setApiVersion(apiVersion).setKind(kind))
        .setRaw(object.toByteString())
        .setContentEncoding("")
        .setContentType("")
        .build();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(MAGIC);
    out.writeBytes(unknown.toByteArray());
    return out.toByteArray();
  }

  private static JsonNode json(String text) throws Exception {
    return JSON.readTree(text);
  }

  private static Meta.Time time(String rfc3339) {
    return Meta.Time.newBuilder().setSeconds(Instant.parse(rfc3339).getEpochSecond()).setNanos(0).build();
  }

  private static final String POD = """
      {"apiVersion":"v1","kind":"Pod",
       "metadata":{"name":"web","namespace":"default","uid":"0d1f","resourceVersion":"42",
         "creationTimestamp":"2024-05-01T10:20:30Z","labels":{"tier":"front","app":"web"}},
       "spec":{"containers":[{"name":"main","image":"nginx:1.27",
         "ports":[{"name":"http","containerPort":8080,"protocol":"TCP"}],
         "resources":{"limits":{"memory":"128Mi","cpu":"500m"},"requests":{"cpu":"100m"}},
         "readinessProbe":{"httpGet":{"path":"/healthz","port":8080}},
         "livenessProbe":{"httpGet":{"path":"/","port":"http"}}}]}}
      """;

  private static V1.Pod podMessage() {
    return V1.Pod.newBuilder()
        .setMetadata(Meta.ObjectMeta.newBuilder().setName("web").setNamespace("default").setUid("0d1f")
            .setResourceVersion("42").setCreationTimestamp(time("2024-05-01T10:20:30Z"))
            .putLabels("app", "web").putLabels("tier", "front"))
        .setSpec(V1.PodSpec.newBuilder().addContainers(V1.Container.newBuilder().setName("main")
            .setImage("nginx:1.27")
            .addPorts(V1.ContainerPort.newBuilder().setName("http").setContainerPort(8080).setProtocol("TCP"))
            .setResources(V1.ResourceRequirements.newBuilder()
                .putLimits("cpu", Resource.Quantity.newBuilder().setString("500m").build())
                .putLimits("memory", Resource.Quantity.newBuilder().setString("128Mi").build())
                .putRequests("cpu", Resource.Quantity.newBuilder().setString("100m").build()))
            .setLivenessProbe(V1.Probe.newBuilder().setHandler(V1.ProbeHandler.newBuilder()
                .setHttpGet(V1.HTTPGetAction.newBuilder().setPath("/")
                    .setPort(IntStr.IntOrString.newBuilder().setType(1).setIntVal(0).setStrVal("http")))))
            .setReadinessProbe(V1.Probe.newBuilder().setHandler(V1.ProbeHandler.newBuilder()
                .setHttpGet(V1.HTTPGetAction.newBuilder().setPath("/healthz")
                    .setPort(IntStr.IntOrString.newBuilder().setType(0).setIntVal(8080).setStrVal("")))))))
        .build();
  }

  @Test
  void pod_withQuantitiesIntOrStringPortsAndCreationTimestamp_isKubesBytes() throws Exception {
    assertThat(KubeProtobuf.encode(json(POD))).isEqualTo(envelope("v1", "Pod", podMessage()));
  }

  @Test
  void configMap_withDataAndBinaryData_isKubesBytes() throws Exception {
    String cm = """
        {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings","namespace":"team-a"},
         "data":{"mode":"fast","color":"blue"},"binaryData":{"blob":"AAEC/w=="},"immutable":true}
        """;
    V1.ConfigMap expected = V1.ConfigMap.newBuilder()
        .setMetadata(Meta.ObjectMeta.newBuilder().setName("settings").setNamespace("team-a"))
        .putData("color", "blue").putData("mode", "fast")
        .putBinaryData("blob", ByteString.copyFrom(new byte[] {0, 1, 2, (byte) 0xff}))
        .setImmutable(true)
        .build();

    assertThat(KubeProtobuf.encode(json(cm))).isEqualTo(envelope("v1", "ConfigMap", expected));
  }

  @Test
  void namespace_isKubesBytes() throws Exception {
    String ns = """
        {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"foo","creationTimestamp":"2024-05-01T10:20:30Z"},
         "spec":{"finalizers":["kubernetes"]},"status":{"phase":"Active"}}
        """;
    V1.Namespace expected = V1.Namespace.newBuilder()
        .setMetadata(Meta.ObjectMeta.newBuilder().setName("foo").setCreationTimestamp(time("2024-05-01T10:20:30Z")))
        .setSpec(V1.NamespaceSpec.newBuilder().addFinalizers("kubernetes"))
        .setStatus(V1.NamespaceStatus.newBuilder().setPhase("Active"))
        .build();

    assertThat(KubeProtobuf.encode(json(ns))).isEqualTo(envelope("v1", "Namespace", expected));
  }

  @Test
  void list_isListMetaThenItems_inTheListKindsEnvelope() throws Exception {
    byte[] a = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}".getBytes();
    byte[] b = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\"},\"data\":{\"k\":\"v\"}}"
        .getBytes();
    V1.ConfigMapList expected = V1.ConfigMapList.newBuilder()
        .setMetadata(Meta.ListMeta.newBuilder().setSelfLink("").setResourceVersion("77").setContinue("tok")
            .setRemainingItemCount(3))
        .addItems(V1.ConfigMap.newBuilder().setMetadata(Meta.ObjectMeta.newBuilder().setName("a")))
        .addItems(V1.ConfigMap.newBuilder().setMetadata(Meta.ObjectMeta.newBuilder().setName("b")).putData("k", "v"))
        .build();

    byte[] list = KubeProtobuf.encodeList("v1", "ConfigMapList", 77, "tok", 3L,
        List.of(KubeProtobuf.encode(a), KubeProtobuf.encode(b)));

    assertThat(list).isEqualTo(envelope("v1", "ConfigMapList", expected));
  }

  @Test
  void watchEvent_isLengthPrefixedWatchEvent_holdingTheObjectsEnvelope() throws Exception {
    byte[] pod = JSON.writeValueAsBytes(json(POD));
    byte[] event = Meta.WatchEvent.newBuilder().setType("MODIFIED")
        .setObject(Runtime.RawExtension.newBuilder().setRaw(ByteString.copyFrom(envelope("v1", "Pod", podMessage()))))
        .build().toByteArray();

    byte[][] frame = io.listwatch.apiserver.cacher.WatchEncodingAccess.protobufEvent("MODIFIED", pod);

    assertThat(frame[0]).containsExactly(0, 0, (event.length >>> 8) & 0xff, event.length & 0xff);
    assertThat(frame[1]).isEqualTo(event);
  }

  @Test
  void status_isMetaV1StatusInTheV1Envelope() throws Exception {
    String status = """
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"pods \\"x\\" not found","reason":"NotFound","details":{"name":"x","kind":"pods"},"code":404}
        """;
    Meta.Status expected = Meta.Status.newBuilder().setMetadata(Meta.ListMeta.newBuilder()).setStatus("Failure")
        .setMessage("pods \"x\" not found").setReason("NotFound")
        .setDetails(Meta.StatusDetails.newBuilder().setName("x").setKind("pods")).setCode(404)
        .build();

    assertThat(KubeProtobuf.encode(json(status))).isEqualTo(envelope("v1", "Status", expected));
  }
}
