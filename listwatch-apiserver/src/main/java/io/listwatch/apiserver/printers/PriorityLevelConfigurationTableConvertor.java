package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfigurations: NAME, TYPE,
 * NOMINALCONCURRENCYSHARES, QUEUES, HANDSIZE, QUEUELENGTHLIMIT, AGE. As kube's printer, the
 * shares are read from {@code spec.limited} and the queuing columns from its
 * {@code limitResponse.queuing}; each is {@code <none>} where that part is absent (an Exempt
 * level, a Reject response). Stateless.
 */
public final class PriorityLevelConfigurationTableConvertor extends FixedColumnsTableConvertor {

  private static final String NONE = "<none>";
  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.string("Type", "Whether requests of this level are subject to a limit (Exempt or Limited)."),
      ColumnDefinition.string("NominalConcurrencyShares", "The level's share of the server's concurrency limit."),
      ColumnDefinition.string("Queues", "The number of queues of this level."),
      ColumnDefinition.string("HandSize", "The number of queues a flow is shuffle-sharded over."),
      ColumnDefinition.string("QueueLengthLimit", "How many requests may wait in one queue."),
      ColumnDefinition.ageColumn());

  public PriorityLevelConfigurationTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode pl, Instant now) {
    JsonNode limited = pl.path("spec").path("limited");
    JsonNode queuing = limited.path("limitResponse").path("queuing");
    boolean queues = queuing.isObject();
    return TableRow.of(Cells.name(pl), Cells.text(pl.path("spec").path("type")),
        limited.isObject() ? cell(limited.path("nominalConcurrencyShares")) : NONE,
        queues ? cell(queuing.path("queues")) : NONE, queues ? cell(queuing.path("handSize")) : NONE,
        queues ? cell(queuing.path("queueLengthLimit")) : NONE, Cells.age(pl, now));
  }

  /** An int32 cell, 0 when unset (kube prints its Go zero value). */
  private static Object cell(JsonNode value) {
    return Cells.integer(value, 0);
  }
}
