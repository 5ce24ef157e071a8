package io.listwatch.apiserver.strategy;

/**
 * MutatingWebhookConfigurations (admissionregistration.k8s.io/v1): kube's strategy, defaults and
 * validation of {@code pkg/registry/admissionregistration/mutatingwebhookconfiguration}, as
 * {@link WebhookConfigurationStrategy} describes them for both kinds (with the mutating webhooks' {@code reinvocationPolicy}). Stateless.
 */
final class MutatingWebhookConfigurationStrategy extends WebhookConfigurationStrategy {

  MutatingWebhookConfigurationStrategy() {
    super(true);
  }
}
