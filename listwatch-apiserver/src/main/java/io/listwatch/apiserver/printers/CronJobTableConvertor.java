package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * CronJobs: NAME, SCHEDULE, TIMEZONE ({@code <none>} when unset), SUSPEND ({@code True} or
 * {@code False}; unset reads False, as kube's defaulting sets it), ACTIVE (running jobs), LAST
 * SCHEDULE (how long ago, or {@code <none>}), AGE; with {@code -o wide} the CONTAINERS and
 * IMAGES of the job template's pods and the job template's SELECTOR. Stateless.
 */
public final class CronJobTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = WorkloadColumns.withSelector(
      ColumnDefinition.string("Schedule", "The cron schedule."),
      ColumnDefinition.string("Timezone", "The time zone the schedule is read in."),
      ColumnDefinition.bool("Suspend", "Whether new runs are held back."),
      ColumnDefinition.integer("Active", "Jobs of this cron job running now."),
      ColumnDefinition.string("Last Schedule", "Time since a job was last scheduled."));

  public CronJobTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode cj, Instant now) {
    JsonNode spec = cj.path("spec");
    JsonNode status = cj.path("status");
    JsonNode timeZone = spec.path("timeZone");
    Instant lastSchedule = Cells.time(status.path("lastScheduleTime"));
    JsonNode jobSpec = spec.path("jobTemplate").path("spec");
    return WorkloadColumns.row(cj, now, List.of(
            Cells.text(spec.path("schedule")),
            timeZone.isTextual() ? timeZone.textValue() : "<none>",
            spec.path("suspend").asBoolean(false) ? "True" : "False",
            (long) Cells.elements(status.path("active")).size(),
            lastSchedule == null ? "<none>" : HumanDuration.since(lastSchedule, now)),
        jobSpec.path("template"), Cells.formatLabelSelector(jobSpec.path("selector")));
  }
}
