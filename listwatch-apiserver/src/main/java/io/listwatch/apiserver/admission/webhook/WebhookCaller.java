package io.listwatch.apiserver.admission.webhook;

import io.listwatch.apiserver.webhook.WebhookClient;
import io.listwatch.apiserver.webhook.WebhookClientConfig;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Posts one AdmissionReview to a webhook: {@link WebhookClient#post} in a server, a fake in
 * tests. Fails with a {@link io.listwatch.apiserver.webhook.WebhookCallException} when the
 * webhook cannot be reached or does not answer in time. Implementations are thread-safe.
 */
@FunctionalInterface
public interface WebhookCaller {

  /** Posts {@code json} to the webhook {@code config} names, giving up after {@code timeout}. */
  CompletableFuture<WebhookClient.Response> post(WebhookClientConfig config, byte[] json, Duration timeout);
}
