package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * ControllerRevisions: NAME, CONTROLLER, REVISION, AGE. CONTROLLER is the owner reference
 * marked {@code controller: true}, as {@code kind.group/name} in lower case ({@code kind/name}
 * for the core group), or {@code <none>}. As in kube, REVISION is declared a string but carries
 * an integer. Stateless.
 */
public final class ControllerRevisionTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.string("Controller", "The object that owns this revision."),
      ColumnDefinition.string("Revision", "The revision number."),
      ColumnDefinition.ageColumn());

  public ControllerRevisionTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode cr, Instant now) {
    return TableRow.of(Cells.name(cr), controller(cr), Cells.integer(cr.path("revision"), 0), Cells.age(cr, now));
  }

  private static String controller(JsonNode object) {
    for (JsonNode ref : Cells.elements(object.path("metadata").path("ownerReferences"))) {
      if (!ref.path("controller").asBoolean(false)) {
        continue;
      }
      String apiVersion = Cells.text(ref.path("apiVersion"));
      int slash = apiVersion.indexOf('/');
      String group = slash < 0 ? "" : apiVersion.substring(0, slash);
      String kind = Cells.text(ref.path("kind"));
      String name = Cells.text(ref.path("name"));
      if (kind.isEmpty() && group.isEmpty()) {
        return name;
      }
      return (group.isEmpty() ? kind : kind + "." + group).toLowerCase(Locale.ROOT) + "/" + name;
    }
    return "<none>";
  }
}
