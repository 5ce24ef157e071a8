package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Jobs: NAME, STATUS, COMPLETIONS, DURATION, AGE; with {@code -o wide} CONTAINERS, IMAGES,
 * SELECTOR. As kube 1.32 prints them:
 * <ul>
 *   <li>STATUS is the first that holds of: a {@code Complete} condition True, {@code Failed}
 *       True, a deletion pending ({@code Terminating}), {@code Suspended} True,
 *       {@code FailureTarget} True; else {@code Running}.
 *   <li>COMPLETIONS is {@code succeeded/completions}; without completions
 *       {@code succeeded/1}, or {@code succeeded/1 of P} when parallelism P is above 1.
 *   <li>DURATION is empty before the job started, the time since it started while it runs, and
 *       from start to completion once it completed.
 * </ul>
 * Stateless.
 */
public final class JobTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = WorkloadColumns.withSelector(
      ColumnDefinition.string("Status", "Where the job stands: Complete, Failed, Running, Suspended, ..."),
      ColumnDefinition.string("Completions", "Pods that succeeded out of the completions wanted."),
      ColumnDefinition.string("Duration", "How long the job ran, or has been running."));

  public JobTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode job, Instant now) {
    JsonNode spec = job.path("spec");
    JsonNode status = job.path("status");
    long succeeded = Cells.integer(status.path("succeeded"), 0);
    String completions;
    if (spec.path("completions").isIntegralNumber()) {
      completions = succeeded + "/" + spec.path("completions").longValue();
    } else {
      long parallelism = Cells.integer(spec.path("parallelism"), 0);
      completions = parallelism > 1 ? succeeded + "/1 of " + parallelism : succeeded + "/1";
    }
    Instant started = Cells.time(status.path("startTime"));
    Instant completed = Cells.time(status.path("completionTime"));
    String duration = started == null ? ""
        : completed == null ? HumanDuration.since(started, now)
        : HumanDuration.format(Duration.between(started, completed));
    return WorkloadColumns.row(job, now, List.of(status(job), completions, duration),
        spec.path("template"), Cells.formatLabelSelector(spec.path("selector")));
  }

  private static String status(JsonNode job) {
    JsonNode conditions = job.path("status").path("conditions");
    if (Cells.conditionTrue(conditions, "Complete")) {
      return "Complete";
    } else if (Cells.conditionTrue(conditions, "Failed")) {
      return "Failed";
    } else if (Cells.deleting(job)) {
      return "Terminating";
    } else if (Cells.conditionTrue(conditions, "Suspended")) {
      return "Suspended";
    } else if (Cells.conditionTrue(conditions, "FailureTarget")) {
      return "FailureTarget";
    }
    return "Running";
  }
}
