package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * scheduling.k8s.io/v1 PriorityClasses: NAME, VALUE, GLOBAL-DEFAULT, AGE, PREEMPTIONPOLICY. As
 * in kube, the preemption policy is a priority-0 column after AGE, and reads
 * {@code PreemptLowerPriority} when unset, as kube's defaulting sets it. Stateless.
 */
public final class PriorityClassTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.integer("Value", "The priority pods of this class get."),
      ColumnDefinition.bool("Global-Default", "Whether pods without a class get this one."),
      ColumnDefinition.ageColumn(),
      ColumnDefinition.string("PreemptionPolicy", "Whether pods of this class may preempt lower-priority pods."));

  public PriorityClassTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode pc, Instant now) {
    return TableRow.of(Cells.name(pc), Cells.integer(pc.path("value"), 0), pc.path("globalDefault").asBoolean(false),
        Cells.age(pc, now), Cells.text(pc.path("preemptionPolicy"), "PreemptLowerPriority"));
  }
}
