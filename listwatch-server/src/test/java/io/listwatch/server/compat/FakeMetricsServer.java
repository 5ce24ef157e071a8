package io.listwatch.server.compat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.listwatch.server.tls.CertificateAuthority;
import io.listwatch.server.tls.CertifiedKey;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * An aggregated API server of the metrics-server shape for tests: HTTPS with a certificate of
 * its own CA for {@code metrics-server.kube-system.svc} on the given address (127.0.0.1 in
 * tests, reached through an ExternalName Service: kube refuses loopback Endpoints), serving metrics.k8s.io/v1beta1's resource list
 * (nodes and pods), a NodeMetricsList and a PodMetricsList, and a watch of nodes that sends one
 * event and stays open until {@link #endWatches()}, and the group-version's OpenAPI v3 document. It keeps the identity headers of the last
 * request to each path.
 */
final class FakeMetricsServer implements AutoCloseable {

  static final String GROUP_VERSION = "/apis/metrics.k8s.io/v1beta1";
  static final String OPENAPI = "/openapi/v3/apis/metrics.k8s.io/v1beta1";
  /** The OpenAPI v3 document it serves for its group-version (a stub: one schema). */
  static final String OPENAPI_DOCUMENT = "{\"openapi\":\"3.0.0\",\"info\":{\"title\":\"fake-metrics\",\"version\":\"v1beta1\"},"
      + "\"paths\":{},\"components\":{\"schemas\":{\"io.k8s.metrics.pkg.apis.metrics.v1beta1.NodeMetrics\":"
      + "{\"type\":\"object\"}}}}";

  private final CertificateAuthority ca = CertificateAuthority.create("fake-metrics-ca");
  private final HttpsServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final Map<String, Map<String, List<String>>> headersByPath = new ConcurrentHashMap<>();
  private final CountDownLatch endWatches = new CountDownLatch(1);
  private final String address;

  FakeMetricsServer(String address, String nodeName) {
    this.address = address;
    CertifiedKey serving = ca.issueServing("metrics-server.kube-system.svc",
        List.of("metrics-server.kube-system.svc", address));
    try {
      server = HttpsServer.create(new InetSocketAddress(address, 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setHttpsConfigurator(new HttpsConfigurator(serving.serverSslContext()));
    server.setExecutor(executor);
    server.createContext(GROUP_VERSION, exchange -> serve(exchange, nodeName));
    server.createContext(OPENAPI, exchange -> {
      try (exchange) {
        byte[] doc = OPENAPI_DOCUMENT.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, doc.length);
        exchange.getResponseBody().write(doc);
      }
    });
    server.start();
  }

  private void serve(HttpExchange exchange, String nodeName) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      headersByPath.put(path, Map.copyOf(exchange.getRequestHeaders()));
      String query = String.valueOf(exchange.getRequestURI().getRawQuery());
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      if (path.equals(GROUP_VERSION + "/nodes") && query.contains("watch=true")) {
        exchange.sendResponseHeaders(200, 0); // chunked
        OutputStream out = exchange.getResponseBody();
        out.write(("{\"type\":\"ADDED\",\"object\":" + nodeMetrics(nodeName) + "}\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        try {
          endWatches.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return;
      }
      String body = path.equals(GROUP_VERSION + "/nodes/" + nodeName) ? nodeMetrics(nodeName) : switch (path) {
        case GROUP_VERSION -> """
            {"kind":"APIResourceList","apiVersion":"v1","groupVersion":"metrics.k8s.io/v1beta1","resources":[
             {"name":"nodes","singularName":"","namespaced":false,"kind":"NodeMetrics","verbs":["get","list"]},
             {"name":"pods","singularName":"","namespaced":true,"kind":"PodMetrics","verbs":["get","list"]}]}""";
        case GROUP_VERSION + "/nodes" -> "{\"kind\":\"NodeMetricsList\",\"apiVersion\":\"metrics.k8s.io/v1beta1\","
            + "\"metadata\":{},\"items\":[" + nodeMetrics(nodeName) + "]}";
        case GROUP_VERSION + "/pods" -> "{\"kind\":\"PodMetricsList\",\"apiVersion\":\"metrics.k8s.io/v1beta1\","
            + "\"metadata\":{},\"items\":[]}";
        default -> null;
      };
      if (body == null) {
        byte[] notFound = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"NotFound\",\"code\":404}"
            .getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(404, notFound.length);
        exchange.getResponseBody().write(notFound);
        return;
      }
      byte[] out = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("X-Fake-Metrics", "yes");
      exchange.sendResponseHeaders(200, out.length);
      exchange.getResponseBody().write(out);
    }
  }

  private static String nodeMetrics(String nodeName) {
    return "{\"kind\":\"NodeMetrics\",\"apiVersion\":\"metrics.k8s.io/v1beta1\",\"metadata\":{\"name\":\"" + nodeName + "\",\"creationTimestamp\":\"2026-11-28T20:00:00Z\"},"
        + "\"timestamp\":\"2026-11-28T20:00:00Z\",\"window\":\"10s\",\"usage\":{\"cpu\":\"250m\",\"memory\":\"512Mi\"}}";
  }

  /** The identity headers of the last request to {@code path}. */
  Map<String, List<String>> headersOf(String path) {
    return headersByPath.getOrDefault(path, Map.of());
  }

  String address() {
    return address;
  }

  int port() {
    return server.getAddress().getPort();
  }

  /** The CA bundle that trusts this server, base64 as an APIService's {@code caBundle} holds it. */
  String caBundle() {
    String pem = new CertifiedKey(List.of(ca.certificate()), ca.certifiedKey().privateKey()).certificatePem();
    return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
  }

  /** Ends the watches being served. */
  void endWatches() {
    endWatches.countDown();
  }

  @Override
  public void close() {
    endWatches.countDown();
    server.stop(0);
    executor.shutdownNow();
  }
}
