package io.listwatch.apiserver.apiextensions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.registry.CustomResourceConverter;
import io.listwatch.apiserver.webhook.WebhookClient;
import io.listwatch.apiserver.webhook.WebhookClientConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Conversion strategy {@code Webhook} (kube's {@code webhookConverter}): each object not yet in
 * the desired version is posted to the definition's conversion webhook in a
 * {@link ConversionReview} of its own (as kube's storage decodes, and so converts, one object at
 * a time), and the answer is checked before it is used. Objects already in the desired version
 * are not sent.
 *
 * <p>Every failure is kube's: a 500 Status without a reason whose message is
 * {@code conversion webhook for <group>/<version>, Kind=<Kind> failed: Post "<url>?timeout=30s": <cause>}
 * when the webhook cannot be called or its answer is not a successful review, and
 * {@code ... returned invalid object: ...} (and the other phrases of {@link ConversionReview})
 * when a converted object is not usable. Thread-safe.
 */
final class WebhookConverter implements CustomResourceConverter {

  private static final ObjectMapper JSON = io.listwatch.api.JsonLimits.mapper();
  /** How long a conversion may take (kube's webhook client's default timeout). */
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final WebhookClient client;
  private final WebhookClientConfig config;
  private final String reviewVersion;

  /**
   * @param conversion a validated definition's {@code spec.conversion} with strategy {@code Webhook}
   */
  WebhookConverter(WebhookClient client, JsonNode conversion) {
    this.client = client;
    JsonNode webhook = conversion.path("webhook");
    this.config = WebhookClientConfig.parse(webhook.path("clientConfig"));
    this.reviewVersion = ConversionReview.reviewVersion(webhook.path("conversionReviewVersions"));
  }

  @Override
  public boolean remote() {
    return true;
  }

  @Override
  public CompletableFuture<List<ObjectNode>> convert(List<ObjectNode> objects, String desiredApiVersion) {
    List<CompletableFuture<ObjectNode>> each = new ArrayList<>();
    for (ObjectNode o : objects) {
      each.add(o.path("apiVersion").asText("").equals(desiredApiVersion) ? CompletableFuture.completedFuture(o)
          : convertOne(o, desiredApiVersion));
    }
    return CompletableFuture.allOf(each.toArray(CompletableFuture[]::new))
        .thenApply(v -> each.stream().map(CompletableFuture::join).toList());
  }

  private CompletableFuture<ObjectNode> convertOne(ObjectNode in, String desiredApiVersion) {
    String gvk = ConversionReview.gvk(in.path("apiVersion").asText(""), in.path("kind").asText(""));
    if (reviewVersion == null) {
      return CompletableFuture.failedFuture(failure("no supported conversion review versions"));
    }
    String uid = UUID.randomUUID().toString();
    byte[] body;
    try {
      body = JSON.writeValueAsBytes(ConversionReview.request(reviewVersion, uid, desiredApiVersion, List.of(in)));
    } catch (IOException e) {
      return CompletableFuture.failedFuture(failure("conversion webhook for " + gvk + " failed: " + e.getMessage()));
    }
    return client.post(config, body, TIMEOUT).handle((response, e) -> {
      if (e != null) {
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        throw failure("conversion webhook for " + gvk + " failed: " + cause.getMessage());
      }
      JsonNode answer = answer(gvk, response);
      try {
        List<JsonNode> converted = ConversionReview.convertedObjects(reviewVersion, uid, answer);
        if (converted.size() != 1) {
          throw failure("conversion webhook for " + gvk + " returned " + converted.size() + " objects, expected 1");
        }
        return ConversionReview.checkedObject(in, converted.getFirst(), desiredApiVersion);
      } catch (ConversionReview.InvalidResponse invalid) {
        throw failure(invalid.prefix == null ? invalid.getMessage()
            : "conversion webhook for " + gvk + " " + invalid.prefix + ": " + invalid.getMessage());
      }
    });
  }

  /** The answer's JSON, or kube's failure for an HTTP error or a body that is not a review. */
  private static JsonNode answer(String gvk, WebhookClient.Response response) {
    JsonNode answer = null;
    try {
      answer = JSON.readTree(response.body());
    } catch (IOException e) {
      // not JSON: answered below
    }
    if (response.status() < 200 || response.status() > 206) {
      throw failure("conversion webhook for " + gvk + " failed: " + httpError(response.status(), answer));
    }
    if (answer == null || !answer.isObject()) {
      throw failure("conversion webhook for " + gvk + " failed: couldn't get version/kind; json parse error");
    }
    return answer;
  }

  /**
   * What kube's REST client says of an HTTP error answer ({@code NewGenericServerResponse}): the
   * message of a Status body, else the code's generic message (the body is not quoted: a JSON
   * answer is not a text response, so kube says {@code "unknown"}).
   */
  static String httpError(int code, JsonNode body) {
    if (body != null && body.path("kind").asText().equals("Status") && body.hasNonNull("message")) {
      return body.path("message").asText();
    }
    return switch (code) {
      case 400 -> "the server rejected our request for an unknown reason";
      case 401 -> "the server has asked for the client to provide credentials";
      case 403 -> "the server does not allow access to the requested resource";
      case 404 -> "the server could not find the requested resource";
      case 405 -> "the server does not allow this method on the requested resource";
      case 409 -> "the server reported a conflict";
      case 422 -> "the server rejected our request due to an error in our request";
      case 429 -> "the server has received too many requests and has asked us to try again later";
      case 503 -> "the server is currently unable to handle the request";
      case 504 -> "the server was unable to return a response in the time allotted, but may still be processing the request";
      default -> code >= 500 ? "an error on the server (\"unknown\") has prevented the request from succeeding"
          : "the server responded with the status code " + code + " but did not return more information";
    };
  }

  /** kube's answer to an error that is no API status: 500, no reason, the error's text. */
  private static StatusException failure(String message) {
    return new StatusException(Status.failure(500, null, message, null));
  }
}
