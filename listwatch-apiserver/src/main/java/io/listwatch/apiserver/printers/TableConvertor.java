package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * How the objects of one kind print as Table rows (kube's {@code TableConvertor} and the
 * printer handlers behind it): the column definitions, and the cells of one object's row.
 * The server fills every column, including those of priority above 0; kubectl shows those
 * only with {@code -o wide}.
 *
 * <p>A row never fails: a field that is missing or of the wrong JSON type prints as kube's
 * printers print the zero value (or as the default kube's strategy would have given the
 * field). Implementations are stateless and thread-safe.
 */
public interface TableConvertor {

  /** The columns, in order; the same list for every object. */
  List<ColumnDefinition> columnDefinitions();

  /**
   * The row of {@code object}.
   *
   * @param object a whole API object of this convertor's kind
   * @param now the time ages are measured to
   */
  TableRow row(JsonNode object, Instant now);

  /**
   * The convertor of every resource without a printer of its own (kube's default table
   * convertor): the name, and the creation time as an RFC 3339 date.
   */
  TableConvertor DEFAULT = new TableConvertor() {
    private final List<ColumnDefinition> columns = List.of(ColumnDefinition.nameColumn(),
        new ColumnDefinition("Created At", "date", "", "When the object was created (RFC 3339, UTC).", 0));

    @Override
    public List<ColumnDefinition> columnDefinitions() {
      return columns;
    }

    @Override
    public TableRow row(JsonNode object, Instant now) {
      Instant created = Cells.creationTimestamp(object);
      return TableRow.of(Cells.name(object),
          (created == null ? Instant.parse("0001-01-01T00:00:00Z") : created.truncatedTo(java.time.temporal.ChronoUnit.SECONDS)).toString());
    }
  };
}
