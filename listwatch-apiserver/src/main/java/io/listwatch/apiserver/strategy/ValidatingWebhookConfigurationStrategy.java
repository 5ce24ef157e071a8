package io.listwatch.apiserver.strategy;

/**
 * ValidatingWebhookConfigurations (admissionregistration.k8s.io/v1): kube's strategy, defaults and
 * validation of {@code pkg/registry/admissionregistration/validatingwebhookconfiguration}, as
 * {@link WebhookConfigurationStrategy} describes them for both kinds. Stateless.
 */
final class ValidatingWebhookConfigurationStrategy extends WebhookConfigurationStrategy {

  ValidatingWebhookConfigurationStrategy() {
    super(false);
  }
}
