package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * kube's validation of MutatingWebhookConfigurations and ValidatingWebhookConfigurations
 * ({@code ValidateMutatingWebhookConfiguration}, {@code ValidateValidatingWebhookConfiguration}
 * and their {@code Update} variants). Each of {@code webhooks[i]}:
 *
 * <ul>
 *   <li>{@code name}: required, a DNS-1123 subdomain of at least three segments, unique;</li>
 *   <li>{@code rules[j]}: {@link RuleWithOperationsValidation};</li>
 *   <li>{@code failurePolicy} Fail or Ignore, {@code matchPolicy} Exact or Equivalent,
 *       {@code reinvocationPolicy} (mutating) Never or IfNeeded, when given;</li>
 *   <li>{@code sideEffects}: required, None or NoneOnDryRun (also Some and Unknown on an update
 *       of a configuration whose stored webhooks already have such);</li>
 *   <li>{@code timeoutSeconds}: 1 to 30 when given;</li>
 *   <li>{@code namespaceSelector}, {@code objectSelector}: label selectors;</li>
 *   <li>{@code clientConfig}: {@link WebhookClientConfigRules};</li>
 *   <li>{@code matchConditions}: {@link MatchConditionValidation};</li>
 *   <li>{@code admissionReviewVersions}: required, no duplicates, each a DNS-1035 label, and at
 *       least one of v1, v1beta1.</li>
 * </ul>
 *
 * <p>An update tolerates what the stored object already had, as kube does: unrecognized review
 * versions if a stored webhook had only such, duplicate webhook names if the stored ones had
 * duplicates, side effects Some/Unknown if a stored webhook had them, invalid label values in
 * selectors if a stored selector had them, and unchanged match conditions are not checked again
 * (when the webhook count and every webhook's conditions are as stored). Stateless.
 */
final class WebhookConfigurationValidation {

  /** kube's {@code AcceptedAdmissionReviewVersions}. */
  private static final List<String> ACCEPTED_REVIEW_VERSIONS = List.of("v1", "v1beta1");
  private static final List<String> FAILURE_POLICIES = List.of("Fail", "Ignore");
  private static final List<String> MATCH_POLICIES = List.of("Equivalent", "Exact");
  private static final List<String> REINVOCATION_POLICIES = List.of("IfNeeded", "Never");
  /** kube's {@code noSideEffectClasses} and {@code supportedSideEffectClasses}, sorted. */
  private static final List<String> NO_SIDE_EFFECTS = List.of("None", "NoneOnDryRun");
  private static final List<String> SIDE_EFFECTS = List.of("None", "NoneOnDryRun", "Some", "Unknown");

  /** kube's {@code validationOptions} that webhooks use. */
  private record Options(boolean ignoreMatchConditions, boolean requireNoSideEffects,
      boolean requireRecognizedAdmissionReviewVersion, boolean requireUniqueWebhookNames,
      boolean allowInvalidLabelValueInSelector) {

    static final Options CREATE = new Options(false, true, true, true, false);

    /** kube's options of an update, from the stored webhooks. */
    static Options update(JsonNode webhooks, JsonNode oldWebhooks) {
      boolean noSideEffects = true;
      boolean recognizedVersions = true;
      boolean invalidSelectorValues = false;
      Set<String> names = new HashSet<>();
      boolean uniqueNames = true;
      for (JsonNode hook : oldWebhooks) {
        noSideEffects &= hook.path("sideEffects").isTextual() && NO_SIDE_EFFECTS.contains(hook.path("sideEffects").asText());
        List<String> versions = ServiceSpecs.strings(hook.path("admissionReviewVersions"));
        recognizedVersions &= versions.isEmpty() || versions.stream().anyMatch(ACCEPTED_REVIEW_VERSIONS::contains);
        uniqueNames &= names.add(hook.path("name").asText(""));
        invalidSelectorValues |= !LabelSelectorValidation.validate(hook.path("namespaceSelector"), "", new ArrayList<>())
            || !LabelSelectorValidation.validate(hook.path("objectSelector"), "", new ArrayList<>());
      }
      boolean sameConditions = webhooks.size() == oldWebhooks.size();
      for (int i = 0; sameConditions && i < webhooks.size(); i++) {
        sameConditions = Objects.equals(webhooks.get(i).get("matchConditions"), oldWebhooks.get(i).get("matchConditions"));
      }
      return new Options(sameConditions, noSideEffects, recognizedVersions, uniqueNames, invalidSelectorValues);
    }
  }

  private WebhookConfigurationValidation() {
  }

  /**
   * The errors of a configuration's {@code webhooks}.
   *
   * @param old the stored configuration on an update, null on a create
   * @param mutating whether the webhooks are mutating ones (they have a {@code reinvocationPolicy})
   */
  static void validate(JsonNode obj, JsonNode old, boolean mutating, List<Status.Cause> errors) {
    JsonNode webhooks = list(obj.path("webhooks"));
    Options opts = old == null ? Options.CREATE : Options.update(webhooks, list(old.path("webhooks")));
    Set<String> names = new HashSet<>();
    for (int i = 0; i < webhooks.size(); i++) {
      JsonNode hook = webhooks.get(i);
      String path = "webhooks[" + i + "]";
      webhook(hook, path, mutating, opts, errors);
      admissionReviewVersions(ServiceSpecs.strings(hook.path("admissionReviewVersions")),
          opts.requireRecognizedAdmissionReviewVersion(), path + ".admissionReviewVersions", errors);
      String name = hook.path("name").asText("");
      if (opts.requireUniqueWebhookNames() && !name.isEmpty() && !names.add(name)) {
        errors.add(FieldErrors.duplicate(path + ".name", name));
      }
    }
  }

  /** {@code node} if it is a JSON list, else an empty one (a wrong type is the decoder's to refuse). */
  private static JsonNode list(JsonNode node) {
    return node.isArray() ? node : com.fasterxml.jackson.databind.node.MissingNode.getInstance();
  }

  /** kube's {@code validateMutatingWebhook} / {@code validateValidatingWebhook}. */
  private static void webhook(JsonNode hook, String path, boolean mutating, Options opts, List<Status.Cause> errors) {
    fullyQualifiedName(hook.path("name").asText(""), path + ".name", errors);
    JsonNode rules = list(hook.path("rules"));
    for (int i = 0; i < rules.size(); i++) {
      RuleWithOperationsValidation.validate(rules.get(i), path + ".rules[" + i + "]", errors);
    }
    oneOf(hook.path("failurePolicy"), path + ".failurePolicy", FAILURE_POLICIES, errors);
    oneOf(hook.path("matchPolicy"), path + ".matchPolicy", MATCH_POLICIES, errors);
    List<String> allowedSideEffects = opts.requireNoSideEffects() ? NO_SIDE_EFFECTS : SIDE_EFFECTS;
    if (!NumericFields.given(hook.path("sideEffects"))) {
      errors.add(FieldErrors.required(path + ".sideEffects", "must specify one of " + String.join(", ", allowedSideEffects)));
    }
    oneOf(hook.path("sideEffects"), path + ".sideEffects", allowedSideEffects, errors);
    JsonNode timeout = hook.path("timeoutSeconds");
    if (NumericFields.given(timeout) && (timeout.asLong() > 30 || timeout.asLong() < 1)) {
      errors.add(FieldErrors.invalid(path + ".timeoutSeconds", timeout.asLong(),
          "the timeout value must be between 1 and 30 seconds"));
    }
    LabelSelectorValidation.validate(hook.path("namespaceSelector"), path + ".namespaceSelector",
        opts.allowInvalidLabelValueInSelector(), errors);
    LabelSelectorValidation.validate(hook.path("objectSelector"), path + ".objectSelector",
        opts.allowInvalidLabelValueInSelector(), errors);
    if (mutating) {
      oneOf(hook.path("reinvocationPolicy"), path + ".reinvocationPolicy", REINVOCATION_POLICIES, errors);
    }
    WebhookClientConfigRules.validate(hook.path("clientConfig"), path + ".clientConfig", errors);
    if (!opts.ignoreMatchConditions()) {
      MatchConditionValidation.validate(list(hook.path("matchConditions")), path + ".matchConditions", errors);
    }
  }

  /** A field that, when given, must be one of {@code supported} (kube's NotSupported). */
  private static void oneOf(JsonNode value, String path, List<String> supported, List<Status.Cause> errors) {
    if (NumericFields.given(value) && !supported.contains(value.asText(""))) {
      errors.add(FieldErrors.notSupported(path, value.asText(""), supported));
    }
  }

  /** kube's {@code utilvalidation.IsFullyQualifiedName}. */
  private static void fullyQualifiedName(String name, String path, List<Status.Cause> errors) {
    if (name.isEmpty()) {
      errors.add(FieldErrors.required(path, ""));
      return;
    }
    List<String> problems = NameSyntax.isDns1123Subdomain(name);
    if (!problems.isEmpty()) {
      errors.add(FieldErrors.invalid(path, name, String.join(",", problems)));
    } else if (name.split("\\.", -1).length < 3) {
      errors.add(FieldErrors.invalid(path, name, "should be a domain with at least three segments separated by dots"));
    }
  }

  /** kube's {@code validateAdmissionReviewVersions}. */
  private static void admissionReviewVersions(List<String> versions, boolean requireRecognized, String path,
      List<Status.Cause> errors) {
    if (versions.isEmpty()) {
      errors.add(FieldErrors.required(path, "must specify one of " + String.join(", ", ACCEPTED_REVIEW_VERSIONS)));
      return;
    }
    Set<String> seen = new HashSet<>();
    boolean accepted = false;
    for (int i = 0; i < versions.size(); i++) {
      String v = versions.get(i);
      if (!seen.add(v)) {
        errors.add(FieldErrors.invalid(path + "[" + i + "]", v, "duplicate version"));
        continue;
      }
      for (String msg : NameSyntax.isDns1035Label(v)) {
        errors.add(FieldErrors.invalid(path + "[" + i + "]", v, msg));
      }
      accepted |= ACCEPTED_REVIEW_VERSIONS.contains(v);
    }
    if (requireRecognized && !accepted) {
      errors.add(FieldErrors.invalid(path, versions,
          "must include at least one of " + String.join(", ", ACCEPTED_REVIEW_VERSIONS)));
    }
  }
}
