package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/** node.k8s.io/v1 RuntimeClasses: NAME, HANDLER, AGE, as kube 1.32 prints them. Stateless. */
public final class RuntimeClassTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.string("Handler", "The container runtime configuration that runs pods of this class."),
      ColumnDefinition.ageColumn());

  public RuntimeClassTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode rc, Instant now) {
    return TableRow.of(Cells.name(rc), Cells.text(rc.path("handler")), Cells.age(rc, now));
  }
}
