package io.listwatch.apiserver.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.admission.AdmissionAttributes;
import io.listwatch.apiserver.webhook.WebhookCallException;
import io.listwatch.apiserver.webhook.WebhookClient;
import io.listwatch.apiserver.webhook.WebhookClientConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * One call of one webhook for one write, as kube's dispatchers make it: refused at once for a
 * dry run when the webhook has side effects; else an AdmissionReview with a new uid, posted with
 * the webhook's timeout; its answer checked; its audit annotations noted as
 * {@code <webhook>/<key>} and its warnings passed to the client. Thread-safe.
 */
final class WebhookCalls {

  private final WebhookCaller caller;

  WebhookCalls(WebhookCaller caller) {
    this.caller = caller;
  }

  /**
   * Calls {@code invocation}'s webhook about {@code a}, with {@code object} and
   * {@code oldObject} as the review carries them. Completes with the allowed answer; fails with
   * a {@link CallingWebhookException} (for the failure policy to judge) or a
   * {@link StatusException} (a refusal, or a dry run the webhook does not support).
   */
  CompletableFuture<AdmissionReviews.Response> call(WebhookInvocation invocation, AdmissionAttributes a,
      JsonNode object, JsonNode oldObject, boolean mutating) {
    AdmissionWebhook hook = invocation.webhook();
    try {
      if (a.dryRun()) {
        if (hook.sideEffects() == null) {
          throw new CallingWebhookException(hook.name(), "Webhook SideEffects is nil");
        }
        if (!hook.sideEffects().equals("None") && !hook.sideEffects().equals("NoneOnDryRun")) {
          throw WebhookErrors.dryRunUnsupported(hook.name());
        }
      }
      String uid = UUID.randomUUID().toString();
      ObjectNode review = AdmissionReviews.review(AdmissionReviews.request(uid, invocation, a, object, oldObject));
      WebhookClientConfig config;
      try {
        config = WebhookClientConfig.parse(hook.clientConfig());
      } catch (IllegalArgumentException e) {
        throw new CallingWebhookException(hook.name(), "could not get REST client: " + e.getMessage());
      }
      byte[] body = AdmissionReviews.JSON.writeValueAsBytes(review);
      return caller.post(config, body, Duration.ofSeconds(hook.timeoutSeconds()))
          .handle((r, e) -> answer(hook, uid, mutating, a, r, e));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    } catch (IOException e) {
      return CompletableFuture.failedFuture(new CallingWebhookException(hook.name(),
          "could not create admission objects: " + e.getMessage()));
    }
  }

  private static AdmissionReviews.Response answer(AdmissionWebhook hook, String uid, boolean mutating,
      AdmissionAttributes a, WebhookClient.Response r, Throwable e) {
    if (e != null) {
      RuntimeException cause = unwrap(e);
      String why = cause instanceof WebhookCallException ? cause.getMessage() : String.valueOf(cause);
      throw new CallingWebhookException(hook.name(), "failed to call webhook: " + why);
    }
    if (r.status() < 200 || r.status() > 299) {
      throw new CallingWebhookException(hook.name(), "failed to call webhook: " + httpError(r));
    }
    JsonNode review;
    try {
      review = AdmissionReviews.JSON.readTree(r.body());
    } catch (IOException ex) {
      throw new CallingWebhookException(hook.name(), "failed to call webhook: couldn't get version/kind; json parse error: "
          + (ex instanceof com.fasterxml.jackson.core.JsonProcessingException j ? j.getOriginalMessage() : ex.getMessage()));
    }
    AdmissionReviews.Response response;
    try {
      response = AdmissionReviews.verify(uid, mutating, review == null ? AdmissionReviews.JSON.nullNode() : review);
    } catch (IllegalArgumentException ex) {
      throw new CallingWebhookException(hook.name(), "received invalid webhook response: " + ex.getMessage());
    }
    response.auditAnnotations().forEach((k, v) -> annotate(a, hook.name() + "/" + k, v));
    response.warnings().forEach(a.warnings()::add);
    if (!response.allowed()) {
      throw WebhookErrors.denied(hook.name(), response.result());
    }
    return response;
  }

  /** What failed a future: the exception itself, not its CompletionException wrapper. */
  static RuntimeException unwrap(Throwable e) {
    Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    return cause instanceof RuntimeException r ? r : StatusException.internal(String.valueOf(cause));
  }

  /** Notes an audit annotation; one whose key is not a qualified name is dropped (kube logs it). */
  static void annotate(AdmissionAttributes a, String key, String value) {
    try {
      a.addAnnotation(key, value);
    } catch (IllegalArgumentException badKey) {
      org.slf4j.LoggerFactory.getLogger(WebhookCalls.class).warn("Failed to set admission audit annotation {} to {}: {}",
          key, value, badKey.getMessage());
    }
  }

  /** How kube's REST client words a non-2xx answer: the Status's message, else a generic text. */
  private static String httpError(WebhookClient.Response r) {
    String text = new String(r.body(), StandardCharsets.UTF_8).strip();
    try {
      JsonNode status = AdmissionReviews.JSON.readTree(text);
      if (status != null && "Status".equals(status.path("kind").asText()) && status.hasNonNull("message")) {
        return status.get("message").asText();
      }
    } catch (IOException notJson) {
      // a text answer: worded below
    }
    if (r.status() == 500 && !text.isEmpty()) {
      return "an error on the server (\"" + text + "\") has prevented the request from succeeding";
    }
    return "the server responded with the status code " + r.status() + " but did not return more information";
  }
}
