package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * Events, core/v1 and events.k8s.io/v1 alike (kube serves both from one storage and prints them
 * with one printer): LAST SEEN, TYPE, REASON, OBJECT ({@code kind/name} in lower case),
 * MESSAGE; with {@code -o wide} also SUBOBJECT, SOURCE, FIRST SEEN, COUNT and NAME, in kube's
 * column order. The first time falls back to {@code eventTime}, the last to the first (or to
 * the series' last observation); the count is the series' count, else {@code count}, at least
 * 1. The two versions differ only in field names (events.k8s.io/v1 says {@code regarding},
 * {@code note}, {@code deprecatedFirstTimestamp}, ...). Stateless.
 */
public final class EventTableConvertor extends FixedColumnsTableConvertor {

  /** The JSON names of the fields printed, in one API version. */
  private record Fields(String firstTimestamp, String lastTimestamp, String count, String source,
      String involvedObject, String message, String reportingController) {
  }

  private static final Fields CORE = new Fields("firstTimestamp", "lastTimestamp", "count", "source",
      "involvedObject", "message", "reportingComponent");
  private static final Fields EVENTS_V1 = new Fields("deprecatedFirstTimestamp", "deprecatedLastTimestamp",
      "deprecatedCount", "deprecatedSource", "regarding", "note", "reportingController");

  private final Fields fields;

  private EventTableConvertor(Fields fields) {
    super(COLUMNS);
    this.fields = fields;
  }

  /** The printer of core/v1 Events. */
  public static EventTableConvertor core() {
    return new EventTableConvertor(CORE);
  }

  /** The printer of events.k8s.io/v1 Events. */
  public static EventTableConvertor eventsV1() {
    return new EventTableConvertor(EVENTS_V1);
  }

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
  public TableRow row(JsonNode ev, Instant now) {
    Instant first = Cells.time(ev.path(fields.firstTimestamp()));
    String firstSeen = HumanDuration.since(first != null ? first : Cells.time(ev.path("eventTime")), now);
    Instant last = Cells.time(ev.path(fields.lastTimestamp()));
    String lastSeen = last != null ? HumanDuration.since(last, now) : firstSeen;
    long count = Cells.integer(ev.path(fields.count()), 0);
    JsonNode series = ev.path("series");
    if (series.isObject()) {
      lastSeen = HumanDuration.since(Cells.time(series.path("lastObservedTime")), now);
      count = Cells.integer(series.path("count"), 0);
    } else if (count == 0) {
      count = 1;
    }
    JsonNode involved = ev.path(fields.involvedObject());
    String kind = Cells.text(involved.path("kind")).toLowerCase(Locale.ROOT);
    String name = Cells.text(involved.path("name"));
    JsonNode source = ev.path(fields.source());
    String component = Cells.text(source.path("component"), Cells.text(ev.path(fields.reportingController())));
    String host = Cells.text(source.path("host"), Cells.text(ev.path("reportingInstance")));
    return TableRow.of(lastSeen, Cells.text(ev.path("type")), Cells.text(ev.path("reason")),
        name.isEmpty() ? kind : kind + "/" + name,
        Cells.text(involved.path("fieldPath")),
        host.isEmpty() ? component : component + ", " + host,
        Cells.text(ev.path(fields.message())).strip(),
        firstSeen, count, Cells.name(ev));
  }
}
