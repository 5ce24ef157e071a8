package io.listwatch.server.webhook;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.listwatch.server.tls.CertificateAuthority;
import io.listwatch.server.tls.CertifiedKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * An HTTPS server on 127.0.0.1 and a free port for tests of what calls webhooks: a certificate
 * of its own CA for the names given, and one handler per path that maps the posted body to the
 * answer (200, JSON). Closing it stops it.
 */
public final class TestWebhookServer implements AutoCloseable {

  private final CertificateAuthority ca = CertificateAuthority.create("test-webhook-ca");
  private final HttpsServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool();

  /** Starts serving with a certificate for {@code names} (DNS names or IP addresses). */
  public TestWebhookServer(List<String> names) {
    CertifiedKey serving = ca.issueServing(names.getFirst(), names);
    try {
      server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setHttpsConfigurator(new HttpsConfigurator(serving.serverSslContext()));
    server.setExecutor(executor);
    server.start();
  }

  /** One post: its query string (without the {@code ?}) and its body. */
  public record Request(String query, String body) {
  }

  /** Answers posts to {@code path} with {@code answer} of the request (a handler may block, e.g. on a latch). */
  public TestWebhookServer handle(String path, Function<Request, String> answer) {
    server.createContext(path, exchange -> respond(exchange, answer));
    return this;
  }

  private static void respond(HttpExchange exchange, Function<Request, String> answer) throws IOException {
    try (exchange) {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      byte[] out = answer.apply(new Request(exchange.getRequestURI().getRawQuery(), body)).getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, out.length);
      exchange.getResponseBody().write(out);
    }
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** The CA bundle that trusts this server, base64 as a {@code caBundle} field holds it. */
  public String caBundle() {
    return Base64.getEncoder().encodeToString(caPem().getBytes(StandardCharsets.US_ASCII));
  }

  /** The CA's certificate as PEM. */
  public String caPem() {
    return new CertifiedKey(List.of(ca.certificate()), ca.certifiedKey().privateKey()).certificatePem();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
