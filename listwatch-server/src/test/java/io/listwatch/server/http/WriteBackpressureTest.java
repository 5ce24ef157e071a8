package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.server.ApiServer;
import io.listwatch.testsupport.Await;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A client that pipelines requests and never reads the answers is not read from once its
 * unsent responses pass the write buffer's high-water mark: the server serves only what fits,
 * holds no more for it, and serves everyone else meanwhile.
 */
class WriteBackpressureTest {

  private static final int PIPELINED = 2_000;

  @Test
  void pipeliningClientThatNeverReads_isNoLongerRead_whileOthersAreServed() throws Exception {
    try (ApiServer server = ApiServer.builder().build().start();
        KubeHttp http = new KubeHttp(server);
        Socket hog = new Socket()) {
      String ns = http.createNamespace("hog");
      String big = "/api/v1/namespaces/" + ns + "/configmaps/big";
      http.create("/api/v1/namespaces/" + ns + "/configmaps",
          KubeHttp.configMap("big", Map.of(), Map.of("blob", "x".repeat(256 * 1024))));

      // 2,000 answers of 256 KiB would be 500 MiB; the server must stop long before
      hog.setReceiveBufferSize(4 * 1024);
      hog.connect(new InetSocketAddress("127.0.0.1", server.port()), (int) KubeHttp.WAIT.toMillis());
      byte[] request = ("GET " + big + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
      OutputStream out = hog.getOutputStream();
      Thread writer = Thread.ofVirtual().name("pipelining-hog").start(() -> {
        try {
          for (int i = 0; i < PIPELINED; i++) {
            out.write(request);
          }
          out.flush();
        } catch (IOException e) {
          // the test closed the socket while this write was blocked: expected
        }
      });

      Await.until("the server stops reading the client that does not read", KubeHttp.WAIT,
          () -> scrape(http).sum("listwatch_connections_reading_paused", Map.of()) == 1);
      double servedToHog = scrape(http).sum("apiserver_request_total",
          Map.of("verb", "GET", "resource", "configmaps", "code", "200"));
      assertThat(servedToHog).as("answers the server made for the client that does not read")
          .isLessThan(PIPELINED / 4.0);

      // everyone else is served meanwhile
      assertThat(http.get(big).expect(200).path("data").path("blob").asText()).hasSize(256 * 1024);

      hog.close();
      Await.until("the closed connection is forgotten", KubeHttp.WAIT,
          () -> scrape(http).sum("listwatch_connections_reading_paused", Map.of()) == 0);
      writer.join(KubeHttp.WAIT.toMillis());
    }
  }

  private static PrometheusText scrape(KubeHttp http) {
    return PrometheusText.parse(http.get("/metrics", "text/plain").body());
  }
}
