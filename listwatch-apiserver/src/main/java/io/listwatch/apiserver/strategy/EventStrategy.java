package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;
import java.util.Objects;

/**
 * Events, kube's {@code ValidateEventCreate} and {@code ValidateEventUpdate}
 * ({@code pkg/apis/core/validation/events.go}), for the two ways they are written:
 * <ul>
 *   <li>core/v1 ({@link #CORE}): kube's legacy rules only. Without {@code eventTime}, the
 *       involved object's namespace matches the event's (an event in {@code default} may be
 *       about a cluster-scoped object); with it, the involved object has a namespace unless the
 *       event is in {@code default} or {@code kube-system}, and {@code reportingComponent},
 *       {@code reportingInstance}, {@code action} and {@code reason} are set (a qualified name,
 *       at most 128 characters), {@code message} at most 1024.</li>
 *   <li>events.k8s.io/v1 ({@link #EVENTS_V1}): the legacy rules and then kube's strict ones:
 *       {@code eventTime} required, {@code type} Normal or Warning, the deprecated fields
 *       unset, a series of at least 2 with a {@code lastObservedTime}; on update the event's
 *       content is immutable (only the series and metadata change).</li>
 * </ul>
 * Field paths are kube's internal names in both APIs ({@code involvedObject.namespace},
 * {@code reportingController}, {@code message}, {@code source}), as kube answers them.
 * Stateless.
 */
final class EventStrategy implements RestStrategy {

  /** The field names of one API's Event JSON, by kube's internal field. */
  private record Names(String involvedObject, String reportingController, String message, String source,
      String firstTimestamp, String lastTimestamp, String count) {
  }

  /** core/v1 Events. */
  static final EventStrategy CORE = new EventStrategy(false,
      new Names("involvedObject", "reportingComponent", "message", "source", "firstTimestamp", "lastTimestamp", "count"));
  /** events.k8s.io/v1 Events. */
  static final EventStrategy EVENTS_V1 = new EventStrategy(true, new Names("regarding", "reportingController", "note",
      "deprecatedSource", "deprecatedFirstTimestamp", "deprecatedLastTimestamp", "deprecatedCount"));

  private final boolean strict;
  private final Names names;

  private EventStrategy(boolean strict, Names names) {
    this.strict = strict;
    this.names = names;
  }

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    legacy(obj, errors);
    if (!strict) {
      return;
    }
    if (old == null) {
      strictCreate(obj, errors);
      return;
    }
    if (!Objects.equals(obj.get("series"), old.get("series"))) {
      series(obj, errors);
    }
    immutable(obj, old, names.involvedObject, "involvedObject", errors);
    immutable(obj, old, "reason", "reason", errors);
    immutable(obj, old, names.message, "message", errors);
    immutable(obj, old, names.source, "source", errors);
    immutable(obj, old, names.firstTimestamp, "firstTimestamp", errors);
    immutable(obj, old, names.lastTimestamp, "lastTimestamp", errors);
    immutable(obj, old, names.count, "count", errors);
    immutable(obj, old, "reason", "reason", errors);
    immutable(obj, old, "type", "type", errors);
    immutable(obj, old, "eventTime", "eventTime", errors);
    immutable(obj, old, "action", "action", errors);
    immutable(obj, old, "related", "related", errors);
    immutable(obj, old, names.reportingController, "reportingController", errors);
    immutable(obj, old, "reportingInstance", "reportingInstance", errors);
  }

  /** kube's {@code legacyValidateEvent}. */
  private void legacy(ObjectNode obj, List<Status.Cause> errors) {
    String namespace = obj.path("metadata").path("namespace").asText("");
    String involvedNamespace = obj.path(names.involvedObject).path("namespace").asText("");
    if (!set(obj, "eventTime")) {
      boolean matches = involvedNamespace.isEmpty()
          ? namespace.isEmpty() || namespace.equals("default") : namespace.equals(involvedNamespace);
      if (!matches) {
        errors.add(FieldErrors.invalid("involvedObject.namespace", involvedNamespace, "does not match event.namespace"));
      }
    } else {
      if (involvedNamespace.isEmpty() && !namespace.equals("default") && !namespace.equals("kube-system")) {
        errors.add(FieldErrors.invalid("involvedObject.namespace", involvedNamespace, "does not match event.namespace"));
      }
      String controller = obj.path(names.reportingController).asText("");
      if (controller.isEmpty()) {
        errors.add(FieldErrors.required("reportingController", ""));
      }
      for (String msg : NameSyntax.isQualifiedName(controller)) {
        errors.add(FieldErrors.invalid("reportingController", controller, msg));
      }
      requiredAtMost(obj, "reportingInstance", "reportingInstance", 128, true, errors);
      requiredAtMost(obj, "action", "action", 128, true, errors);
      requiredAtMost(obj, "reason", "reason", 128, true, errors);
      requiredAtMost(obj, names.message, "message", 1024, false, errors);
    }
    for (String msg : NameSyntax.isDns1123Subdomain(namespace)) {
      errors.add(FieldErrors.invalid("namespace", namespace, msg));
    }
  }

  private void strictCreate(ObjectNode obj, List<Status.Cause> errors) {
    series(obj, errors);
    if (!set(obj, "eventTime")) {
      errors.add(FieldErrors.required("eventTime", ""));
    }
    String type = obj.path("type").asText("");
    if (!type.equals("Normal") && !type.equals("Warning")) {
      errors.add(FieldErrors.invalid("type", "", "has invalid value: " + type));
    }
    if (set(obj, names.firstTimestamp)) {
      errors.add(FieldErrors.invalid("firstTimestamp", "", "needs to be unset"));
    }
    if (set(obj, names.lastTimestamp)) {
      errors.add(FieldErrors.invalid("lastTimestamp", "", "needs to be unset"));
    }
    if (obj.path(names.count).asLong(0) != 0) {
      errors.add(FieldErrors.invalid("count", "", "needs to be unset"));
    }
    JsonNode source = obj.path(names.source);
    if (!source.path("component").asText("").isEmpty() || !source.path("host").asText("").isEmpty()) {
      errors.add(FieldErrors.invalid("source", "", "needs to be unset"));
    }
  }

  /** kube's {@code validateV1EventSeries}. */
  private static void series(ObjectNode obj, List<Status.Cause> errors) {
    JsonNode series = obj.path("series");
    if (!series.isObject()) {
      return;
    }
    if (series.path("count").asLong(0) < 2) {
      errors.add(FieldErrors.invalid("series.count", "", "should be at least 2"));
    }
    if (!set(series, "lastObservedTime")) {
      errors.add(FieldErrors.required("series.lastObservedTime", ""));
    }
  }

  private static void requiredAtMost(ObjectNode obj, String field, String path, int max, boolean required,
      List<Status.Cause> errors) {
    String value = obj.path(field).asText("");
    if (required && value.isEmpty()) {
      errors.add(FieldErrors.required(path, ""));
    }
    if (NameSyntax.byteLength(value) > max) {
      errors.add(FieldErrors.invalid(path, "", "can have at most " + max + " characters"));
    }
  }

  /** kube's {@code ValidateImmutableField}: {@code <path>: Invalid value: ...: field is immutable}. */
  private static void immutable(ObjectNode obj, ObjectNode old, String field, String path, List<Status.Cause> errors) {
    JsonNode now = obj.get(field);
    JsonNode was = old.get(field);
    if (!Objects.equals(empty(now), empty(was))) {
      errors.add(FieldErrors.invalid(path, now != null && now.isValueNode() ? now.asText() : "", "field is immutable"));
    }
  }

  private static JsonNode empty(JsonNode n) {
    return n == null || n.isNull() || (n.isContainerNode() && n.isEmpty()) || (n.isTextual() && n.asText().isEmpty())
        || (n.isNumber() && n.asLong() == 0) ? null : n;
  }

  /** Whether a time or string field is set (kube's zero time is an absent or null one). */
  private static boolean set(JsonNode obj, String field) {
    JsonNode n = obj.path(field);
    return !n.isMissingNode() && !n.isNull() && !n.asText("").isEmpty();
  }
}
