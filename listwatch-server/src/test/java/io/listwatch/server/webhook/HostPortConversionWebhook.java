package io.listwatch.server.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The conversion webhook of kube's documentation example, served over HTTPS for tests
 * ({@link TestWebhookServer}, path {@code /convert}): a {@code Gateway} has
 * {@code spec.hostPort: "host:port"} in {@code v1} and {@code spec.host}, {@code spec.port} in
 * {@code v2}. Also gives the CustomResourceDefinition that uses it. Closing it stops the server.
 */
public final class HostPortConversionWebhook implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final AtomicInteger reviews = new AtomicInteger();
  private final TestWebhookServer server = new TestWebhookServer(List.of("127.0.0.1"))
      .handle("/convert", r -> convert(r.body()));

  /** How many reviews the webhook has answered. */
  public int reviews() {
    return reviews.get();
  }

  public int port() {
    return server.port();
  }

  /** The definition of {@code gateways.<group>}: v1 (storage) and v2, converted by this webhook. */
  public String definition(String group) {
    return definition(group, "/convert");
  }

  /**
   * Also answers posts to {@code path} with {@code answer} of the posted review (for webhooks
   * that answer wrongly).
   */
  public HostPortConversionWebhook answering(String path, java.util.function.UnaryOperator<String> answer) {
    server.handle(path, r -> answer.apply(r.body()));
    return this;
  }

  /** {@link #definition(String)}, converted by what answers at {@code path}. */
  public String definition(String group, String path) {
    return """
        {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
         "metadata":{"name":"gateways.%1$s"},
         "spec":{"group":"%1$s","scope":"Namespaced",
          "names":{"plural":"gateways","singular":"gateway","kind":"Gateway"},
          "conversion":{"strategy":"Webhook","webhook":{"conversionReviewVersions":["v1","v1beta1"],
            "clientConfig":{"url":"https://127.0.0.1:%2$d%4$s","caBundle":"%3$s"}}},
          "versions":[
           {"name":"v1","served":true,"storage":true,
            "schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object",
              "properties":{"hostPort":{"type":"string"}}}}}}},
           {"name":"v2","served":true,"storage":false,
            "schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object",
              "properties":{"host":{"type":"string"},"port":{"type":"string"}}}}}}}]}}
        """.formatted(group, server.port(), server.caBundle(), path);
  }

  /** v1's hostPort to v2's host and port, and back: the webhook's answer to the review {@code body}. */
  public String convert(String body) {
    reviews.incrementAndGet();
    JsonNode request;
    try {
      request = JSON.readTree(body).path("request");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String desired = request.path("desiredAPIVersion").asText();
    ArrayNode converted = JSON.createArrayNode();
    for (JsonNode in : request.path("objects")) {
      ObjectNode out = in.deepCopy();
      ObjectNode spec = (ObjectNode) out.path("spec");
      if (desired.endsWith("/v2")) {
        String[] hostPort = spec.remove("hostPort").asText().split(":");
        spec.put("host", hostPort[0]).put("port", hostPort[1]);
      } else {
        spec.put("hostPort", spec.remove("host").asText() + ":" + spec.remove("port").asText());
      }
      out.put("apiVersion", desired);
      converted.add(out);
    }
    ObjectNode review = JSON.createObjectNode().put("apiVersion", "apiextensions.k8s.io/v1").put("kind", "ConversionReview");
    review.putObject("response").put("uid", request.path("uid").asText())
        .<ObjectNode>set("convertedObjects", converted).putObject("result").put("status", "Success");
    return review.toString();
  }

  @Override
  public void close() {
    server.close();
  }
}
