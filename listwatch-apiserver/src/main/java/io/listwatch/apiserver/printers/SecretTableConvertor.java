package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Secrets: NAME, TYPE ({@code Opaque} when unset, as kube defaults it), DATA (the keys of
 * data, and of stringData, which kube merges into data on write), AGE. Stateless.
 */
public final class SecretTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.string("Type", "The type of the secret."),
      ColumnDefinition.string("Data", "The number of entries in data."), ColumnDefinition.ageColumn());

  public SecretTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode secret, Instant now) {
    Set<String> keys = new TreeSet<>();
    for (String field : List.of("data", "stringData")) {
      for (Iterator<String> it = secret.path(field).fieldNames(); it.hasNext(); ) {
        keys.add(it.next());
      }
    }
    return TableRow.of(Cells.name(secret), Cells.text(secret.path("type"), "Opaque"), (long) keys.size(),
        Cells.age(secret, now));
  }
}
