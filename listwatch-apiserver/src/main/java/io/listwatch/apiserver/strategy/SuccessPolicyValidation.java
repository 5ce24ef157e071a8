package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.NumericFields.given;
import static io.listwatch.apiserver.strategy.NumericFields.nonNegative;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * kube's validation of a Job's {@code spec.successPolicy} ({@code validateSuccessPolicy} of
 * {@code pkg/apis/batch/validation}; the JobSuccessPolicy feature is beta and on in 1.32): only
 * for an Indexed job; 1 to 20 rules, each with {@code succeededIndexes} (a set of indexes below
 * {@code completions} in {@link JobIndexes}' syntax, at most 64 KiB) or {@code succeededCount}
 * (at least 0, at most {@code completions} and at most the size of {@code succeededIndexes}), or
 * both. Paths and messages are kube's. Stateless.
 */
final class SuccessPolicyValidation {

  private static final int MAX_RULES = 20;
  private static final int MAX_SUCCEEDED_INDEXES_BYTES = 64 * 1024;

  private SuccessPolicyValidation() {
  }

  /** kube's rules of {@code spec.successPolicy} (given), under {@code path}. */
  static void validate(JsonNode spec, String path, List<Status.Cause> errors) {
    JsonNode policy = spec.path("successPolicy");
    if (!spec.path("completionMode").asText("NonIndexed").equals("Indexed")) {
      errors.add(FieldErrors.invalid(path, goValue(policy), "requires indexed completion mode"));
      return;
    }
    JsonNode rules = policy.path("rules");
    String rulesPath = path + ".rules";
    if (rules.isEmpty()) {
      errors.add(FieldErrors.required(rulesPath, "at least one rules must be specified when the successPolicy is specified"));
    }
    if (rules.size() > MAX_RULES) {
      errors.add(FieldErrors.tooMany(rulesPath, rules.size(), MAX_RULES));
    }
    // an Indexed job without completions is refused already; kube would not get this far
    long completions = spec.path("completions").asLong(0);
    for (int i = 0; i < (rules.isArray() ? rules.size() : 0); i++) {
      rule(rules.get(i), rulesPath + "[" + i + "]", completions, errors);
    }
  }

  private static void rule(JsonNode rule, String path, long completions, List<Status.Cause> errors) {
    JsonNode indexes = rule.path("succeededIndexes");
    JsonNode count = rule.path("succeededCount");
    if (!given(indexes) && !given(count)) {
      errors.add(FieldErrors.required(path, "at least one of succeededCount or succeededIndexes must be specified"));
    }
    long total = 0;
    if (given(indexes)) {
      String text = indexes.asText("");
      String indexesPath = path + ".succeededIndexes";
      if (text.getBytes(StandardCharsets.UTF_8).length > MAX_SUCCEEDED_INDEXES_BYTES) {
        errors.add(FieldErrors.tooLong(indexesPath, MAX_SUCCEEDED_INDEXES_BYTES));
      }
      JobIndexes.Count parsed = JobIndexes.parse(text, completions);
      total = parsed.total();
      parsed.problem().ifPresent(problem ->
          errors.add(FieldErrors.invalid(indexesPath, text, "error parsing succeededIndexes: " + problem)));
    }
    if (given(count)) {
      String countPath = path + ".succeededCount";
      nonNegative(count, countPath, errors);
      if (count.asLong() > completions) {
        errors.add(FieldErrors.invalid(countPath, count.asLong(),
            "must be less than or equal to " + completions + " (the number of specified completions)"));
      }
      if (given(indexes) && count.asLong() > total) {
        errors.add(FieldErrors.invalid(countPath, count.asLong(),
            "must be less than or equal to " + total + " (the number of indexes in the specified succeededIndexes field)"));
      }
    }
  }

  /**
   * The policy as Go's {@code %#v} prints kube's {@code batch.SuccessPolicy}; a pointer that is
   * set prints as an address in kube, here always {@code 0xc000000000}.
   */
  private static GoLiteral goValue(JsonNode policy) {
    JsonNode rules = policy.path("rules");
    StringBuilder b = new StringBuilder("batch.SuccessPolicy{Rules:[]batch.SuccessPolicyRule");
    if (!rules.isArray()) {
      b.append("(nil)");
    } else {
      b.append('{');
      for (int i = 0; i < rules.size(); i++) {
        b.append(i > 0 ? ", " : "").append("batch.SuccessPolicyRule{SucceededIndexes:")
            .append(goPointer("string", rules.get(i).path("succeededIndexes")))
            .append(", SucceededCount:").append(goPointer("int32", rules.get(i).path("succeededCount"))).append('}');
      }
      b.append('}');
    }
    return new GoLiteral(b.append('}').toString());
  }

  private static String goPointer(String type, JsonNode value) {
    return "(*" + type + ")(" + (given(value) ? "0xc000000000" : "nil") + ")";
  }
}
