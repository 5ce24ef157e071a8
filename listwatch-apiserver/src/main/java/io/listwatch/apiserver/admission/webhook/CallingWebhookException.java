package io.listwatch.apiserver.admission.webhook;

/**
 * A webhook could not be called or gave an unusable answer (kube's {@code ErrCallingWebhook}):
 * what the webhook's {@code failurePolicy} decides about, unlike a refusal. The message is kube's
 * {@code failed calling webhook "<name>": <reason>}.
 */
final class CallingWebhookException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  CallingWebhookException(String webhookName, String reason) {
    super("failed calling webhook \"" + webhookName + "\": " + reason);
  }
}
