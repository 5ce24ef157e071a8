package io.listwatch.api.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Field ownership of one kind's objects, as kube's field manager keeps it in
 * {@code metadata.managedFields}: {@link #apply} for server-side apply, {@link #update} for
 * every other write.
 *
 * <h2>Apply</h2>
 * The applied configuration is merged into the live object ({@link ApplyMerge#merge}); the
 * applier now owns exactly the fields the configuration sets. Fields it owned before and no
 * longer applies are removed from the object unless another manager owns them (or something
 * beneath them). Fields it changes (added or modified values) that other managers own are
 * conflicts: without {@code force} the apply fails with kube's 409
 * ({@link ApplyConflicts}); with it, the applier takes them from their owners. Applying the
 * value a field already has is no conflict: both managers then own it.
 *
 * <h2>Update</h2>
 * The writer's entry (one per manager and apiVersion, operation Update) gains the fields the
 * write added or modified and loses those it removed; other managers lose the fields the
 * write changed or removed (an update never conflicts).
 *
 * <p>Neither operation records kube's metadata fields no one owns: apiVersion, kind,
 * metadata itself, and metadata's name, namespace, creationTimestamp, selfLink, uid,
 * clusterName, generation, managedFields and resourceVersion. Entries are ordered as kube
 * orders them: Apply before Update, then by time, manager and apiVersion. A manager left
 * owning nothing loses its entry.
 *
 * <p>Immutable and thread-safe.
 */
public final class FieldManager {

  private static final FieldSet STRIPPED = FieldSet.of(FieldPath.of("apiVersion"), FieldPath.of("kind"),
      FieldPath.of("metadata"), FieldPath.of("metadata", "name"), FieldPath.of("metadata", "namespace"),
      FieldPath.of("metadata", "creationTimestamp"), FieldPath.of("metadata", "selfLink"),
      FieldPath.of("metadata", "uid"), FieldPath.of("metadata", "clusterName"),
      FieldPath.of("metadata", "generation"), FieldPath.of("metadata", "managedFields"),
      FieldPath.of("metadata", "resourceVersion"));

  private final ApplySchema schema;

  /** A field manager for objects of the kind {@code schema} describes. */
  public FieldManager(ApplySchema schema) {
    this.schema = Objects.requireNonNull(schema, "schema");
  }

  /**
   * The outcome of a write.
   *
   * @param object the object to store, its {@code metadata.managedFields} set to
   *     {@code managedFields}
   * @param managedFields the new entries, in kube's order
   */
  public record Result(JsonNode object, List<ManagedFieldsEntry> managedFields) {
    public Result {
      managedFields = List.copyOf(managedFields);
    }
  }

  /**
   * Applies {@code applied} for {@code manager}.
   *
   * @param live the stored object, or null when apply creates it
   * @param applied the applied configuration (an object)
   * @param apiVersion the apiVersion of the request, e.g. {@code apps/v1}
   * @param force whether to take fields from other managers rather than fail
   * @param now the time recorded in the applier's entry
   * @throws StatusException 409 naming the conflicts, when {@code force} is false; 400
   *     {@code metadata.managedFields must be nil} when the configuration sets them
   * @throws IllegalArgumentException on managedFields that do not parse, or a list-map item
   *     without its key
   */
  public Result apply(JsonNode live, JsonNode applied, String manager, String apiVersion, boolean force,
      Instant now) throws StatusException {
    return apply(live, applied, manager, apiVersion, "", force, now);
  }

  /**
   * The fields an applied configuration sets, as an apply reads them (its managedFields left
   * out). Throws {@link IllegalArgumentException} with structured-merge-diff's message, a path
   * then what is wrong ({@code .spec.containers[name="c"].ports: element 0: associative list
   * with keys has an element that omits key field "containerPort" (and doesn't have default
   * value)}), when it is not an object of this manager's schema; a server checks this before it
   * applies, to refuse the request.
   */
  public FieldSet appliedFields(JsonNode applied) {
    return FieldSet.of(withoutManagedFields(applied), schema);
  }

  /**
   * Applies {@code applied} for {@code manager} through {@code subresource} ("" for the main
   * resource, {@code status} for {@code /status}): kube keeps one applier entry per manager and
   * subresource, so an apply of the status leaves the manager's main-resource entry alone.
   * Otherwise as {@link #apply(JsonNode, JsonNode, String, String, boolean, Instant)}.
   */
  public Result apply(JsonNode live, JsonNode applied, String manager, String apiVersion, String subresource,
      boolean force, Instant now) throws StatusException {
    if (applied.path("metadata").has("managedFields") && !applied.path("metadata").get("managedFields").isNull()) {
      throw StatusException.badRequest("metadata.managedFields must be nil");
    }
    JsonNode base = live == null ? JsonNodeFactory.instance.objectNode() : live;
    List<ManagedFieldsEntry> managers = ManagedFields.read(base);
    ManagedFieldsEntry me = new ManagedFieldsEntry(manager, ManagedFieldsEntry.APPLY, apiVersion, now,
        FieldSet.EMPTY, subresource);
    FieldSet last = find(managers, me).map(ManagedFieldsEntry::fields).orElse(FieldSet.EMPTY);
    FieldSet mine = appliedFields(applied).difference(STRIPPED);
    managers.removeIf(m -> m.sameManager(me));

    JsonNode merged = ApplyMerge.merge(base, withoutManagedFields(applied), schema);
    FieldSet owned = mine;
    for (ManagedFieldsEntry m : managers) {
      owned = owned.union(m.fields());
    }
    merged = ApplyMerge.prune(merged, last.difference(mine), owned, schema);

    ApplyMerge.Comparison cmp = ApplyMerge.compare(viewWithoutManagedFields(base), viewWithoutManagedFields(merged),
        schema);
    List<ApplyConflicts.Conflict> conflicts = new ArrayList<>();
    for (ManagedFieldsEntry m : managers) {
      m.fields().intersection(cmp.changed()).forEach(p -> conflicts.add(new ApplyConflicts.Conflict(m, p)));
    }
    if (!force && !conflicts.isEmpty()) {
      conflicts.sort(Comparator.comparing((ApplyConflicts.Conflict c) -> c.owner().describe())
          .thenComparing(ApplyConflicts.Conflict::path));
      throw ApplyConflicts.toException(conflicts);
    }
    List<ManagedFieldsEntry> out = new ArrayList<>();
    for (ManagedFieldsEntry m : managers) {
      out.add(m.with(m.fields().difference(cmp.changed()).difference(cmp.removed()), m.time()));
    }
    out.add(me.with(mine, now));
    return finish(merged, out);
  }

  /**
   * Records an ordinary write (create, update, patch) of {@code updated} by {@code manager}.
   *
   * @param live the stored object; for a create, the kind's empty object (the fields it holds
   *     count as unchanged, as kube counts the zero value of a built-in's struct fields)
   * @param updated the object the write produced
   * @param now the time recorded in the writer's entry
   *
   * <p>When {@code updated} carries a non-empty {@code metadata.managedFields}, those entries
   * replace the live ones before this write is recorded; entries that are not valid (kube's
   * documented {@code [{}]}) strip managedFields from the object entirely. An empty list, or
   * none, keeps the live entries, so clients that do not know the field never drop it. A
   * write that changes no field leaves the entries as they were (the writer's time too), so
   * that a no-op update stays one.
   */
  public Result update(JsonNode live, JsonNode updated, String manager, String apiVersion, Instant now) {
    return update(live, updated, manager, apiVersion, "", now);
  }

  /**
   * Records an ordinary write through {@code subresource} ("" for the main resource): kube keeps
   * one updater entry per manager, apiVersion and subresource. Otherwise as
   * {@link #update(JsonNode, JsonNode, String, String, Instant)}.
   */
  public Result update(JsonNode live, JsonNode updated, String manager, String apiVersion, String subresource,
      Instant now) {
    JsonNode written = updated.path("metadata").path("managedFields");
    if (live == null && !(written.isArray() && !written.isEmpty())) {
      // a create: every field is the writer's, nothing to compare with or take from others
      FieldSet mine = ApplyMerge.compare(null, viewWithoutManagedFields(updated), schema).added().difference(STRIPPED);
      return finish(updated, List.of(new ManagedFieldsEntry(manager, ManagedFieldsEntry.UPDATE, apiVersion, now,
          mine, subresource)));
    }
    JsonNode base = live == null ? JsonNodeFactory.instance.objectNode() : live;
    List<ManagedFieldsEntry> managers;
    if (written.isArray() && !written.isEmpty()) {
      // the writer sets managedFields itself; entries that do not parse ([{}]) clear them all
      try {
        managers = ManagedFields.read(updated);
      } catch (IllegalArgumentException | java.time.format.DateTimeParseException e) {
        return finish(updated, List.of());
      }
    } else {
      managers = ManagedFields.read(base);
    }
    ManagedFieldsEntry me = new ManagedFieldsEntry(manager, ManagedFieldsEntry.UPDATE, apiVersion, now,
        FieldSet.EMPTY, subresource);
    java.util.Optional<ManagedFieldsEntry> previous = find(managers, me);
    FieldSet before = previous.map(ManagedFieldsEntry::fields).orElse(FieldSet.EMPTY);
    managers.removeIf(m -> m.sameManager(me));
    ApplyMerge.Comparison cmp = ApplyMerge.compare(viewWithoutManagedFields(base), viewWithoutManagedFields(updated),
        schema);
    FieldSet changed = cmp.changed().difference(STRIPPED);
    List<ManagedFieldsEntry> out = new ArrayList<>();
    for (ManagedFieldsEntry m : managers) {
      out.add(m.with(m.fields().difference(cmp.changed()).difference(cmp.removed()), m.time()));
    }
    if (changed.isEmpty() && cmp.removed().difference(STRIPPED).isEmpty()) {
      previous.ifPresent(out::add); // a write that changes nothing keeps the writer's entry, time included
    } else {
      out.add(me.with(before.difference(cmp.removed()).union(cmp.changed()).difference(STRIPPED), now));
    }
    return finish(updated, out);
  }

  private static java.util.Optional<ManagedFieldsEntry> find(List<ManagedFieldsEntry> all, ManagedFieldsEntry me) {
    return all.stream().filter(m -> m.sameManager(me)).findFirst();
  }

  private static Result finish(JsonNode object, List<ManagedFieldsEntry> entries) {
    List<ManagedFieldsEntry> kept = new ArrayList<>(entries.stream().filter(e -> !e.fields().isEmpty()).toList());
    kept.sort(ManagedFields.KUBE_ORDER);
    ObjectNode out = object.deepCopy();
    ObjectNode meta = out.with("metadata");
    if (kept.isEmpty()) {
      meta.remove("managedFields");
    } else {
      ArrayNode list = meta.putArray("managedFields");
      kept.forEach(e -> list.add(e.toJson()));
    }
    return new Result(out, kept);
  }

  /**
   * {@code o} without {@code metadata.managedFields}, for reading only: a new root and metadata
   * object sharing every other node with {@code o} (no copy of the whole object per write).
   */
  private static JsonNode viewWithoutManagedFields(JsonNode o) {
    if (!o.path("metadata").has("managedFields")) {
      return o;
    }
    ObjectNode view = JsonNodeFactory.instance.objectNode();
    view.setAll((ObjectNode) o);
    ObjectNode meta = JsonNodeFactory.instance.objectNode();
    meta.setAll((ObjectNode) o.get("metadata"));
    meta.remove("managedFields");
    view.set("metadata", meta);
    return view;
  }

  private static JsonNode withoutManagedFields(JsonNode o) {
    if (!o.path("metadata").has("managedFields")) {
      return o;
    }
    ObjectNode copy = o.deepCopy();
    ((ObjectNode) copy.get("metadata")).remove("managedFields");
    return copy;
  }
}
