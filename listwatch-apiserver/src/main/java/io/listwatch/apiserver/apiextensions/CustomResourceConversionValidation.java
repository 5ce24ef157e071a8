package io.listwatch.apiserver.apiextensions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.strategy.WebhookClientConfigRules;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube's defaults and validation of a CustomResourceDefinition's {@code spec.conversion}
 * ({@code ValidateCustomResourceConversion} and the webhook client config rules it shares with
 * admission webhooks). The paths are kube's internal ones, as kube reports them: a v1
 * {@code spec.conversion.webhook.clientConfig} is {@code spec.conversion.webhookClientConfig}
 * and {@code webhook.conversionReviewVersions} is {@code spec.conversion.conversionReviewVersions}.
 *
 * <p>The strategy is {@code None} or {@code Webhook}; {@code Webhook} needs
 * {@code preserveUnknownFields} false, a {@code webhook} with exactly one of an {@code https}
 * URL (a host, no user, query or fragment) and a service (kube checks its name and namespace
 * swapped, so an empty namespace is reported as the name and the other way round; a port from 1
 * to 65535, a path of DNS-1123 subdomain segments), and {@code conversionReviewVersions} that
 * name {@code v1} or {@code v1beta1}, each a DNS-1035 label, none twice. {@code None} takes
 * neither. Stateless.
 */
final class CustomResourceConversionValidation {

  private static final String FORM = "; desired format: https://host[/path]";
  private static final List<String> REVIEW_VERSIONS = List.of("v1", "v1beta1");

  private CustomResourceConversionValidation() {
  }

  /** kube's v1 default of a conversion webhook's service port: 443. */
  static void applyDefaults(ObjectNode conversion) {
    if (conversion.path("webhook").path("clientConfig").get("service") instanceof ObjectNode service
        && !service.hasNonNull("port")) {
      service.put("port", 443);
    }
  }

  /**
   * @param oldSpec the stored definition's spec on update, else null: an update need not name a
   *     known review version when the stored definition did not either (kube's ratcheting)
   */
  static void check(List<Status.Cause> causes, JsonNode spec, JsonNode oldSpec) {
    JsonNode conversion = spec.path("conversion");
    if (!conversion.isObject()) {
      return;
    }
    String strategy = conversion.path("strategy").asText("");
    String path = "spec.conversion";
    if (!strategy.equals("None") && spec.path("preserveUnknownFields").asBoolean(false)) {
      causes.add(FieldErrors.invalid(path + ".strategy", strategy, "must be None if spec.preserveUnknownFields is true"));
    }
    if (strategy.isEmpty()) {
      causes.add(FieldErrors.required(path + ".strategy", ""));
    } else if (!strategy.equals("None") && !strategy.equals("Webhook")) {
      causes.add(FieldErrors.notSupported(path + ".strategy", strategy, List.of("None", "Webhook")));
    }
    JsonNode webhook = conversion.path("webhook");
    // kube's v1 form keeps both under webhook; the client config is what must be there
    boolean hasWebhook = webhook.path("clientConfig").isObject();
    JsonNode versions = webhook.path("conversionReviewVersions");
    String clientConfig = path + ".webhookClientConfig";
    if (strategy.equals("Webhook")) {
      if (!hasWebhook) {
        causes.add(FieldErrors.required(clientConfig, "required when strategy is set to Webhook"));
      } else {
        checkClientConfig(causes, webhook.path("clientConfig"), clientConfig);
      }
      checkReviewVersions(causes, versions, path + ".conversionReviewVersions",
          oldSpec == null || knownOrNoReviewVersion(oldSpec.path("conversion").path("webhook").path("conversionReviewVersions")));
    } else {
      if (hasWebhook) {
        causes.add(FieldErrors.forbidden(clientConfig, "should not be set when strategy is not set to Webhook"));
      }
      if (versions.isArray() && !versions.isEmpty()) {
        causes.add(FieldErrors.forbidden(path + ".conversionReviewVersions",
            "should not be set when strategy is not set to Webhook"));
      }
    }
  }

  private static void checkClientConfig(List<Status.Cause> causes, JsonNode cc, String path) {
    boolean hasUrl = cc.hasNonNull("url");
    boolean hasService = cc.path("service").isObject();
    if (hasUrl == hasService) {
      causes.add(FieldErrors.required(path, "exactly one of url or service is required"));
    } else if (hasUrl) {
      WebhookClientConfigRules.url(cc.path("url").asText(), path + ".url", causes);
    } else {
      // kube's CRD validation passes the namespace as the name and the name as the namespace
      JsonNode service = cc.path("service");
      WebhookClientConfigRules.service(service.path("namespace").asText(""), service.path("name").asText(""),
          service.path("path"), service.path("port").asLong(443), path + ".service", causes);
    }
  }

  /** kube's hasValidConversionReviewVersionOrEmpty. */
  private static boolean knownOrNoReviewVersion(JsonNode versions) {
    if (!versions.isArray() || versions.isEmpty()) {
      return true;
    }
    for (JsonNode v : versions) {
      if (REVIEW_VERSIONS.contains(v.asText())) {
        return true;
      }
    }
    return false;
  }

  private static void checkReviewVersions(List<Status.Cause> causes, JsonNode versions, String path,
      boolean requireKnown) {
    if (!versions.isArray() || versions.isEmpty()) {
      causes.add(FieldErrors.required(path, ""));
      return;
    }
    Set<String> seen = new HashSet<>();
    boolean accepted = false;
    List<String> all = new ArrayList<>();
    for (int i = 0; i < versions.size(); i++) {
      String v = versions.get(i).asText("");
      all.add(v);
      if (!seen.add(v)) {
        causes.add(FieldErrors.invalid(path + "[" + i + "]", v, "duplicate version"));
        continue;
      }
      for (String m : NameSyntax.isDns1035Label(v)) {
        causes.add(FieldErrors.invalid(path + "[" + i + "]", v, m));
      }
      accepted |= REVIEW_VERSIONS.contains(v);
    }
    if (requireKnown && !accepted) {
      causes.add(FieldErrors.invalid(path, all, "must include at least one of " + String.join(", ", REVIEW_VERSIONS)));
    }
  }
}
