package io.listwatch.client.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.listwatch.api.ListOptions;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.server.tls.CertificateAuthority;
import io.listwatch.server.tls.CertifiedKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;

/**
 * A test's webhook server, what envtest gives an operator's tests: HTTPS on 127.0.0.1 and a free
 * port, with a certificate of a CA generated for it (names {@code 127.0.0.1} and
 * {@code localhost}), and {@link #install} to create the user's webhook configurations (and
 * CustomResourceDefinitions with conversion webhooks) rewritten to call it. The test says what
 * each path answers: {@link #handle} maps a review (an AdmissionReview or a ConversionReview, as
 * JSON) to the review answering it.
 *
 * <pre>{@code
 * try (LocalWebhookServer webhooks = LocalWebhookServer.start()) {
 *   webhooks.handle("/mutate-pods", review -> ...);          // the webhook under test
 *   webhooks.install(client, Path.of("config/webhook/manifests.yaml"));
 *   ... create pods; the server calls the webhook ...
 * }
 * }</pre>
 *
 * A webhook of the user's own (a framework's server) can serve instead: {@link #writeCertificates}
 * gives it the certificate and key, and {@link #install(KubeClient, URI, String, List)} points
 * the configurations at it. Needs {@code listwatch-server} on the test classpath (for the CA).
 *
 * <p>Thread-safe. Closing it stops the server.
 */
public final class LocalWebhookServer implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final CertificateAuthority ca = CertificateAuthority.create("listwatch-webhook-ca");
  private final CertifiedKey serving = ca.issueServing("127.0.0.1", List.of("127.0.0.1", "localhost"));
  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final HttpsServer server;

  private LocalWebhookServer() {
    try {
      server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the webhook server", e);
    }
    server.setHttpsConfigurator(new HttpsConfigurator(serving.serverSslContext()));
    server.setExecutor(executor);
    server.start();
  }

  /** Starts a server on 127.0.0.1 and a free port. */
  public static LocalWebhookServer start() {
    return new LocalWebhookServer();
  }

  /**
   * Serves {@code path}: each review posted there is answered with what {@code webhook} makes of
   * it (the whole review, with its {@code response}). A webhook that throws answers 500.
   */
  public LocalWebhookServer handle(String path, UnaryOperator<ObjectNode> webhook) {
    server.createContext(path, exchange -> answer(exchange, webhook));
    return this;
  }

  private static void answer(HttpExchange exchange, UnaryOperator<ObjectNode> webhook) throws IOException {
    try (exchange) {
      byte[] out;
      int code = 200;
      try {
        ObjectNode review = (ObjectNode) JSON.readTree(exchange.getRequestBody());
        out = JSON.writeValueAsBytes(webhook.apply(review));
      } catch (RuntimeException | IOException e) {
        code = 500;
        out = String.valueOf(e).getBytes(StandardCharsets.UTF_8);
      }
      exchange.getResponseHeaders().set("Content-Type", code == 200 ? "application/json" : "text/plain");
      exchange.sendResponseHeaders(code, out.length);
      exchange.getResponseBody().write(out);
    }
  }

  /** Where the server listens: {@code https://127.0.0.1:<port>}. */
  public URI url() {
    return URI.create("https://127.0.0.1:" + server.getAddress().getPort());
  }

  /** The CA that signed the server's certificate, PEM in base64: a {@code caBundle}. */
  public String caBundle() {
    String pem = new CertifiedKey(List.of(ca.certificate()), ca.certifiedKey().privateKey()).certificatePem();
    return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
  }

  /**
   * Writes the serving certificate, its key and the CA as {@code tls.crt}, {@code tls.key} and
   * {@code ca.crt} in {@code directory} (envtest's {@code LocalServingCertDir}), for a webhook
   * server of the test's own.
   */
  public void writeCertificates(Path directory) {
    try {
      Files.createDirectories(directory);
      serving.write(directory.resolve("tls.crt"), directory.resolve("tls.key"));
      Files.write(directory.resolve("ca.crt"), Base64.getDecoder().decode(caBundle()));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write certificates in " + directory, e);
    }
  }

  /**
   * Creates the webhook configurations and CustomResourceDefinitions of {@code manifests} (YAML
   * or JSON files, or directories of them) with every webhook pointed at this server (the path
   * of its Service reference or URL kept), and returns once the server's admission sees them.
   */
  public List<DynamicObject> install(KubeClient client, Path... manifests) {
    return install(client, url(), caBundle(), List.of(manifests));
  }

  /**
   * {@link #install(KubeClient, Path...)} for a webhook served elsewhere: at {@code base}
   * ({@code https://host:port}), trusting {@code caBundle} (base64 PEM).
   */
  public static List<DynamicObject> install(KubeClient client, URI base, String caBundle, List<Path> manifests) {
    List<DynamicObject> created = new ArrayList<>();
    for (ObjectNode object : WebhookManifests.read(manifests, base, caBundle)) {
      created.add(client.dynamic(WebhookManifests.type(object)).create(DynamicObject.of(object)));
    }
    // a consistent list waits until the server's watch cache, which admission reads, has them all
    for (var type : WebhookManifests.KINDS) {
      client.dynamic(type).list("", ListOptions.builder().build());
    }
    return created;
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
