package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.apiextensions.cel.MatchConditionCompiler;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube's rules of an admission webhook's {@code matchConditions} ({@code validateMatchConditions},
 * {@code validateMatchCondition}): at most 64; each with a required, trimmed {@code expression}
 * that compiles in the admission CEL environment to a bool ({@link MatchConditionCompiler}) and
 * a required qualified {@code name}, unique within the webhook. Stateless.
 */
final class MatchConditionValidation {

  private static final int MAX_MATCH_CONDITIONS = 64;

  private MatchConditionValidation() {
  }

  /** The match conditions of one webhook, at {@code path} ({@code webhooks[i].matchConditions}). */
  static void validate(JsonNode conditions, String path, List<Status.Cause> errors) {
    if (conditions.size() > MAX_MATCH_CONDITIONS) {
      errors.add(FieldErrors.tooMany(path, conditions.size(), MAX_MATCH_CONDITIONS));
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < conditions.size(); i++) {
      JsonNode condition = conditions.get(i);
      String at = path + "[" + i + "]";
      condition(condition, at, errors);
      String name = condition.path("name").asText("");
      if (!name.isEmpty() && !names.add(name)) {
        errors.add(FieldErrors.duplicate(at + ".name", name));
      }
    }
  }

  private static void condition(JsonNode condition, String path, List<Status.Cause> errors) {
    String expression = condition.path("expression").asText("").strip();
    if (expression.isEmpty()) {
      errors.add(FieldErrors.required(path + ".expression", ""));
    } else {
      MatchConditionCompiler.problem(expression)
          .ifPresent(problem -> errors.add(FieldErrors.invalid(path + ".expression", expression, problem)));
    }
    String name = condition.path("name").asText("");
    if (name.isEmpty()) {
      errors.add(FieldErrors.required(path + ".name", ""));
    } else {
      for (String msg : NameSyntax.isQualifiedName(name)) {
        errors.add(FieldErrors.invalid(path + ".name", name, msg));
      }
    }
  }
}
