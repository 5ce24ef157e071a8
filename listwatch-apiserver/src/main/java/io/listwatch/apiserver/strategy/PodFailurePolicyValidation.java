package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.NumericFields.given;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube's validation of a Job's {@code spec.podFailurePolicy} ({@code validatePodFailurePolicy}
 * of {@code pkg/apis/batch/validation}, the JobPodFailurePolicy feature being GA in 1.32): at
 * most 20 rules; each with an {@code action} ({@code Count}, {@code FailIndex} only with
 * {@code backoffLimitPerIndex}, {@code FailJob}, {@code Ignore}) and exactly one of
 * {@code onExitCodes} (operator {@code In}/{@code NotIn}, 1 to 255 unique values in ascending
 * order, no 0 for {@code In}, a {@code containerName} that names a container or init container
 * of the template) and {@code onPodConditions} (at most 20 patterns, each a qualified-name
 * {@code type} and a {@code status} of {@code True}, {@code False} or {@code Unknown}). Paths and
 * messages are kube's. The template's {@code restartPolicy: Never} and the
 * {@code podReplacementPolicy: Failed} that go with a policy are {@link JobValidation}'s.
 * Stateless.
 */
final class PodFailurePolicyValidation {

  private static final int MAX_RULES = 20;
  private static final int MAX_EXIT_CODE_VALUES = 255;
  private static final int MAX_POD_CONDITION_PATTERNS = 20;
  private static final List<String> ACTIONS = List.of("Count", "FailIndex", "FailJob", "Ignore");
  private static final List<String> OPERATORS = List.of("In", "NotIn");
  private static final List<String> STATUSES = List.of("False", "True", "Unknown");

  private PodFailurePolicyValidation() {
  }

  /** kube's {@code validatePodFailurePolicy} of {@code spec.podFailurePolicy} (given), under {@code path}. */
  static void validate(JsonNode spec, String path, List<Status.Cause> errors) {
    JsonNode rules = spec.path("podFailurePolicy").path("rules");
    String rulesPath = path + ".rules";
    if (rules.size() > MAX_RULES) {
      errors.add(FieldErrors.tooMany(rulesPath, rules.size(), MAX_RULES));
    }
    Set<String> containerNames = new HashSet<>();
    JsonNode podSpec = spec.path("template").path("spec");
    for (String list : new String[] {"containers", "initContainers"}) {
      for (JsonNode container : podSpec.path(list)) {
        containerNames.add(container.path("name").asText(""));
      }
    }
    boolean perIndex = given(spec.path("backoffLimitPerIndex"));
    for (int i = 0; i < (rules.isArray() ? rules.size() : 0); i++) {
      rule(rules.get(i), rulesPath + "[" + i + "]", perIndex, containerNames, errors);
    }
  }

  private static void rule(JsonNode rule, String path, boolean perIndex, Set<String> containerNames,
      List<Status.Cause> errors) {
    String action = rule.path("action").asText("");
    String actionPath = path + ".action";
    if (action.isEmpty()) {
      errors.add(FieldErrors.required(actionPath, "valid values: " + goStrings(ACTIONS)));
    } else if (action.equals("FailIndex")) {
      if (!perIndex) {
        errors.add(FieldErrors.invalid(actionPath, action, "requires the backoffLimitPerIndex to be set"));
      }
    } else if (!ACTIONS.contains(action)) {
      errors.add(FieldErrors.notSupported(actionPath, action, ACTIONS));
    }
    JsonNode onExitCodes = rule.path("onExitCodes");
    JsonNode onPodConditions = rule.path("onPodConditions");
    boolean exitCodes = given(onExitCodes);
    boolean podConditions = onPodConditions.isArray() && !onPodConditions.isEmpty();
    if (exitCodes) {
      onExitCodes(onExitCodes, path + ".onExitCodes", containerNames, errors);
    }
    if (podConditions) {
      onPodConditions(onPodConditions, path + ".onPodConditions", errors);
    }
    if (exitCodes && podConditions) {
      errors.add(FieldErrors.invalidOmitValue(path, "specifying both OnExitCodes and OnPodConditions is not supported"));
    }
    if (!exitCodes && !podConditions) {
      errors.add(FieldErrors.invalidOmitValue(path, "specifying one of OnExitCodes and OnPodConditions is required"));
    }
  }

  /** kube's {@code validatePodFailurePolicyRuleOnExitCodes}. */
  private static void onExitCodes(JsonNode onExitCodes, String path, Set<String> containerNames,
      List<Status.Cause> errors) {
    String operator = onExitCodes.path("operator").asText("");
    String operatorPath = path + ".operator";
    if (operator.isEmpty()) {
      errors.add(FieldErrors.required(operatorPath, "valid values: " + goStrings(OPERATORS)));
    } else if (!OPERATORS.contains(operator)) {
      errors.add(FieldErrors.notSupported(operatorPath, operator, OPERATORS));
    }
    JsonNode containerName = onExitCodes.path("containerName");
    if (given(containerName) && !containerNames.contains(containerName.asText(""))) {
      errors.add(FieldErrors.invalid(path + ".containerName", containerName.asText(""),
          "must be one of the container or initContainer names in the pod template"));
    }
    JsonNode values = onExitCodes.path("values");
    String valuesPath = path + ".values";
    if (values.isEmpty()) {
      errors.add(FieldErrors.invalid(valuesPath, goInt32s(values), "at least one value is required"));
    } else if (values.size() > MAX_EXIT_CODE_VALUES) {
      errors.add(FieldErrors.tooMany(valuesPath, values.size(), MAX_EXIT_CODE_VALUES));
    }
    boolean ordered = true;
    Set<Long> seen = new HashSet<>();
    for (int j = 0; j < (values.isArray() ? values.size() : 0); j++) {
      long value = values.get(j).asLong();
      String valuePath = valuesPath + "[" + j + "]";
      if (operator.equals("In") && value == 0) {
        errors.add(FieldErrors.invalid(valuePath, value, "must not be 0 for the In operator"));
      }
      if (!seen.add(value)) {
        errors.add(FieldErrors.duplicate(valuePath, value));
      }
      if (j > 0 && values.get(j - 1).asLong() > value) {
        ordered = false;
      }
    }
    if (!ordered) {
      errors.add(FieldErrors.invalid(valuesPath, goInt32s(values), "must be ordered"));
    }
  }

  /** kube's {@code validatePodFailurePolicyRuleOnPodConditions}. */
  private static void onPodConditions(JsonNode patterns, String path, List<Status.Cause> errors) {
    if (patterns.size() > MAX_POD_CONDITION_PATTERNS) {
      errors.add(FieldErrors.tooMany(path, patterns.size(), MAX_POD_CONDITION_PATTERNS));
    }
    for (int j = 0; j < patterns.size(); j++) {
      JsonNode pattern = patterns.get(j);
      String patternPath = path + "[" + j + "]";
      String type = pattern.path("type").asText("");
      for (String msg : NameSyntax.isQualifiedName(type)) {
        errors.add(FieldErrors.invalid(patternPath + ".type", type, msg));
      }
      String status = pattern.path("status").asText("");
      if (status.isEmpty()) {
        errors.add(FieldErrors.required(patternPath + ".status", "valid values: " + goStrings(STATUSES)));
      } else if (!STATUSES.contains(status)) {
        errors.add(FieldErrors.notSupported(patternPath + ".status", status, STATUSES));
      }
    }
  }

  /** Go's {@code %q} of a string slice: {@code ["a" "b"]}. */
  private static String goStrings(List<String> values) {
    StringBuilder b = new StringBuilder("[");
    for (String v : values) {
      b.append(b.length() > 1 ? " " : "").append(FieldErrors.goValue(v));
    }
    return b.append(']').toString();
  }

  /** Go's {@code %#v} of an {@code []int32}: {@code []int32{19, 11}}, {@code []int32(nil)} when absent. */
  private static GoLiteral goInt32s(JsonNode values) {
    if (!values.isArray()) {
      return new GoLiteral("[]int32(nil)");
    }
    StringBuilder b = new StringBuilder("[]int32{");
    for (int i = 0; i < values.size(); i++) {
      b.append(i > 0 ? ", " : "").append(values.get(i).asLong());
    }
    return new GoLiteral(b.append('}').toString());
  }
}
