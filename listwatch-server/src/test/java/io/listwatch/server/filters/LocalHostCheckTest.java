package io.listwatch.server.filters;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The plain-HTTP listener, where every request acts as the admin, serves only hosts DNS
 * rebinding cannot reach: a page on a foreign name pointed at 127.0.0.1 is refused and changes
 * nothing.
 */
@ExtendWith(ApiServerExtension.class)
class LocalHostCheckTest {

  @ParameterizedTest
  @ValueSource(strings = {"127.0.0.1", "127.0.0.1:6443", "10.1.2.3:80", "[::1]", "[::1]:8080", "[fe80::1%25eth0]:1",
      "localhost", "LOCALHOST:8080", "localhost.", "api.localhost:8080", ""})
  void hostsThatCannotBeRebound_areServed(String host) {
    assertThat(LocalHostCheck.allowed(host)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"evil.example", "evil.example:8080", "127.0.0.1.evil.example", "localhost.evil.example",
      "notlocalhost", ".localhost", "256.0.0.1", "127.0.0.1:http", "[::1]x", "localhost:80:80", "0x7f000001"})
  void otherHosts_areRefused(String host) {
    assertThat(LocalHostCheck.allowed(host)).isFalse();
  }

  @Test
  void aForeignHostOnThePlainPort_is403_andCreatesNothing(ApiServer server) throws Exception {
    String body = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"rebound\"}}";
    String[] refused = exchange(server, "POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\n"
        + "Host: attacker.example:" + URI.create(server.url()).getPort() + "\r\nContent-Type: application/json\r\n"
        + "Content-Length: " + body.length() + "\r\nConnection: close\r\n\r\n" + body);
    assertThat(refused[0]).startsWith("HTTP/1.1 403");
    JsonNode status = new ObjectMapper().readTree(refused[1]);
    assertThat(status.path("reason").asText()).isEqualTo("Forbidden");
    assertThat(status.path("message").asText()).contains("attacker.example").contains("DNS rebinding");

    String[] get = exchange(server, "GET /api/v1/namespaces/default/configmaps/rebound HTTP/1.1\r\n"
        + "Host: localhost\r\nConnection: close\r\n\r\n");
    assertThat(get[0]).as("nothing was created").startsWith("HTTP/1.1 404");
  }

  /** Sends a raw request and reads the whole answer (the request asks to close): status line, body. */
  private static String[] exchange(ApiServer server, String request) throws Exception {
    URI uri = URI.create(server.url());
    try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
      socket.setSoTimeout(15_000);
      OutputStream out = socket.getOutputStream();
      out.write(request.getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      String all = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      int blank = all.indexOf("\r\n\r\n");
      return new String[] {all.substring(0, all.indexOf("\r\n")), all.substring(blank + 4)};
    }
  }
}
