package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.features.FeatureGates;
import io.listwatch.apiserver.protobuf.KubeProtobuf;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * kube's API response compression: an answer over 128 KiB goes out gzip-compressed when the
 * request's {@code Accept-Encoding} names gzip as kube reads it, and inflates to exactly the
 * answer a client that does not ask gets; small answers, watches, and a server with the gate
 * off answer plain.
 */
@ExtendWith(ApiServerExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ResponseCompressionTest {

  private static final String NS = "gzip";
  private static final String CMS = "/api/v1/namespaces/" + NS + "/configmaps";
  private final HttpClient http1 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(KubeHttp.WAIT).build();

  /** 160 ConfigMaps of about 1 KB each: a list of them is about 200 KB, over kube's threshold. */
  @BeforeAll
  void manyConfigMaps(ApiServer server) {
    try (KubeHttp http = new KubeHttp(server)) {
      http.post("/api/v1/namespaces", KubeHttp.object("{\"metadata\":{\"name\":\"" + NS + "\"}}")).expect(201);
      for (int i = 0; i < 160; i++) {
        http.create(CMS, KubeHttp.configMap("cm-" + i, Map.of(), Map.of("pad", "p".repeat(1_000) + i)));
      }
      ObjectNode big = KubeHttp.configMap("big", Map.of(), Map.of("pad", "b".repeat(300_000)));
      http.create(CMS, big);
    }
  }

  @AfterAll
  void closeClient() {
    http1.close();
  }

  private HttpResponse<byte[]> get(HttpClient client, ApiServer server, String path, String accept,
      String acceptEncoding) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(java.net.URI.create(server.url() + path)).timeout(KubeHttp.WAIT)
        .header("Accept", accept);
    if (acceptEncoding != null) {
      b.header("Accept-Encoding", acceptEncoding);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private static byte[] gunzip(byte[] body) throws IOException {
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
      return in.readAllBytes();
    }
  }

  /** Asserts {@code r} is a gzip answer of the plain {@code expected}, and much shorter. */
  private static void assertGzipOf(HttpResponse<byte[]> r, byte[] expected) throws IOException {
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Encoding")).hasValue("gzip");
    assertThat(r.headers().allValues("Vary")).contains("Accept-Encoding");
    assertThat(r.headers().firstValue("Content-Length")).isEmpty();
    assertThat(gunzip(r.body())).isEqualTo(expected);
    assertThat(r.body().length).as("compressed").isLessThan(expected.length / 4);
  }

  private static void assertPlain(HttpResponse<byte[]> r) {
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Encoding")).isEmpty();
    assertThat(r.body()).isNotEmpty();
    assertThat(r.body()[0]).as("not gzip's magic").isNotEqualTo((byte) 0x1f);
  }

  @Test
  void aListOver128KiB_forAClientThatAsksForGzip_isCompressed_andInflatesToThePlainList(ApiServer server)
      throws Exception {
    HttpResponse<byte[]> plain = get(http1, server, CMS, "application/json", null);
    assertPlain(plain);
    assertThat(plain.body().length).isGreaterThan(ResponseCompression.THRESHOLD_BYTES);

    HttpResponse<byte[]> gzipped = get(http1, server, CMS, "application/json", "gzip");

    assertGzipOf(gzipped, plain.body());
    assertThat(gzipped.headers().firstValue("Content-Type")).hasValue("application/json");
    // go's and OkHttp's own header, with another encoding first
    assertGzipOf(get(http1, server, CMS, "application/json", "deflate, gzip"), plain.body());
  }

  @Test
  void aProtobufList_andOneLargeObject_areCompressedToo(ApiServer server) throws Exception {
    HttpResponse<byte[]> plain = get(http1, server, CMS, KubeProtobuf.MEDIA_TYPE, null);
    assertPlain(plain);
    HttpResponse<byte[]> gzipped = get(http1, server, CMS, KubeProtobuf.MEDIA_TYPE, "gzip");
    assertGzipOf(gzipped, plain.body());
    assertThat(gzipped.headers().firstValue("Content-Type")).hasValue(KubeProtobuf.MEDIA_TYPE);

    HttpResponse<byte[]> object = get(http1, server, CMS + "/big", "application/json", null);
    assertPlain(object);
    assertGzipOf(get(http1, server, CMS + "/big", "application/json", "gzip"), object.body());
  }

  @Test
  void overHttp2_aLargeListIsCompressedAlike(ApiServer server) throws Exception {
    try (HttpClient http2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
        .connectTimeout(KubeHttp.WAIT).build()) {
      HttpResponse<byte[]> plain = get(http2, server, CMS, "application/json", null);
      HttpResponse<byte[]> gzipped = get(http2, server, CMS, "application/json", "gzip");

      assertThat(gzipped.version()).isEqualTo(HttpClient.Version.HTTP_2);
      assertGzipOf(gzipped, plain.body());
    }
  }

  @Test
  void aSmallAnswer_orAHeaderKubeDoesNotReadAsGzip_isAnsweredPlain(ApiServer server) throws Exception {
    HttpResponse<byte[]> one = get(http1, server, CMS + "/cm-1", "application/json", "gzip");
    assertPlain(one);
    assertThat(one.headers().firstValue("Content-Length")).hasValue(Integer.toString(one.body().length));
    // kube takes the entry "gzip" only as it is: a quality, another case or another coding is not it
    for (String header : new String[] {"gzip;q=1.0", "GZIP", "br", "identity", "x-gzip"}) {
      assertPlain(get(http1, server, CMS, "application/json", header));
    }
  }

  @Test
  void aWatch_isNeverCompressed_evenWhenItsInitialEventsAreLong(ApiServer server) throws Exception {
    HttpResponse<InputStream> watch = http1.send(HttpRequest.newBuilder(
            java.net.URI.create(server.url() + CMS + "?watch=true&resourceVersion=0"))
        .header("Accept-Encoding", "gzip").timeout(KubeHttp.WAIT).build(), HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream body = watch.body()) {
      assertThat(watch.statusCode()).isEqualTo(200);
      assertThat(watch.headers().firstValue("Content-Encoding")).isEmpty();
      byte[] start = body.readNBytes(200_000); // more than the threshold, of the 161 initial events
      assertThat(new String(start, 0, 20, StandardCharsets.UTF_8)).startsWith("{\"type\":\"ADDED\"");
    }
  }

  @Test
  void withTheGateOff_noAnswerIsCompressed(@TempDir Path dataDir) throws Exception {
    try (ApiServer off = ApiServer.builder().dataDir(dataDir)
        .featureGates(FeatureGates.parse("APIResponseCompression=false")).build().start();
        KubeHttp http = new KubeHttp(off)) {
      http.post("/api/v1/namespaces", KubeHttp.object("{\"metadata\":{\"name\":\"" + NS + "\"}}")).expect(201);
      http.create(CMS, KubeHttp.configMap("big", Map.of(), Map.of("pad", "b".repeat(300_000))));

      HttpResponse<byte[]> r = get(http1, off, CMS, "application/json", "gzip");

      assertPlain(r);
      assertThat(r.body().length).isGreaterThan(ResponseCompression.THRESHOLD_BYTES);
    }
  }
}
