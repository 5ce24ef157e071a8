package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * flowcontrol.apiserver.k8s.io/v1 FlowSchemas: NAME, PRIORITYLEVEL, MATCHINGPRECEDENCE,
 * DISTINGUISHERMETHOD, AGE, MISSINGPL. As kube's printer, the distinguisher method is
 * {@code <none>} when unset, and MISSINGPL is the status of the {@code Dangling} condition
 * ({@code ?} while no controller has set it). Stateless.
 */
public final class FlowSchemaTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.string("PriorityLevel", "The name of the priority level the schema's requests go to."),
      ColumnDefinition.string("MatchingPrecedence", "Lower values are matched first."),
      ColumnDefinition.string("DistinguisherMethod", "How the flow of a request is told apart (ByUser, ByNamespace)."),
      ColumnDefinition.ageColumn(),
      ColumnDefinition.string("MissingPL", "references a broken or non-existent PriorityLevelConfiguration"));

  public FlowSchemaTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode fs, Instant now) {
    JsonNode spec = fs.path("spec");
    String missing = "?";
    for (JsonNode c : Cells.elements(fs.path("status").path("conditions"))) {
      if ("Dangling".equals(c.path("type").asText())) {
        missing = Cells.text(c.path("status"));
        break;
      }
    }
    String method = spec.path("distinguisherMethod").isObject()
        ? Cells.text(spec.path("distinguisherMethod").path("type")) : "<none>";
    return TableRow.of(Cells.name(fs), Cells.text(spec.path("priorityLevelConfiguration").path("name")),
        Cells.integer(spec.path("matchingPrecedence"), 0), method, Cells.age(fs, now), missing);
  }
}
