package io.listwatch.server.http;

import static io.listwatch.server.http.KubeHttp.assertFailureStatus;
import static io.listwatch.server.http.KubeHttp.configMap;
import static io.listwatch.server.http.KubeHttp.names;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.ContinueToken;
import io.listwatch.server.ApiServer;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import io.listwatch.server.testing.ApiServerExtension;

/**
 * Requests a fuzzer found answered with 500, each now answered as kube answers it, with nothing
 * changed by the refused ones.
 */
@ExtendWith(ApiServerExtension.class)
class BadInputStatusTest {

  private static ApiServer server;
  private static KubeHttp http;
  private static String ns;

  @BeforeAll
  static void connect(ApiServer started) {
    server = started;
    http = new KubeHttp(server);
    ns = http.createNamespace("bad-input");
  }

  @AfterAll
  static void disconnect() {
    http.close();
  }

  private static String cms() {
    return "/api/v1/namespaces/" + ns + "/configmaps";
  }

  private static String pods() {
    return "/api/v1/namespaces/" + ns + "/pods";
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Go decodes a null field as its zero value: {@code "metadata": null} is no metadata, so no name. */
  @Test
  void nullMetadata_isNoMetadata_422NameRequired() {
    JsonNode status = assertFailureStatus(http.send("POST", cms(), "application/json",
        bytes("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":null}")), 422, "Invalid");
    assertThat(status.at("/details/causes/0/field").asText()).isEqualTo("metadata.name");
  }

  /** A null list element is its type's zero value: an empty container, not a null the server trips on. */
  @Test
  void nullContainer_isAnEmptyContainer_notA500() {
    KubeHttp.Response r = http.send("POST", pods(), "application/json", bytes(
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"null-container\"},\"spec\":{\"containers\":[null]}}"));
    assertThat(r.code()).as(r.body()).isLessThan(500);
    if (r.code() == 201) {
      assertThat(r.json().at("/spec/containers/0").isObject()).isTrue();
    }
  }

  /**
   * A list element without its merge key ({@code name}, {@code containerPort}, {@code uid}):
   * as kube's UpdateNoErrors, the field manager's failure clears managedFields and fails nothing.
   */
  @Test
  void listElementsWithoutTheirMergeKey_areNot500() {
    KubeHttp.Response noName = http.send("POST", pods(), "application/json", bytes(
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"no-name\"},\"spec\":{\"containers\":[{\"image\":\"x\"}]}}"));
    assertThat(noName.code()).as(noName.body()).isLessThan(500);
    KubeHttp.Response noPort = http.send("POST", pods(), "application/json", bytes(
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"no-port\"},\"spec\":{\"containers\":"
            + "[{\"name\":\"c\",\"image\":\"x\",\"ports\":[{\"name\":\"http\"}]}]}}"));
    assertThat(noPort.code()).as(noPort.body()).isLessThan(500);
    KubeHttp.Response noUid = http.send("POST", cms(), "application/json", bytes(
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"no-uid\",\"ownerReferences\":"
            + "[{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"name\":\"x\"}]}}"));
    assertThat(noUid.code()).as(noUid.body()).isLessThan(500);
    if (noUid.code() == 201) {
      assertThat(noUid.json().at("/metadata/managedFields").isMissingNode()).isTrue();
    }
  }

  /** A forged continue token pointing into another namespace: 400, not a range the store refuses. */
  @Test
  void aContinueTokenFromOutsideTheNamespace_is400() {
    http.create(cms(), configMap("listed"));
    String forged = new ContinueToken(1, "zzz-other/x").encode();
    JsonNode status = assertFailureStatus(http.get(cms() + "?limit=1&continue=" + forged), 400, "BadRequest");
    assertThat(status.path("message").asText()).startsWith("invalid continue token: continue key is not valid: ");
    String before = new ContinueToken(1, "aaa-other/x").encode();
    assertFailureStatus(http.get(cms() + "?limit=1&continue=" + before), 400, "BadRequest");
  }

  /** kube's key functions: a name that is no path segment is 400; one with NUL cannot exist, 404. */
  @Test
  void namesThatCannotBeStored_are400or404_asKube() {
    JsonNode percent = assertFailureStatus(http.get(cms() + "/a%252Fb"), 400, "BadRequest");
    assertThat(percent.path("message").asText()).isEqualTo("Name parameter invalid: \"a%2Fb\": may not contain '%'");
    assertFailureStatus(http.get(cms() + "/a%00b"), 404, "NotFound");
    assertFailureStatus(http.delete(cms() + "/a%00b"), 404, "NotFound");
    assertFailureStatus(http.get("/api/v1/namespaces/a%00b/configmaps/x"), 404, "NotFound");
    assertFailureStatus(http.get(cms() + "/.."), 400, "BadRequest");
  }

  /** A path is decoded once, as Go's URL.Path: %2531 is the three characters %31, not a 1. */
  @Test
  void pathSegments_areDecodedOnce() {
    http.create(cms(), configMap("dd1"));
    JsonNode status = assertFailureStatus(http.get(cms() + "/dd%2531"), 400, "BadRequest");
    assertThat(status.path("message").asText()).contains("\"dd%31\"");
    assertThat(http.get(cms() + "/dd%31").expect(200).at("/metadata/name").asText()).isEqualTo("dd1");
  }

  /** A request target with a lone '%': a 400 Status, not a connection closed without an answer. */
  @Test
  void aMalformedEscapeInTheTarget_is400() throws Exception {
    java.net.URI uri = java.net.URI.create(server.url());
    try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
      socket.setSoTimeout((int) KubeHttp.WAIT.toMillis());
      OutputStream out = socket.getOutputStream();
      InputStream in = socket.getInputStream();
      RawHttp.writeGet(out, "/%");
      Map<String, String> head = RawHttp.readHead(in);
      assertThat(head.get("")).startsWith("HTTP/1.1 400");
    }
  }

  /** k copies of an array into itself would build 2^k elements: the patch stops at kube's copy limit, 422. */
  @Test
  void jsonPatchCopyAmplification_is422_andChangesNothing() {
    http.create(cms(), configMap("amplified", Map.of(), Map.of("k", "v")));
    StringBuilder ops = new StringBuilder("[{\"op\":\"add\",\"path\":\"/metadata/annotations\",\"value\":{}},"
        + "{\"op\":\"add\",\"path\":\"/metadata/finalizers\",\"value\":[\"example.com/" + "x".repeat(60) + "\"]}");
    for (int k = 0; k < 28; k++) {
      ops.append(",{\"op\":\"copy\",\"from\":\"/metadata/finalizers\",\"path\":\"/metadata/finalizers/-\"}");
    }
    KubeHttp.Response r = http.send("PATCH", cms() + "/amplified", "application/json-patch+json",
        bytes(ops.append("]").toString()));
    JsonNode status = assertFailureStatus(r, 422, "Invalid");
    assertThat(status.at("/details/causes/0/message").asText())
        .startsWith("Unable to complete the copy, the accumulated size increase of copy is ");
    assertThat(http.get(cms() + "/amplified").expect(200).at("/metadata/finalizers").isMissingNode()).isTrue();
    assertThat(names(http.list(cms()))).contains("amplified");
  }
}
