package io.listwatch.server.http;

import static io.listwatch.server.http.KubeHttp.assertFailureStatus;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A compressed request body is never expanded: as kube-apiserver, the server reads the bytes
 * as sent, so a gzip bomb (16 MiB of JSON in 16 KiB) costs what it weighs on the wire and is
 * refused as the bytes it is, 400, creating nothing.
 */
@ExtendWith(ApiServerExtension.class)
class CompressedRequestBodyTest {

  @Test
  void aGzipBomb_isReadAsItsBytes_400_andCreatesNothing(ApiServer server) throws Exception {
    StringBuilder json = new StringBuilder("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"bomb\"},"
        + "\"data\":{\"k\":\"");
    byte[] bomb = gzip(json, 16 << 20);
    assertThat(bomb.length).isLessThan(64 << 10);
    HttpClient client = HttpClient.newHttpClient();
    HttpResponse<String> r = client.send(HttpRequest.newBuilder(
            URI.create(server.url() + "/api/v1/namespaces/default/configmaps"))
        .header("Content-Type", "application/json").header("Content-Encoding", "gzip")
        .timeout(KubeHttp.WAIT).POST(HttpRequest.BodyPublishers.ofByteArray(bomb)).build(),
        HttpResponse.BodyHandlers.ofString());
    JsonNode status = assertFailureStatus(new KubeHttp.Response(r.statusCode(), r.headers(), r.body()), 400,
        "BadRequest");
    assertThat(status.path("message").asText()).isNotEmpty();
    try (KubeHttp http = new KubeHttp(server)) {
      assertThat(http.get("/api/v1/namespaces/default/configmaps/bomb").code()).isEqualTo(404);
    }
  }

  /** {@code prefix}, then 'a' up to {@code size} bytes, then the JSON's end, gzipped. */
  private static byte[] gzip(StringBuilder prefix, int size) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
      gz.write(prefix.toString().getBytes(StandardCharsets.UTF_8));
      byte[] chunk = "a".repeat(64 * 1024).getBytes(StandardCharsets.US_ASCII);
      for (int written = prefix.length(); written < size; written += chunk.length) {
        gz.write(chunk);
      }
      gz.write("\"}}".getBytes(StandardCharsets.UTF_8));
    }
    return bytes.toByteArray();
  }
}
