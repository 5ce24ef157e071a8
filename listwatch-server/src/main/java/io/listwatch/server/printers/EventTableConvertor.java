package io.listwatch.server.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * core/v1 Events: LAST SEEN, TYPE, REASON, OBJECT ({@code kind/name} in lower case), MESSAGE;
 * with {@code -o wide} also SUBOBJECT, SOURCE, FIRST SEEN, COUNT and NAME, in kube's column
 * order. The first time falls back to {@code eventTime}, the last to the first (or to the
 * series' last observation); the count is the series' count, else {@code count}, at least 1.
 * Stateless.
 */
public final class EventTableConvertor implements TableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(
      ColumnDefinition.string("Last Seen", "Time since the event was last seen."),
      ColumnDefinition.string("Type", "The type of the event (Normal, Warning)."),
      ColumnDefinition.string("Reason", "Why the event happened, in one word."),
      ColumnDefinition.string("Object", "The object the event is about."),
      ColumnDefinition.wide("Subobject", "The part of the object the event is about."),
      ColumnDefinition.wide("Source", "The component (and host) that reported the event."),
      ColumnDefinition.string("Message", "What happened."),
      ColumnDefinition.wide("First Seen", "Time since the event was first seen."),
      ColumnDefinition.wide("Count", "How many times the event happened."),
      new ColumnDefinition("Name", "string", "name", "The name of the event.", 1));

  @Override
  public List<ColumnDefinition> columnDefinitions() {
    return COLUMNS;
  }

  @Override
  public TableRow row(JsonNode ev, Instant now) {
    Instant first = Cells.time(ev.path("firstTimestamp"));
    String firstSeen = HumanDuration.since(first != null ? first : Cells.time(ev.path("eventTime")), now);
    Instant last = Cells.time(ev.path("lastTimestamp"));
    String lastSeen = last != null ? HumanDuration.since(last, now) : firstSeen;
    long count = Cells.integer(ev.path("count"), 0);
    JsonNode series = ev.path("series");
    if (series.isObject()) {
      lastSeen = HumanDuration.since(Cells.time(series.path("lastObservedTime")), now);
      count = Cells.integer(series.path("count"), 0);
    } else if (count == 0) {
      count = 1;
    }
    JsonNode involved = ev.path("involvedObject");
    String kind = Cells.text(involved.path("kind")).toLowerCase(Locale.ROOT);
    String name = Cells.text(involved.path("name"));
    String component = Cells.text(ev.path("source").path("component"), Cells.text(ev.path("reportingComponent")));
    String host = Cells.text(ev.path("source").path("host"), Cells.text(ev.path("reportingInstance")));
    return TableRow.of(lastSeen, Cells.text(ev.path("type")), Cells.text(ev.path("reason")),
        name.isEmpty() ? kind : kind + "/" + name,
        Cells.text(involved.path("fieldPath")),
        host.isEmpty() ? component : component + ", " + host,
        Cells.text(ev.path("message")).strip(),
        firstSeen, count, Cells.name(ev));
  }
}
