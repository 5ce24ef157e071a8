package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.NumericFields.given;
import static io.listwatch.apiserver.strategy.NumericFields.nonNegative;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;

/**
 * kube's validation of a Job's spec ({@code pkg/apis/batch/validation}: {@code validateJobSpec},
 * {@code ValidateJobSpec}, the generated selector's rule and {@code ValidateJobSpecUpdate}),
 * shared by Jobs and by a CronJob's job template ({@code ValidateJobTemplateSpec}). Field paths
 * are kube's, under the given prefix ({@code spec} for a Job, {@code spec.jobTemplate.spec} for
 * a CronJob). Stateless.
 *
 * <p>The pod failure policy's rules are {@link PodFailurePolicyValidation}'s, the success
 * policy's {@link SuccessPolicyValidation}'s, a {@code /status} write's
 * {@link JobStatusValidation}'s.
 */
final class JobValidation {

  private static final int MAX_PARALLELISM_FOR_INDEXED_JOB = 100_000;
  private static final int MAX_FAILED_INDEXES_LIMIT = 100_000;
  private static final int COMPLETIONS_SOFT_LIMIT = 100_000;
  private static final int PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS = 10_000;
  private static final int MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS = 10_000;
  private static final int MAX_MANAGED_BY_LENGTH = 63;

  private JobValidation() {
  }

  /** kube's {@code validateJobSpec}: the spec's rules that do not concern the selector. */
  static void spec(JsonNode spec, String path, List<Status.Cause> errors) {
    nonNegative(spec.path("parallelism"), path + ".parallelism", errors);
    nonNegative(spec.path("completions"), path + ".completions", errors);
    nonNegative(spec.path("activeDeadlineSeconds"), path + ".activeDeadlineSeconds", errors);
    nonNegative(spec.path("backoffLimit"), path + ".backoffLimit", errors);
    nonNegative(spec.path("ttlSecondsAfterFinished"), path + ".ttlSecondsAfterFinished", errors);
    JsonNode backoffPerIndex = spec.path("backoffLimitPerIndex");
    JsonNode maxFailedIndexes = spec.path("maxFailedIndexes");
    nonNegative(backoffPerIndex, path + ".backoffLimitPerIndex", errors);
    if (given(maxFailedIndexes)) {
      nonNegative(maxFailedIndexes, path + ".maxFailedIndexes", errors);
      if (!given(backoffPerIndex)) {
        errors.add(FieldErrors.required(path + ".backoffLimitPerIndex", "when maxFailedIndexes is specified"));
      }
    }
    managedBy(spec.path("managedBy"), path + ".managedBy", errors);
    completionMode(spec, path, errors);
    if (given(spec.path("podFailurePolicy"))) {
      PodFailurePolicyValidation.validate(spec, path + ".podFailurePolicy", errors);
    }
    if (given(spec.path("successPolicy"))) {
      SuccessPolicyValidation.validate(spec, path + ".successPolicy", errors);
    }
    podReplacementPolicy(spec, path, errors);
    JsonNode template = spec.path("template");
    LabelSelectorValidation.labels(template.path("metadata").path("labels"), path + ".template.metadata.labels", errors);
    PodSpecValidation.validate(template.path("spec"), path + ".template.spec", errors);
    String restartPolicy = template.path("spec").path("restartPolicy").asText("");
    String at = path + ".template.spec.restartPolicy";
    if (restartPolicy.isEmpty() || restartPolicy.equals("Always")) {
      errors.add(FieldErrors.required(at, "valid values: \"OnFailure\", \"Never\""));
    } else if (!restartPolicy.equals("OnFailure") && !restartPolicy.equals("Never")) {
      errors.add(FieldErrors.notSupported(at, restartPolicy, List.of("OnFailure", "Never")));
    } else if (given(spec.path("podFailurePolicy")) && !restartPolicy.equals("Never")) {
      errors.add(FieldErrors.invalid(at, restartPolicy, "only \"Never\" is supported when podFailurePolicy is specified"));
    }
  }

  private static void completionMode(JsonNode spec, String path, List<Status.Cause> errors) {
    JsonNode mode = spec.path("completionMode");
    boolean indexed = mode.asText("").equals("Indexed");
    if (given(mode) && !indexed && !mode.asText("").equals("NonIndexed")) {
      errors.add(FieldErrors.notSupported(path + ".completionMode", mode.asText(""), List.of("NonIndexed", "Indexed")));
    }
    JsonNode completions = spec.path("completions");
    JsonNode parallelism = spec.path("parallelism");
    JsonNode maxFailedIndexes = spec.path("maxFailedIndexes");
    if (indexed) {
      if (!given(completions)) {
        errors.add(FieldErrors.required(path + ".completions", "when completion mode is Indexed"));
      }
      if (parallelism.asLong(0) > MAX_PARALLELISM_FOR_INDEXED_JOB) {
        errors.add(FieldErrors.invalid(path + ".parallelism", parallelism.asLong(),
            "must be less than or equal to " + MAX_PARALLELISM_FOR_INDEXED_JOB + " when completion mode is Indexed"));
      }
      if (given(completions) && given(maxFailedIndexes) && maxFailedIndexes.asLong() > completions.asLong()) {
        errors.add(FieldErrors.invalid(path + ".maxFailedIndexes", maxFailedIndexes.asLong(),
            "must be less than or equal to completions"));
      }
      if (maxFailedIndexes.asLong(0) > MAX_FAILED_INDEXES_LIMIT) {
        errors.add(FieldErrors.invalid(path + ".maxFailedIndexes", maxFailedIndexes.asLong(),
            "must be less than or equal to " + MAX_FAILED_INDEXES_LIMIT));
      }
      if (completions.asLong(0) > COMPLETIONS_SOFT_LIMIT && given(spec.path("backoffLimitPerIndex"))) {
        highCompletions(spec, path, errors);
      }
    } else if (!given(mode) || mode.asText("").equals("NonIndexed")) {
      for (String field : new String[] {"backoffLimitPerIndex", "maxFailedIndexes"}) {
        if (given(spec.path(field))) {
          errors.add(FieldErrors.invalid(path + "." + field, spec.path(field).asLong(), "requires indexed completion mode"));
        }
      }
    }
  }

  /**
   * kube's limits of an Indexed job with more than 100000 completions and a backoff limit per
   * index: {@code maxFailedIndexes} given, and it and {@code parallelism} at most 10000.
   */
  private static void highCompletions(JsonNode spec, String path, List<Status.Cause> errors) {
    String suffix = " when completions are above " + COMPLETIONS_SOFT_LIMIT + " and used with backoff limit per index";
    JsonNode parallelism = spec.path("parallelism");
    JsonNode maxFailedIndexes = spec.path("maxFailedIndexes");
    if (!given(maxFailedIndexes)) {
      errors.add(FieldErrors.required(path + ".maxFailedIndexes", "must be specified when completions is above "
          + COMPLETIONS_SOFT_LIMIT));
    }
    if (parallelism.asLong(0) > PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS) {
      errors.add(FieldErrors.invalid(path + ".parallelism", parallelism.asLong(),
          "must be less than or equal to " + PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS + suffix));
    }
    if (maxFailedIndexes.asLong(0) > MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS) {
      errors.add(FieldErrors.invalid(path + ".maxFailedIndexes", maxFailedIndexes.asLong(),
          "must be less than or equal to " + MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS + suffix));
    }
  }

  /**
   * kube's rule of {@code managedBy} (the JobManagedBy feature is beta and on in 1.32): a
   * domain-prefixed path ({@code IsDomainPrefixedPath}) of at most 63 bytes.
   */
  private static void managedBy(JsonNode managedBy, String path, List<Status.Cause> errors) {
    if (!given(managedBy)) {
      return;
    }
    String value = managedBy.asText("");
    DomainPrefixedPath.validate(path, value, errors);
    if (NameSyntax.byteLength(value) > MAX_MANAGED_BY_LENGTH) {
      errors.add(FieldErrors.tooLong(path, MAX_MANAGED_BY_LENGTH));
    }
  }

  /** kube's {@code validatePodReplacementPolicy}. */
  private static void podReplacementPolicy(JsonNode spec, String path, List<Status.Cause> errors) {
    JsonNode policy = spec.path("podReplacementPolicy");
    if (!given(policy)) {
      return;
    }
    String value = policy.asText("");
    if (given(spec.path("podFailurePolicy"))) {
      if (!value.equals("Failed")) {
        errors.add(FieldErrors.notSupported(path + ".podReplacementPolicy", value, List.of("Failed")));
      }
    } else if (!value.equals("Failed") && !value.equals("TerminatingOrFailed")) {
      errors.add(FieldErrors.notSupported(path + ".podReplacementPolicy", value, List.of("Failed", "TerminatingOrFailed")));
    }
  }

  /**
   * kube's {@code ValidateJob} of a Job's spec: the generated selector's rule (unless
   * {@code manualSelector}), {@link #spec}, then the selector (required, valid, matching the
   * template's labels).
   */
  static void job(ObjectNode job, List<Status.Cause> errors) {
    JsonNode spec = job.path("spec");
    generatedSelector(job, errors);
    spec(spec, "spec", errors);
    JsonNode selector = spec.path("selector");
    boolean parses = true;
    if (!given(selector)) {
      errors.add(FieldErrors.required("spec.selector", ""));
    } else {
      parses = LabelSelectorValidation.validate(selector, "spec.selector", errors);
    }
    JsonNode labels = spec.path("template").path("metadata").path("labels");
    if (parses && !LabelSelectorValidation.matches(selector, labels)) {
      errors.add(FieldErrors.invalid("spec.template.metadata.labels", WorkloadValidation.goMap(labels),
          "`selector` does not match template `labels`"));
    }
    indexedHostnames(job, errors);
  }

  /**
   * kube's rule that an Indexed job's pods can be named: the last pod's hostname
   * ({@code <name>-<completions - 1>}) must be a DNS-1123 label.
   */
  private static void indexedHostnames(ObjectNode job, List<Status.Cause> errors) {
    JsonNode spec = job.path("spec");
    long completions = spec.path("completions").asLong(0);
    if (!spec.path("completionMode").asText("").equals("Indexed") || completions <= 0) {
      return;
    }
    String name = job.path("metadata").path("name").asText("");
    String hostname = name + "-" + (completions - 1);
    if (!NameSyntax.isDns1123Label(hostname).isEmpty()) {
      errors.add(FieldErrors.invalid("metadata.name", name, "will not able to create pod with invalid DNS label: " + hostname));
    }
  }

  /**
   * kube's {@code validateGeneratedSelector}: without {@code manualSelector}, the template has
   * the labels of the job's uid and name, and the selector selects exactly what they make.
   */
  private static void generatedSelector(ObjectNode job, List<Status.Cause> errors) {
    JsonNode spec = job.path("spec");
    JsonNode selector = spec.path("selector");
    if (spec.path("manualSelector").asBoolean(false) || !given(selector)) {
      return;
    }
    String uid = job.path("metadata").path("uid").asText("");
    String name = job.path("metadata").path("name").asText("");
    if (uid.isEmpty()) {
      errors.add(FieldErrors.required("metadata.uid", ""));
    }
    JsonNode labels = spec.path("template").path("metadata").path("labels");
    hasLabel(labels, "controller-uid", uid, errors);
    hasLabel(labels, "job-name", name, errors);
    hasLabel(labels, "batch.kubernetes.io/controller-uid", uid, errors);
    hasLabel(labels, "batch.kubernetes.io/job-name", name, errors);
    ObjectNode expected = job.objectNode().put("batch.kubernetes.io/controller-uid", uid)
        .put("batch.kubernetes.io/job-name", name).put("controller-uid", uid).put("job-name", name);
    if (LabelSelectorValidation.validate(selector, "spec.selector", new java.util.ArrayList<>())
        && !LabelSelectorValidation.matches(selector, expected)) {
      errors.add(FieldErrors.invalid("spec.selector", LabelSelectorValidation.shown(selector), "`selector` not auto-generated"));
    }
  }

  /** kube's {@code ValidateHasLabel}, under {@code spec.template.metadata}. */
  private static void hasLabel(JsonNode labels, String key, String expected, List<Status.Cause> errors) {
    String path = "spec.template.metadata.labels[" + key + "]";
    if (!labels.has(key)) {
      errors.add(FieldErrors.required(path, expected));
    } else if (!labels.get(key).asText("").equals(expected)) {
      errors.add(FieldErrors.invalid(path, WorkloadValidation.goMap(labels), "must be '" + expected + "'"));
    }
  }

  /**
   * kube's {@code ValidateJobSpecUpdate}'s immutable fields: {@code completions} (which an
   * Indexed job may change together with {@code parallelism}), the selector, the pod template
   * (whose scheduling directives, labels and annotations a suspended job that never started may
   * change), {@code completionMode}, {@code podFailurePolicy}, {@code backoffLimitPerIndex},
   * {@code managedBy} and {@code successPolicy}.
   */
  static void update(ObjectNode job, ObjectNode old, List<Status.Cause> errors) {
    JsonNode spec = job.path("spec");
    JsonNode oldSpec = old.path("spec");
    JsonNode completions = spec.path("completions");
    if (!completions.equals(oldSpec.path("completions"))) {
      if (!spec.path("completionMode").asText("").equals("Indexed")) {
        errors.add(immutable("spec.completions", given(completions) ? completions.asLong() : null));
      } else if (given(completions) && completions.asLong() != spec.path("parallelism").asLong(0)) {
        errors.add(FieldErrors.invalid("spec.completions", completions.asLong(),
            "can only be modified in tandem with spec.parallelism"));
      }
    }
    if (!LabelSelectorValidation.sameSelector(spec.path("selector"), oldSpec.path("selector"))) {
      errors.add(immutable("spec.selector", LabelSelectorValidation.shown(spec.path("selector"))));
    }
    if (!template(spec, old).equals(template(oldSpec, old))) {
      errors.add(immutable("spec.template", new GoLiteral("core.PodTemplateSpec{...}")));
    }
    for (String field : new String[] {"completionMode", "podFailurePolicy", "backoffLimitPerIndex", "managedBy",
        "successPolicy"}) {
      JsonNode value = spec.path(field);
      if (!value.equals(oldSpec.path(field))) {
        errors.add(immutable("spec." + field, !given(value) ? null : value.isTextual() ? value.textValue()
            : value.isIntegralNumber() ? (Object) value.longValue() : new GoLiteral(value.toString())));
      }
    }
  }

  /**
   * The template as far as it may not change: all of it, but for a job that is suspended and
   * never started (kube's {@code AllowMutableSchedulingDirectives}) without its node affinity,
   * node selector, tolerations, scheduling gates, labels and annotations.
   */
  private static JsonNode template(JsonNode spec, ObjectNode oldJob) {
    JsonNode template = spec.path("template");
    boolean mutable = oldJob.path("spec").path("suspend").asBoolean(false)
        && !given(oldJob.path("status").path("startTime"));
    if (!mutable || !template.isObject()) {
      return template;
    }
    ObjectNode t = ((ObjectNode) template).deepCopy();
    if (t.get("metadata") instanceof ObjectNode meta) {
      meta.remove(List.of("labels", "annotations"));
    }
    if (t.get("spec") instanceof ObjectNode podSpec) {
      podSpec.remove(List.of("nodeSelector", "tolerations", "schedulingGates"));
      if (podSpec.get("affinity") instanceof ObjectNode affinity) {
        affinity.remove("nodeAffinity");
        if (affinity.isEmpty()) {
          podSpec.remove("affinity");
        }
      }
    }
    return t;
  }

  private static Status.Cause immutable(String path, Object value) {
    return FieldErrors.invalid(path, value, "field is immutable");
  }
}
