package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.V1;
import io.listwatch.server.ApiServer;
import io.listwatch.apiserver.protobuf.Envelope;
import io.listwatch.server.testing.ApiServerExtension;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * kube's protobuf encoding over HTTP/1.1, as client-go in protobuf mode speaks it: bodies in the
 * envelope, answers in protobuf when the Accept header prefers it, and watches as length-prefixed
 * WatchEvents. Expectations are read with kube's generated classes.
 */
@ExtendWith(ApiServerExtension.class)
class ProtobufEncodingTest {

  private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";
  /** What client-go sends in protobuf mode. */
  private static final String CLIENT_GO_ACCEPT = PROTOBUF + ", */*";
  private static final Duration WAIT = Duration.ofSeconds(15);

  private static String base;
  private static HttpClient client;
  private static KubeHttp json;

  @BeforeAll
  static void setUp(ApiServer server) {
    base = server.url();
    client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(WAIT).build();
    json = new KubeHttp(server);
  }

  @AfterAll
  static void tearDown() {
    client.shutdownNow();
    json.close();
  }

  private static HttpResponse<byte[]> send(String method, String path, String accept, byte[] protobufBody)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(WAIT).header("Accept", accept)
        .method(method, protobufBody == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(protobufBody));
    if (protobufBody != null) {
      b.header("Content-Type", PROTOBUF);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private static byte[] configMapBody(String name, String key, String value) {
    V1.ConfigMap cm = V1.ConfigMap.newBuilder()
        .setMetadata(Meta.ObjectMeta.newBuilder().setName(name).setGenerateName("").setNamespace("")
            .setCreationTimestamp(Meta.Time.newBuilder())) // Go's zero time, as client-go writes it
        .putData(key, value).build();
    return new Envelope("v1", "ConfigMap", cm.toByteArray()).toBytes();
  }

  private static Envelope envelopeOf(HttpResponse<byte[]> r) {
    assertThat(r.headers().firstValue("content-type")).contains(PROTOBUF);
    return Envelope.unwrap(r.body());
  }

  @Test
  void create_fromProtobuf_answersProtobuf_andStoresTheObject() throws Exception {
    String ns = json.createNamespace("pb");

    HttpResponse<byte[]> created = send("POST", "/api/v1/namespaces/" + ns + "/configmaps", CLIENT_GO_ACCEPT,
        configMapBody("settings", "mode", "fast"));

    assertThat(created.statusCode()).isEqualTo(201);
    Envelope e = envelopeOf(created);
    assertThat(e.apiVersion()).isEqualTo("v1");
    assertThat(e.kind()).isEqualTo("ConfigMap");
    V1.ConfigMap cm = V1.ConfigMap.parseFrom(e.raw());
    assertThat(cm.getMetadata().getNamespace()).isEqualTo(ns);
    assertThat(cm.getMetadata().getUid()).isNotEmpty();
    assertThat(cm.getMetadata().getCreationTimestamp().getSeconds()).isPositive();
    assertThat(cm.getDataMap()).containsEntry("mode", "fast");
    // the same object in JSON, as a JSON client reads it
    var stored = json.get("/api/v1/namespaces/" + ns + "/configmaps/settings").expect(200);
    assertThat(stored.at("/data/mode").asText()).isEqualTo("fast");
    assertThat(stored.at("/metadata/generateName").isMissingNode()).isTrue();
  }

  @Test
  void getAndList_followTheAcceptOrder() throws Exception {
    String ns = json.createNamespace("pb");
    json.create("/api/v1/namespaces/" + ns + "/configmaps", KubeHttp.configMap("a"));
    json.create("/api/v1/namespaces/" + ns + "/configmaps", KubeHttp.configMap("b"));

    HttpResponse<byte[]> one = send("GET", "/api/v1/namespaces/" + ns + "/configmaps/a", CLIENT_GO_ACCEPT, null);
    HttpResponse<byte[]> list = send("GET", "/api/v1/namespaces/" + ns + "/configmaps", PROTOBUF, null);
    HttpResponse<byte[]> jsonFirst = send("GET", "/api/v1/namespaces/" + ns + "/configmaps/a",
        "application/json, " + PROTOBUF, null);

    assertThat(V1.ConfigMap.parseFrom(envelopeOf(one).raw()).getMetadata().getName()).isEqualTo("a");
    Envelope listEnvelope = envelopeOf(list);
    assertThat(listEnvelope.kind()).isEqualTo("ConfigMapList");
    V1.ConfigMapList items = V1.ConfigMapList.parseFrom(listEnvelope.raw());
    assertThat(items.getItemsList()).extracting(c -> c.getMetadata().getName()).containsExactly("a", "b");
    assertThat(Long.parseLong(items.getMetadata().getResourceVersion())).isPositive();
    assertThat(jsonFirst.headers().firstValue("content-type")).contains("application/json");
  }

  @Test
  void errors_areProtobufStatus_whenProtobufIsPreferred() throws Exception {
    HttpResponse<byte[]> r = send("GET", "/api/v1/namespaces/default/configmaps/absent", CLIENT_GO_ACCEPT, null);

    assertThat(r.statusCode()).isEqualTo(404);
    Envelope e = envelopeOf(r);
    assertThat(e.kind()).isEqualTo("Status");
    Meta.Status s = Meta.Status.parseFrom(e.raw());
    assertThat(s.getCode()).isEqualTo(404);
    assertThat(s.getReason()).isEqualTo("NotFound");
    assertThat(s.getDetails().getName()).isEqualTo("absent");
  }

  @Test
  void badProtobufBody_is400Status_andCreatesNothing() throws Exception {
    String ns = json.createNamespace("pb");
    byte[] good = configMapBody("broken", "k", "v");
    byte[] truncated = java.util.Arrays.copyOf(good, good.length - 3);

    HttpResponse<byte[]> r = send("POST", "/api/v1/namespaces/" + ns + "/configmaps", "application/json", truncated);

    assertThat(r.statusCode()).isEqualTo(400);
    var status = KubeHttp.JSON.readTree(r.body());
    assertThat(status.path("kind").asText()).isEqualTo("Status");
    assertThat(status.path("reason").asText()).isEqualTo("BadRequest");
    assertThat(KubeHttp.names(json.list("/api/v1/namespaces/" + ns + "/configmaps"))).isEmpty();
  }

  @Test
  void delete_withProtobufDeleteOptions_honoursPreconditions() throws Exception {
    String ns = json.createNamespace("pb");
    json.create("/api/v1/namespaces/" + ns + "/configmaps", KubeHttp.configMap("doomed"));
    String path = "/api/v1/namespaces/" + ns + "/configmaps/doomed";
    byte[] wrongUid = new Envelope("v1", "DeleteOptions", Meta.DeleteOptions.newBuilder()
        .setPreconditions(Meta.Preconditions.newBuilder().setUid("not-its-uid")).build().toByteArray()).toBytes();
    byte[] plain = new Envelope("v1", "DeleteOptions", Meta.DeleteOptions.newBuilder().build().toByteArray())
        .toBytes();

    HttpResponse<byte[]> refused = send("DELETE", path, CLIENT_GO_ACCEPT, wrongUid);
    assertThat(refused.statusCode()).isEqualTo(409);
    assertThat(Meta.Status.parseFrom(envelopeOf(refused).raw()).getReason()).isEqualTo("Conflict");
    json.get(path).expect(200);

    assertThat(send("DELETE", path, CLIENT_GO_ACCEPT, plain).statusCode()).isEqualTo(200);
    assertThat(json.get(path).code()).isEqualTo(404);
  }

  @Test
  void watch_streamsLengthPrefixedWatchEvents() throws Exception {
    String ns = json.createNamespace("pb");
    json.create("/api/v1/namespaces/" + ns + "/configmaps", KubeHttp.configMap("first"));
    HttpRequest req = HttpRequest.newBuilder(URI.create(base + "/api/v1/namespaces/" + ns
        + "/configmaps?watch=true&resourceVersion=0&timeoutSeconds=30")) // the server ends it by itself
        .header("Accept", CLIENT_GO_ACCEPT).GET().build();
    HttpResponse<InputStream> r = client.sendAsync(req, HttpResponse.BodyHandlers.ofInputStream())
        .get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    try (DataInputStream in = new DataInputStream(r.body())) {
      assertThat(r.headers().firstValue("content-type")).contains(PROTOBUF + ";stream=watch");

      assertThat(nextEvent(in)).isEqualTo("ADDED first");
      json.create("/api/v1/namespaces/" + ns + "/configmaps", KubeHttp.configMap("second"));
      assertThat(nextEvent(in)).isEqualTo("ADDED second");
      json.mergePatch("/api/v1/namespaces/" + ns + "/configmaps/second", KubeHttp.object("{\"data\":{\"x\":\"1\"}}"))
          .expect(200);
      assertThat(nextEvent(in)).isEqualTo("MODIFIED second x=1");
      json.delete("/api/v1/namespaces/" + ns + "/configmaps/first").expect(200);
      assertThat(nextEvent(in)).isEqualTo("DELETED first");
    }
  }

  /** Reads one frame as client-go does: length, WatchEvent, then the object's envelope. */
  private static String nextEvent(DataInputStream in) throws IOException {
    int length = in.readInt();
    byte[] frame = in.readNBytes(length);
    Meta.WatchEvent event = Meta.WatchEvent.parseFrom(frame);
    Envelope object = Envelope.unwrap(event.getObject().getRaw().toByteArray());
    assertThat(object.kind()).isEqualTo("ConfigMap");
    V1.ConfigMap cm = V1.ConfigMap.parseFrom(ByteString.copyFrom(object.raw()));
    String data = cm.getDataMap().containsKey("x") ? " x=" + cm.getDataMap().get("x") : "";
    return event.getType() + " " + cm.getMetadata().getName() + data;
  }
}
