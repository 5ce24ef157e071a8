package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * MutatingWebhookConfigurations and ValidatingWebhookConfigurations
 * (admissionregistration.k8s.io/v1), kube's strategies
 * ({@code pkg/registry/admissionregistration/{mutating,validating}webhookconfiguration}),
 * defaults and validation. Only stored and checked here; the admission webhooks they configure
 * are called by the webhook admission plug-ins.
 *
 * <p>Defaults ({@code SetDefaults_MutatingWebhook}, {@code SetDefaults_ValidatingWebhook},
 * {@code SetDefaults_Rule}, {@code SetDefaults_ServiceReference}), for each webhook left without
 * them: {@code failurePolicy: Fail}, {@code matchPolicy: Equivalent}, empty
 * {@code namespaceSelector} and {@code objectSelector} (match everything),
 * {@code timeoutSeconds: 10}, {@code reinvocationPolicy: Never} (mutating only), each rule's
 * {@code scope: "*"}, a service's {@code port: 443}. {@code sideEffects} and
 * {@code admissionReviewVersions} have no default in v1: they are required.
 *
 * <p>Validation: {@link WebhookConfigurationValidation}. Generation: 1 on create, bumped when an
 * update changes {@code webhooks}. One subclass per kind, as kube has one strategy per kind.
 * Stateless.
 */
abstract sealed class WebhookConfigurationStrategy implements RestStrategy
    permits MutatingWebhookConfigurationStrategy, ValidatingWebhookConfigurationStrategy {

  static final WebhookConfigurationStrategy MUTATING = new MutatingWebhookConfigurationStrategy();
  static final WebhookConfigurationStrategy VALIDATING = new ValidatingWebhookConfigurationStrategy();

  private final boolean mutating;

  WebhookConfigurationStrategy(boolean mutating) {
    this.mutating = mutating;
  }

  @Override
  public void defaults(ObjectNode obj) {
    for (JsonNode hook : obj.path("webhooks")) {
      if (!(hook instanceof ObjectNode h)) {
        continue;
      }
      defaultIfNull(h, "failurePolicy", "Fail");
      defaultIfNull(h, "matchPolicy", "Equivalent");
      if (isNull(h, "namespaceSelector")) {
        h.putObject("namespaceSelector");
      }
      if (isNull(h, "objectSelector")) {
        h.putObject("objectSelector");
      }
      if (isNull(h, "timeoutSeconds")) {
        h.put("timeoutSeconds", 10);
      }
      if (mutating) {
        defaultIfNull(h, "reinvocationPolicy", "Never");
      }
      for (JsonNode rule : h.path("rules")) {
        if (rule instanceof ObjectNode r) {
          defaultIfNull(r, "scope", "*");
        }
      }
      if (h.path("clientConfig").path("service") instanceof ObjectNode service && isNull(service, "port")) {
        service.put("port", 443);
      }
    }
  }

  /** Whether a pointer field is nil in kube's decoding: missing or JSON null (an empty string is given). */
  private static boolean isNull(ObjectNode obj, String field) {
    JsonNode value = obj.get(field);
    return value == null || value.isNull();
  }

  private static void defaultIfNull(ObjectNode obj, String field, String value) {
    if (isNull(obj, field)) {
      obj.put(field, value);
    }
  }

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    WebhookConfigurationValidation.validate(obj, old, mutating, errors);
  }

  @Override
  public void prepareForCreate(ObjectNode obj, Instant now) {
    Fields.object(obj, "metadata", true).put("generation", 1);
  }

  @Override
  public void prepareForUpdate(ObjectNode obj, ObjectNode old) {
    if (!Objects.equals(obj.get("webhooks"), old.get("webhooks"))) {
      Fields.object(obj, "metadata", true).put("generation", old.path("metadata").path("generation").asLong(0) + 1);
    }
  }
}
