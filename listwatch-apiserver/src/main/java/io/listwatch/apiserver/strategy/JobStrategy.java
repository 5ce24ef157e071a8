package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.Fields.absent;
import static io.listwatch.apiserver.strategy.Fields.defaultIfAbsent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
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

  /**
   * kube's {@code SetDefaults_Job} and the pod template's defaults, of a Job's spec (not of a
   * CronJob's job template, which kube does not give them); a null {@code spec} is left alone.
   */
  private static void defaultSpec(ObjectNode spec) {
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

  /**
   * kube's {@code WarningsOnCreate}/{@code WarningsOnUpdate}: on create a name that is not a
   * DNS label (it names the pods); then, on create or when the generation moved, an Indexed
   * job's completions above 10^5 with a parallelism above 10^4 ({@link #specWarnings}) and the
   * pod template's ({@link PodWarnings}).
   */
  @Override
  public void warnings(ObjectNode obj, ObjectNode old, java.util.function.Consumer<String> warn) {
    if (old == null) {
      List<String> msgs = NameSyntax.isDns1123Label(obj.path("metadata").path("name").asText(""));
      if (!msgs.isEmpty()) {
        warn.accept("metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; "
            + "a DNS label is recommended: [" + String.join(" ", msgs) + "]");
      }
    }
    if (old == null || !old.path("metadata").path("generation").equals(obj.path("metadata").path("generation"))) {
      specWarnings(obj.path("spec"), "spec", warn);
    }
    WorkloadStrategy.templateWarnings(obj, old, "spec.template", obj.path("spec").path("template"), warn);
  }

  /** kube's {@code WarningsForJobSpec} but for the template's: the limits of tracking an Indexed job's indexes. */
  static void specWarnings(JsonNode spec, String path, java.util.function.Consumer<String> warn) {
    if (spec.path("completionMode").asText("").equals("Indexed") && spec.path("completions").asLong(0) > 100_000
        && spec.path("parallelism").asLong(0) > 10_000) {
      warn.accept(path + ": In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than "
          + "10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail");
    }
  }

  /**
   * kube's status strategy: a write of {@code /status} is refused (422) when it breaks kube's
   * {@code ValidateJobUpdateStatus} ({@link JobStatusValidation}).
   */
  @Override
  public void prepareForStatusUpdate(ObjectNode obj, ObjectNode old) {
    List<Status.Cause> errors = new java.util.ArrayList<>();
    JobStatusValidation.update(obj, old, errors);
    StatusValidation.refuse("batch", "Job", obj, errors);
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
