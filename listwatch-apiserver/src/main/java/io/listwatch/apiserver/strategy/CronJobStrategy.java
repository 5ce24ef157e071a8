package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.Fields.defaultIfAbsent;
import static io.listwatch.apiserver.strategy.Fields.object;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * CronJobs (batch/v1), kube's defaults: {@code concurrencyPolicy: Allow}, {@code suspend:
 * false}, history limits 3 (successful) and 1 (failed), and their job template's defaults
 * ({@link JobStrategy#defaultSpec}).
 */
final class CronJobStrategy implements RestStrategy {

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
      JobStrategy.defaultSpec(object(jobTemplate, "spec", false));
    }
  }
}
