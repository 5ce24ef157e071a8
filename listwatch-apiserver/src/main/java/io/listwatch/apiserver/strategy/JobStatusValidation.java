package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.NumericFields.given;
import static io.listwatch.apiserver.strategy.NumericFields.nonNegative;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube's validation of a write of a Job's {@code /status} ({@code ValidateJobUpdateStatus} of
 * {@code pkg/apis/batch/validation}, with the options kube 1.32's status strategy gives when the
 * JobManagedBy feature is on, as it is by default): the counters not negative, the uncounted
 * pods' uids not empty nor repeated; and, each only when the fields it concerns changed in this
 * write (so that a status kube's controller wrote before is not refused for a rule it broke
 * then), the transitions an external controller must respect: a terminal condition
 * ({@code Complete}, {@code Failed}, {@code FailureTarget}) and {@code SuccessCriteriaMet} stay
 * true, {@code Complete} goes with a {@code completionTime} and not with {@code Failed} nor
 * {@code FailureTarget}, a finished job has a {@code startTime}, no active and no uncounted pods,
 * the counters {@code failed} (and {@code succeeded}, but for an Indexed job whose completions
 * equal its parallelism) do not decrease, {@code completionTime} is not changed nor before
 * {@code startTime}, {@code startTime} of an unsuspended job stays, and the completed and failed
 * indexes are valid sets ({@link JobIndexes}) that do not overlap. Stateless.
 */
final class JobStatusValidation {

  private static final DateTimeFormatter GO_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss '+0000 UTC'").withZone(ZoneOffset.UTC);

  private JobStatusValidation() {
  }

  /** kube's {@code ValidateJobStatusUpdate} of {@code job}'s status, {@code old} the stored job. */
  static void update(JsonNode job, JsonNode old, List<Status.Cause> errors) {
    JsonNode spec = job.path("spec");
    JsonNode status = job.path("status");
    JsonNode oldStatus = old.path("status");
    boolean indexed = spec.path("completionMode").asText("NonIndexed").equals("Indexed");
    boolean finishedChanged = finished(job) != finished(old);
    boolean completeChanged = isTrue(job, "Complete") != isTrue(old, "Complete");
    boolean failedChanged = isTrue(job, "Failed") != isTrue(old, "Failed");
    boolean failureTargetChanged = isTrue(job, "FailureTarget") != isTrue(old, "FailureTarget");
    boolean completedIndexesChanged = !status.path("completedIndexes").asText("")
        .equals(oldStatus.path("completedIndexes").asText(""));
    boolean failedIndexesChanged = !same(status.path("failedIndexes"), oldStatus.path("failedIndexes"));
    boolean activeChanged = status.path("active").asLong(0) != oldStatus.path("active").asLong(0);
    boolean startTimeChanged = !sameTime(status.path("startTime"), oldStatus.path("startTime"));
    boolean completionTimeChanged = !sameTime(status.path("completionTime"), oldStatus.path("completionTime"));
    boolean uncountedChanged = !same(status.path("uncountedTerminatedPods"), oldStatus.path("uncountedTerminatedPods"));

    counters(status, errors);
    uncountedTerminatedPods(status.path("uncountedTerminatedPods"), errors);
    boolean complete = isTrue(job, "Complete");
    boolean failed = isTrue(job, "Failed");
    boolean finished = complete || failed;
    if ((completeChanged || failedChanged) && complete && failed) {
      errors.add(FieldErrors.invalidOmitValue("status.conditions", "cannot set Complete=True and Failed=true conditions"));
    }
    if ((completeChanged || failureTargetChanged) && complete && isTrue(job, "FailureTarget")) {
      errors.add(FieldErrors.invalidOmitValue("status.conditions", "cannot set Complete=True and FailureTarget=true conditions"));
    }
    JsonNode completionTime = status.path("completionTime");
    JsonNode startTime = status.path("startTime");
    if (completeChanged || completionTimeChanged) {
      if (given(completionTime) && !complete) {
        errors.add(FieldErrors.invalid("status.completionTime", goTime(completionTime),
            "cannot set completionTime when there is no Complete=True condition"));
      }
      if (!given(completionTime) && complete) {
        errors.add(FieldErrors.required("status.completionTime", "completionTime is required for Complete jobs"));
      }
    }
    if ((startTimeChanged || completionTimeChanged) && given(startTime) && given(completionTime)
        && instant(completionTime).isBefore(instant(startTime))) {
      errors.add(FieldErrors.invalid("status.completionTime", goTime(completionTime), "completionTime cannot be set before startTime"));
    }
    long active = status.path("active").asLong(0);
    if ((finishedChanged || activeChanged) && active > 0 && finished) {
      errors.add(FieldErrors.invalid("status.active", active, "active>0 is invalid for finished job"));
    }
    if ((finishedChanged || startTimeChanged) && !given(startTime) && finished) {
      errors.add(FieldErrors.required("status.startTime", "startTime is required for finished job"));
    }
    JsonNode uncounted = status.path("uncountedTerminatedPods");
    if ((finishedChanged || uncountedChanged) && finished
        && uncounted.path("failed").size() + uncounted.path("succeeded").size() > 0) {
      errors.add(FieldErrors.invalid("status.uncountedTerminatedPods", goUncounted(uncounted),
          "uncountedTerminatedPods needs to be empty for finished job"));
    }
    indexes(spec, status, indexed, completedIndexesChanged, failedIndexesChanged, errors);
    successCriteriaMet(job, errors);
    transitions(job, old, indexed, startTimeChanged, errors);
  }

  private static void counters(JsonNode status, List<Status.Cause> errors) {
    for (String counter : new String[] {"active", "succeeded", "failed", "ready", "terminating"}) {
      nonNegative(status.path(counter), "status." + counter, errors);
    }
  }

  private static void uncountedTerminatedPods(JsonNode uncounted, List<Status.Cause> errors) {
    Set<String> seen = new HashSet<>();
    for (String list : new String[] {"succeeded", "failed"}) {
      JsonNode uids = uncounted.path(list);
      for (int i = 0; i < uids.size(); i++) {
        String uid = uids.get(i).asText("");
        String path = "status.uncountedTerminatedPods." + list + "[" + i + "]";
        if (uid.isEmpty()) {
          errors.add(FieldErrors.invalid(path, uid, "must not be empty"));
        } else if (!seen.add(uid)) {
          errors.add(FieldErrors.duplicate(path, uid));
        }
      }
    }
  }

  private static void indexes(JsonNode spec, JsonNode status, boolean indexed, boolean completedChanged,
      boolean failedChanged, List<Status.Cause> errors) {
    JsonNode completions = spec.path("completions");
    String completed = status.path("completedIndexes").asText("");
    JsonNode failed = status.path("failedIndexes");
    if (completedChanged && given(completions)) {
      JobIndexes.parse(completed, completions.asLong()).problem().ifPresent(problem -> errors.add(
          FieldErrors.invalid("status.completedIndexes", completed, "error parsing completedIndexes: " + problem)));
    }
    boolean perIndex = given(spec.path("backoffLimitPerIndex"));
    if (failedChanged && given(completions) && perIndex && given(failed)) {
      JobIndexes.parse(failed.asText(""), completions.asLong()).problem().ifPresent(problem -> errors.add(
          FieldErrors.invalid("status.failedIndexes", failed.asText(""), "error parsing failedIndexes: " + problem)));
    }
    if (completedChanged && !completed.isEmpty() && !indexed) {
      errors.add(FieldErrors.invalid("status.completedIndexes", completed,
          "cannot set non-empty completedIndexes when non-indexed completion mode"));
    }
    if (failedChanged && !perIndex && given(failed)) {
      errors.add(FieldErrors.invalid("status.failedIndexes", failed.asText(""),
          "cannot set non-null failedIndexes when backoffLimitPerIndex is null"));
    }
    if ((failedChanged || completedChanged) && given(completions) && given(failed)) {
      overlap(completed, failed.asText(""), completions.asLong()).ifPresent(index -> errors.add(
          FieldErrors.invalid("status.failedIndexes", failed.asText(""),
              "failedIndexes and completedIndexes overlap at index: " + index)));
    }
  }

  /**
   * kube's {@code validateFailedIndexesNotOverlapCompleted}: walking both lists of intervals in
   * order (skipping those that do not parse), the first index of the first overlap.
   */
  private static java.util.Optional<Long> overlap(String completed, String failed, long completions) {
    if (completed.isEmpty() || failed.isEmpty()) {
      return java.util.Optional.empty();
    }
    String[] c = completed.split(",", -1);
    String[] f = failed.split(",", -1);
    int ci = 0;
    int fi = 0;
    while (ci < c.length && fi < f.length) {
      long[] cxy = interval(c[ci], completions);
      long[] fxy = interval(f[fi], completions);
      if (cxy == null) {
        ci++;
      } else if (fxy == null) {
        fi++;
      } else if (cxy[0] <= fxy[1] && fxy[0] <= cxy[1]) {
        return java.util.Optional.of(Math.max(cxy[0], fxy[0]));
      } else if (cxy[0] <= fxy[0]) {
        ci++;
      } else {
        fi++;
      }
    }
    return java.util.Optional.empty();
  }

  /** One interval as {@code [x, y]}, or null when it does not parse. */
  private static long[] interval(String interval, long completions) {
    if (interval.isEmpty() || JobIndexes.parse(interval, completions).problem().isPresent()) {
      return null;
    }
    String[] limits = interval.split("-", -1);
    return new long[] {Long.parseLong(limits[0]), Long.parseLong(limits[limits.length - 1])};
  }

  private static void successCriteriaMet(JsonNode job, List<Status.Cause> errors) {
    boolean met = isTrue(job, "SuccessCriteriaMet");
    if (met && isTrue(job, "Failed")) {
      errors.add(FieldErrors.invalidOmitValue("status.conditions", "cannot set SuccessCriteriaMet=True and Failed=true conditions"));
    }
    if (met && isTrue(job, "FailureTarget")) {
      errors.add(FieldErrors.invalidOmitValue("status.conditions",
          "cannot set SuccessCriteriaMet=True and FailureTarget=true conditions"));
    }
    if (given(job.path("spec").path("successPolicy")) && !met && isTrue(job, "Complete")) {
      errors.add(FieldErrors.invalidOmitValue("status.conditions",
          "cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True"));
    }
  }

  /** The rules of {@code ValidateJobStatusUpdate} proper, on the change from {@code old}. */
  private static void transitions(JsonNode job, JsonNode old, boolean indexed, boolean startTimeChanged,
      List<Status.Cause> errors) {
    JsonNode spec = job.path("spec");
    JsonNode status = job.path("status");
    JsonNode oldStatus = old.path("status");
    for (String type : new String[] {"Failed", "Complete", "FailureTarget"}) {
      if (isTrue(old, type) && !isTrue(job, type)) {
        errors.add(FieldErrors.invalidOmitValue("status.conditions", "cannot disable the terminal " + type + "=True condition"));
      }
    }
    if (status.path("failed").asLong(0) < oldStatus.path("failed").asLong(0)) {
      errors.add(FieldErrors.invalid("status.failed", status.path("failed").asLong(0), "cannot decrease the failed counter"));
    }
    boolean scalable = indexed && spec.path("completions").equals(spec.path("parallelism"));
    if (!scalable && status.path("succeeded").asLong(0) < oldStatus.path("succeeded").asLong(0)) {
      errors.add(FieldErrors.invalid("status.succeeded", status.path("succeeded").asLong(0),
          "cannot decrease the succeeded counter"));
    }
    JsonNode completionTime = status.path("completionTime");
    if (given(completionTime) && given(oldStatus.path("completionTime"))
        && !sameTime(completionTime, oldStatus.path("completionTime"))) {
      errors.add(FieldErrors.invalid("status.completionTime", goTime(completionTime), "completionTime cannot be mutated"));
    }
    if (startTimeChanged && given(oldStatus.path("startTime")) && !spec.path("suspend").asBoolean(false)) {
      errors.add(FieldErrors.required("status.startTime", "startTime cannot be removed for unsuspended job"));
    }
    if (isTrue(old, "SuccessCriteriaMet") && !isTrue(job, "SuccessCriteriaMet")) {
      errors.add(FieldErrors.invalidOmitValue("status.conditions", "cannot disable the SuccessCriteriaMet=True condition"));
    }
    if (isTrue(old, "Complete") && !isTrue(old, "SuccessCriteriaMet") && isTrue(job, "SuccessCriteriaMet")) {
      errors.add(FieldErrors.invalidOmitValue("status.conditions",
          "cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions"));
    }
  }

  /** kube's {@code ptr.Equal}: both nil (missing or null), or both set and equal. */
  private static boolean same(JsonNode a, JsonNode b) {
    return given(a) == given(b) && (!given(a) || a.equals(b));
  }

  /** {@link #same} of two {@code metav1.Time}s, compared as instants. */
  private static boolean sameTime(JsonNode a, JsonNode b) {
    return given(a) == given(b) && (!given(a) || instant(a).equals(instant(b)));
  }

  private static boolean finished(JsonNode job) {
    return isTrue(job, "Complete") || isTrue(job, "Failed");
  }

  /** kube's {@code IsConditionTrue} of the job's status conditions. */
  private static boolean isTrue(JsonNode job, String type) {
    for (JsonNode condition : job.path("status").path("conditions")) {
      if (condition.path("type").asText("").equals(type) && condition.path("status").asText("").equals("True")) {
        return true;
      }
    }
    return false;
  }

  private static Instant instant(JsonNode time) {
    try {
      return Instant.parse(time.asText(""));
    } catch (java.time.format.DateTimeParseException e) {
      return Instant.EPOCH; // refused by the schema before; kube cannot decode it
    }
  }

  /** A {@code metav1.Time} as kube prints a bad one (Go's {@code time.Time.String()} in UTC). */
  private static GoLiteral goTime(JsonNode time) {
    return new GoLiteral(GO_TIME.format(instant(time)));
  }

  /** Go's {@code %#v} of kube's {@code batch.UncountedTerminatedPods}. */
  private static GoLiteral goUncounted(JsonNode uncounted) {
    StringBuilder b = new StringBuilder("batch.UncountedTerminatedPods{");
    for (String list : new String[] {"Succeeded", "Failed"}) {
      JsonNode uids = uncounted.path(list.toLowerCase(java.util.Locale.ROOT));
      b.append(list.equals("Failed") ? ", " : "").append(list).append(":[]types.UID");
      if (!uids.isArray()) {
        b.append("(nil)");
        continue;
      }
      b.append('{');
      for (int i = 0; i < uids.size(); i++) {
        b.append(i > 0 ? ", " : "").append(FieldErrors.goValue(uids.get(i).asText("")));
      }
      b.append('}');
    }
    return new GoLiteral(b.append('}').toString());
  }
}
