package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.Fields.absent;
import static io.listwatch.apiserver.strategy.Fields.defaultIfAbsent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import java.time.Instant;
import java.util.List;

/**
 * Jobs (batch/v1), kube's strategy and defaults: {@code parallelism} and {@code completions} 1
 * when both are absent (parallelism 1 alone otherwise), {@code backoffLimit: 6} (2147483647
 * with a {@code backoffLimitPerIndex}), {@code completionMode: NonIndexed}, {@code suspend:
 * false}, {@code podReplacementPolicy: TerminatingOrFailed} ({@code Failed} with a pod failure
 * policy), a pod failure policy's {@code onPodConditions[*].status: True} and the pod
 * template's defaults; a new job gets a generated selector ({@link #prepareForCreate});
 * validation is kube's ({@link JobValidation}). Stateless.
 */
final class JobStrategy implements RestStrategy {

  @Override
  public void defaults(ObjectNode obj) {
    defaultSpec(Fields.object(obj, "spec", true));
  }

  /** The defaults of a job's spec (a job's own, or a cronjob's job template's); a null {@code spec} is left alone. */
  static void defaultSpec(ObjectNode spec) {
    if (spec == null) {
      return;
    }
    if (absent(spec, "completions") && absent(spec, "parallelism")) {
      spec.put("completions", 1);
    }
    defaultIfAbsent(spec, "parallelism", 1);
    defaultIfAbsent(spec, "backoffLimit", absent(spec, "backoffLimitPerIndex") ? 6 : Integer.MAX_VALUE);
    defaultIfNil(spec, "completionMode", "NonIndexed");
    defaultIfAbsent(spec, "suspend", false);
    defaultIfNil(spec, "podReplacementPolicy", absent(spec, "podFailurePolicy") ? "TerminatingOrFailed" : "Failed");
    for (JsonNode rule : spec.path("podFailurePolicy").path("rules")) {
      for (JsonNode pattern : rule.path("onPodConditions")) {
        if (pattern instanceof ObjectNode p) {
          defaultIfAbsent(p, "status", "True");
        }
      }
    }
    PodSpecDefaults.template(spec);
  }

  /**
   * Sets a string field that kube's Go type holds as a pointer, which kube defaults only when
   * nil: missing or {@code null}; an empty string stays, for validation to refuse.
   */
  private static void defaultIfNil(ObjectNode spec, String field, String value) {
    if (!NumericFields.given(spec.get(field))) {
      spec.put(field, value);
    }
  }

  /** kube's job strategy: a Job deleted without a propagation policy orphans its pods (for old clients). */
  @Override
  public boolean orphansDependentsByDefault() {
    return true;
  }

  /**
   * kube's job strategy ({@code generateSelector}): unless {@code spec.manualSelector} is true,
   * the job's pods are labelled with its name and uid ({@code batch.kubernetes.io/job-name},
   * {@code job-name}, {@code batch.kubernetes.io/controller-uid}, {@code controller-uid}; labels
   * the template already has are kept, for validation to refuse if they differ) and the
   * selector gets {@code batch.kubernetes.io/controller-uid}, which makes the pods this job's
   * alone. A selector the client sent without {@code manualSelector: true} then fails
   * validation ("`selector` not auto-generated"). Needs the uid, which the store has set.
   */
  @Override
  public void prepareForCreate(ObjectNode job, Instant now) {
    ObjectNode spec = job.get("spec") instanceof ObjectNode sp ? sp : job.putObject("spec");
    if (spec.path("manualSelector").asBoolean(false)) {
      return;
    }
    String name = job.path("metadata").path("name").asText();
    String uid = job.path("metadata").path("uid").asText();
    ObjectNode template = Fields.object(spec, "template", true);
    ObjectNode meta = Fields.object(template, "metadata", true);
    ObjectNode labels = Fields.object(meta, "labels", true);
    if (labels == null) {
      return; // labels of the wrong type: left to validation
    }
    for (String key : new String[] {"job-name", "batch.kubernetes.io/job-name"}) {
      if (!labels.has(key)) {
        labels.put(key, name);
      }
    }
    for (String key : new String[] {"controller-uid", "batch.kubernetes.io/controller-uid"}) {
      if (!labels.has(key)) {
        labels.put(key, uid);
      }
    }
    ObjectNode matchLabels = Fields.object(Fields.object(spec, "selector", true), "matchLabels", true);
    if (matchLabels != null && !matchLabels.has("batch.kubernetes.io/controller-uid")) {
      matchLabels.put("batch.kubernetes.io/controller-uid", uid);
    }
  }

  /** kube's {@code WarningsOnCreate}/{@code WarningsOnUpdate}: the pod template's ({@link PodWarnings}). */
  @Override
  public void warnings(ObjectNode obj, ObjectNode old, java.util.function.Consumer<String> warn) {
    WorkloadStrategy.templateWarnings(obj, old, "spec.template", obj.path("spec").path("template"), warn);
  }

  /** kube's {@code ValidateJob}, and on update {@code ValidateJobUpdate} ({@link JobValidation}). */
  @Override
  public void validate(ObjectNode job, ObjectNode old, List<Status.Cause> errors) {
    JobValidation.job(job, errors);
    if (old != null) {
      JobValidation.update(job, old, errors);
    }
  }
}
