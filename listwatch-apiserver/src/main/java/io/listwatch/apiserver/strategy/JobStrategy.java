package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.Fields.absent;
import static io.listwatch.apiserver.strategy.Fields.defaultIfAbsent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Reasons;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import java.time.Instant;
import java.util.List;

/**
 * Jobs (batch/v1), kube's strategy and defaults: {@code parallelism} and {@code completions} 1
 * when both are absent (parallelism 1 alone otherwise), {@code backoffLimit: 6},
 * {@code completionMode: NonIndexed}, {@code suspend: false}, {@code podReplacementPolicy:
 * TerminatingOrFailed} (without a pod failure policy) and the pod template's defaults; a new
 * job gets a generated selector ({@link #prepareForCreate}).
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
    defaultIfAbsent(spec, "backoffLimit", 6);
    defaultIfAbsent(spec, "completionMode", "NonIndexed");
    defaultIfAbsent(spec, "suspend", false);
    if (absent(spec, "podFailurePolicy")) {
      defaultIfAbsent(spec, "podReplacementPolicy", "TerminatingOrFailed");
    }
    PodSpecDefaults.template(spec);
  }

  /** kube's job strategy: a Job deleted without a propagation policy orphans its pods (for old clients). */
  @Override
  public boolean orphansDependentsByDefault() {
    return true;
  }

  /**
   * kube's job strategy: unless {@code spec.manualSelector} is true, the job's pods are labelled
   * with its name and uid ({@code batch.kubernetes.io/job-name}, {@code job-name},
   * {@code batch.kubernetes.io/controller-uid}, {@code controller-uid}; labels the template
   * already has are kept) and the selector matches the uid, which makes the pods this job's
   * alone. A selector sent without {@code manualSelector: true} is refused (422, kube's
   * "`selector` not auto-generated"). Needs the uid, which the store has set.
   */
  @Override
  public void prepareForCreate(ObjectNode job, Instant now) {
    ObjectNode spec = job.get("spec") instanceof ObjectNode sp ? sp : job.putObject("spec");
    if (spec.path("manualSelector").asBoolean(false)) {
      return;
    }
    String name = job.path("metadata").path("name").asText();
    String uid = job.path("metadata").path("uid").asText();
    ObjectNode template = spec.get("template") instanceof ObjectNode t ? t : spec.putObject("template");
    ObjectNode meta = template.get("metadata") instanceof ObjectNode m ? m : template.putObject("metadata");
    ObjectNode labels = meta.get("labels") instanceof ObjectNode l ? l : meta.putObject("labels");
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
    JsonNode given = spec.get("selector");
    if (given != null && !given.isNull() && !given.isEmpty()) {
      // kube's validation: without manualSelector, the selector is the server's to generate
      throw StatusException.invalid("batch", "Job", job.path("metadata").path("name").asText(),
          List.of(new Status.Cause(Reasons.FIELD_VALUE_INVALID,
              "Invalid value: " + given + ": `selector` not auto-generated", "spec.selector")));
    }
    spec.putObject("selector").putObject("matchLabels").put("batch.kubernetes.io/controller-uid", uid);
  }
}
