package io.listwatch.api.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * One entry of {@code metadata.managedFields}: the fields one manager owns through one
 * operation.
 *
 * <p>Immutable.
 *
 * @param manager the field manager's name, e.g. {@code kubectl}
 * @param operation {@link #APPLY} or {@link #UPDATE}
 * @param apiVersion the apiVersion the manager wrote with, e.g. {@code apps/v1}
 * @param time when the entry last changed, whole seconds; null when unknown
 * @param fields the owned fields
 * @param subresource the subresource written through, "" for the main resource
 */
public record ManagedFieldsEntry(String manager, String operation, String apiVersion, Instant time,
    FieldSet fields, String subresource) {

  /** The operation of server-side apply. */
  public static final String APPLY = "Apply";
  /** The operation of every other write (create, update, patch). */
  public static final String UPDATE = "Update";

  public ManagedFieldsEntry {
    Objects.requireNonNull(manager, "manager");
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(fields, "fields");
    apiVersion = apiVersion == null ? "" : apiVersion;
    subresource = subresource == null ? "" : subresource;
    time = time == null ? null : time.truncatedTo(ChronoUnit.SECONDS);
  }

  /**
   * Whether {@code other} is this entry's manager, as kube identifies managers: appliers by
   * name and subresource, updaters by name, apiVersion and subresource.
   */
  public boolean sameManager(ManagedFieldsEntry other) {
    return manager.equals(other.manager) && operation.equals(other.operation)
        && subresource.equals(other.subresource)
        && (operation.equals(APPLY) || apiVersion.equals(other.apiVersion));
  }

  /** This entry with other fields and time. */
  public ManagedFieldsEntry with(FieldSet newFields, Instant newTime) {
    return new ManagedFieldsEntry(manager, operation, apiVersion, newTime, newFields, subresource);
  }

  /** The entry as kube writes it. */
  public ObjectNode toJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    if (!manager.isEmpty()) {
      o.put("manager", manager); // omitempty: kube leaves out an empty manager
    }
    o.put("operation", operation);
    o.put("apiVersion", apiVersion);
    if (time != null) {
      o.put("time", time.toString());
    }
    o.put("fieldsType", "FieldsV1");
    o.set("fieldsV1", FieldsV1.toJson(fields));
    if (!subresource.isEmpty()) {
      o.put("subresource", subresource);
    }
    return o;
  }

  /**
   * Reads an entry.
   *
   * @throws IllegalArgumentException when the entry has no operation, or its fieldsType is not
   *     {@code FieldsV1} (a missing manager is the empty one, as Go decodes it)
   */
  public static ManagedFieldsEntry fromJson(JsonNode o) {
    String type = o.path("fieldsType").asText("");
    if (!type.equals("FieldsV1")) {
      throw new IllegalArgumentException("fieldsType must be FieldsV1, not \"" + type + "\"");
    }
    if (!o.hasNonNull("operation")) {
      throw new IllegalArgumentException("a managedFields entry needs an operation");
    }
    JsonNode fields = o.get("fieldsV1");
    return new ManagedFieldsEntry(o.path("manager").asText(""), o.get("operation").asText(),
        o.path("apiVersion").asText(""), o.hasNonNull("time") ? Instant.parse(o.get("time").asText()) : null,
        fields == null || fields.isNull() ? FieldSet.EMPTY : FieldsV1.parse(fields),
        o.path("subresource").asText(""));
  }

  /** How kube names this manager in a conflict: {@code "kubectl"}, or {@code "x" using apps/v1}. */
  String describe() {
    StringBuilder sb = new StringBuilder("\"").append(manager).append('"');
    if (!subresource.isEmpty()) {
      sb.append(" with subresource \"").append(subresource).append('"');
    }
    if (operation.equals(UPDATE)) {
      sb.append(" using ").append(apiVersion);
    }
    return sb.toString();
  }
}
