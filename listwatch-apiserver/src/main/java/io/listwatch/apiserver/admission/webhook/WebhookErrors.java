package io.listwatch.apiserver.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;

/**
 * The answers kube gives when a webhook refuses a write or cannot be used (kube's
 * {@code webhook/errors}). Stateless.
 */
final class WebhookErrors {

  private WebhookErrors() {
  }

  /**
   * A webhook's refusal (kube's {@code ToStatusErr}): its status, with a code of at least 400
   * and the message {@code admission webhook "<name>" denied the request: <message or reason>}
   * ({@code ... denied the request without explanation} when it gave neither).
   */
  static StatusException denied(String webhookName, JsonNode result) {
    String deniedBy = "admission webhook \"" + webhookName + "\" denied the request";
    int code = Math.max(result.path("code").asInt(0), 400);
    String message = result.path("message").asText("");
    String reason = result.path("reason").asText("");
    String text = !message.isEmpty() ? deniedBy + ": " + message
        : !reason.isEmpty() ? deniedBy + ": " + reason : deniedBy + " without explanation";
    Status.Details details = null;
    if (result.path("details").isObject()) {
      try {
        details = AdmissionReviews.JSON.treeToValue(result.get("details"), Status.Details.class);
      } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
        details = null; // kube would have failed to decode the response; keep the refusal
      }
    }
    return new StatusException(Status.failure(code, reason.isEmpty() ? null : reason, text, details));
  }

  /** A webhook with side effects called for a dry run (kube's {@code NewDryRunUnsupportedErr}): 400. */
  static StatusException dryRunUnsupported(String webhookName) {
    return StatusException.badRequest("admission webhook \"" + webhookName + "\" does not support dry run");
  }

  /** A call that failed with failurePolicy Fail: kube's 500 {@code Internal error occurred: failed calling webhook ...}. */
  static StatusException failedClosed(CallingWebhookException e) {
    return StatusException.internal(e.getMessage());
  }
}
