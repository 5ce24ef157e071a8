package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.Fields.defaultIfAbsent;
import static io.listwatch.apiserver.strategy.Fields.object;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;
import java.util.regex.Pattern;

/**
 * CronJobs (batch/v1), kube's defaults: {@code concurrencyPolicy: Allow}, {@code suspend:
 * false}, history limits 3 (successful) and 1 (failed), and the job template's pod template
 * ({@link PodSpecDefaults#template}) but not the Job's own defaults: kube 1.32's generated
 * {@code SetObjectDefaults_CronJob} calls {@code SetDefaults_CronJob} and the pod spec's
 * defaulters, and {@code SetDefaults_Job} takes a Job, not a job template, so a stored CronJob's
 * {@code spec.jobTemplate.spec} keeps only what the client set (the Jobs the controller makes
 * from it get the Job's defaults when created). kube's validation ({@link #validate}).
 */
final class CronJobStrategy implements RestStrategy {

  /** kube's characters of one part of an IANA time zone name (digits and '+' tolerated). */
  private static final Pattern TIME_ZONE_PART = Pattern.compile("[A-Za-z.\\-_0-9+]{1,14}");

  @Override
  public void defaults(ObjectNode obj) {
    ObjectNode spec = object(obj, "spec", true);
    if (spec == null) {
      return;
    }
    defaultIfAbsent(spec, "concurrencyPolicy", "Allow");
    defaultIfAbsent(spec, "suspend", false);
    defaultIfAbsent(spec, "successfulJobsHistoryLimit", 3);
    defaultIfAbsent(spec, "failedJobsHistoryLimit", 1);
    ObjectNode jobTemplate = object(spec, "jobTemplate", false);
    if (jobTemplate != null) {
      PodSpecDefaults.template(object(jobTemplate, "spec", false));
    }
  }

  /**
   * kube's {@code ValidateCronJobCreate} and {@code ValidateCronJobUpdate}: the name at most 52
   * characters (on create: the controller adds 11 to name its jobs), the schedule
   * ({@link CronSchedule}; no {@code TZ}/{@code CRON_TZ} unless the stored schedule had one),
   * {@code timeZone} (checked when it changes), {@code startingDeadlineSeconds},
   * {@code concurrencyPolicy}, the job template ({@link JobValidation#spec}; no selector, no
   * manual selector) and the history limits.
   */
  /** kube's {@code WarningsOnCreate}/{@code WarningsOnUpdate}: the pod template's ({@link PodWarnings}). */
  @Override
  public void warnings(ObjectNode obj, ObjectNode old, java.util.function.Consumer<String> warn) {
    WorkloadStrategy.templateWarnings(obj, old, "spec.jobTemplate.spec.template", obj.path("spec").path("jobTemplate").path("spec").path("template"), warn);
  }

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    JsonNode spec = obj.path("spec");
    JsonNode oldSpec = old == null ? null : old.path("spec");
    schedule(spec, oldSpec, errors);
    NumericFields.nonNegative(spec.path("startingDeadlineSeconds"), "spec.startingDeadlineSeconds", errors);
    if (oldSpec == null || !spec.path("timeZone").equals(oldSpec.path("timeZone"))) {
      timeZone(spec.path("timeZone"), errors);
    }
    String policy = spec.path("concurrencyPolicy").asText("");
    if (policy.isEmpty()) {
      errors.add(FieldErrors.required("spec.concurrencyPolicy", ""));
    } else if (!List.of("Allow", "Forbid", "Replace").contains(policy)) {
      errors.add(FieldErrors.notSupported("spec.concurrencyPolicy", policy, List.of("Allow", "Forbid", "Replace")));
    }
    JsonNode jobSpec = spec.path("jobTemplate").path("spec");
    JobValidation.spec(jobSpec, "spec.jobTemplate.spec", errors);
    if (NumericFields.given(jobSpec.path("selector"))) {
      errors.add(FieldErrors.invalid("spec.jobTemplate.spec.selector", LabelSelectorValidation.shown(jobSpec.path("selector")),
          "`selector` will be auto-generated"));
    }
    if (jobSpec.path("manualSelector").asBoolean(false)) {
      errors.add(FieldErrors.notSupported("spec.jobTemplate.spec.manualSelector", true, List.of("nil", "false")));
    }
    NumericFields.nonNegative(spec.path("successfulJobsHistoryLimit"), "spec.successfulJobsHistoryLimit", errors);
    NumericFields.nonNegative(spec.path("failedJobsHistoryLimit"), "spec.failedJobsHistoryLimit", errors);
    String name = obj.path("metadata").path("name").asText("");
    if (old == null && name.length() > NameSyntax.DNS1035_LABEL_MAX_LENGTH - 11) {
      errors.add(FieldErrors.invalid("metadata.name", name, "must be no more than 52 characters"));
    }
  }

  private static void schedule(JsonNode spec, JsonNode oldSpec, List<Status.Cause> errors) {
    String schedule = spec.path("schedule").asText("");
    if (schedule.isEmpty()) {
      errors.add(FieldErrors.required("spec.schedule", ""));
      return;
    }
    CronSchedule.problem(schedule).ifPresent(p -> errors.add(FieldErrors.invalid("spec.schedule", schedule, p)));
    boolean allowTz = oldSpec != null && oldSpec.path("schedule").asText("").contains("TZ");
    if (allowTz && schedule.contains("TZ") && NumericFields.given(spec.path("timeZone"))) {
      errors.add(FieldErrors.invalid("spec.schedule", schedule, "cannot use both timeZone field and TZ or CRON_TZ in schedule"));
    } else if (!allowTz && schedule.contains("TZ")) {
      errors.add(FieldErrors.invalid("spec.schedule", schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"));
    }
  }

  /** kube's {@code validateTimeZone}. */
  private static void timeZone(JsonNode value, List<Status.Cause> errors) {
    if (!NumericFields.given(value)) {
      return;
    }
    String zone = value.asText("");
    String path = "spec.timeZone";
    if (zone.isEmpty()) {
      errors.add(FieldErrors.invalid(path, zone, "timeZone must be nil or non-empty string"));
      return;
    }
    for (String part : zone.split("/", -1)) {
      if (part.equals(".") || part.equals("..") || part.startsWith("-") || !TIME_ZONE_PART.matcher(part).matches()) {
        errors.add(FieldErrors.invalid(path, zone, "unknown time zone " + zone));
        return;
      }
    }
    if (zone.equalsIgnoreCase("Local")) {
      errors.add(FieldErrors.invalid(path, zone,
          "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"));
    }
    if (!CronSchedule.knownZone(zone)) {
      errors.add(FieldErrors.invalid(path, zone, "unknown time zone " + zone));
    }
  }
}
