package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.PodSpecValidation.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube 1.32's {@code ValidatePodUpdate}, the rules of a pod's update beyond its spec's own: the
 * containers and init containers may not be added or removed, and their images not emptied;
 * {@code activeDeadlineSeconds} may be set, or lowered, never raised or unset; tolerations may
 * only be added ({@link TolerationValidation#onlyAdded}); scheduling gates only removed; a
 * gated pod's {@code nodeSelector} only added to. Everything else in the spec is immutable:
 * {@code spec: Forbidden: pod updates may not change fields other than ...}, kube's message
 * word for word, followed by a diff. kube prints Go's {@code cmp.Diff} of its internal
 * {@code core.PodSpec}; this server prints the changed top-level fields as JSON in the same
 * frame ({@code - \tField: old}, {@code + \tField: new}), which is not kube's text.
 *
 * <p>Specs compare as kube's semantic equality does, with missing, null, empty and zero
 * values equal. Stateless.
 */
final class PodUpdateValidation {

  /** kube's message, to the diff. */
  static final String FORBIDDEN_PREFIX = "pod updates may not change fields other than "
      + "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,"
      + "`spec.tolerations` (only additions to existing tolerations),"
      + "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

  private PodUpdateValidation() {
  }

  /** Adds the errors of updating the pod spec {@code old} to {@code updated}. */
  static void validate(JsonNode updated, JsonNode old, List<Status.Cause> errors) {
    if (containers(updated.path("containers"), old.path("containers"), "spec.containers", errors)
        || containers(updated.path("initContainers"), old.path("initContainers"), "spec.initContainers", errors)) {
      return;
    }
    JsonNode deadline = updated.path("activeDeadlineSeconds");
    JsonNode oldDeadline = old.path("activeDeadlineSeconds");
    if (deadline.isIntegralNumber()) {
      long value = deadline.longValue();
      if (value < 0 || value > Integer.MAX_VALUE) {
        errors.add(FieldErrors.invalid("spec.activeDeadlineSeconds", value, PodSpecValidation.inclusiveRange(0, Integer.MAX_VALUE)));
        return;
      }
      if (oldDeadline.isIntegralNumber() && oldDeadline.longValue() < value) {
        errors.add(FieldErrors.invalid("spec.activeDeadlineSeconds", value, "must be less than or equal to previous value"));
        return;
      }
    } else if (oldDeadline.isIntegralNumber()) {
      errors.add(FieldErrors.invalid("spec.activeDeadlineSeconds", null, "must not update from a positive integer to nil value"));
    }
    TolerationValidation.onlyAdded(updated.path("tolerations"), old.path("tolerations"), "spec.tolerations", errors);
    onlyDeletedSchedulingGates(updated.path("schedulingGates"), old.path("schedulingGates"), errors);
    if (normalized(updated).equals(normalized(old))) {
      return;
    }
    ObjectNode munged = munged(updated, old, errors);
    JsonNode before = normalized(old);
    JsonNode after = normalized(munged);
    if (!after.equals(before)) {
      errors.add(FieldErrors.forbidden("spec", FORBIDDEN_PREFIX + "\n" + diff("core.PodSpec", before, after)));
    }
  }

  /** kube's {@code ValidateContainerUpdates}; true when the list's length changed (kube stops there). */
  private static boolean containers(JsonNode updated, JsonNode old, String path, List<Status.Cause> errors) {
    if (updated.size() != old.size()) {
      errors.add(FieldErrors.forbidden(path, "pod updates may not add or remove containers"));
      return true;
    }
    for (int i = 0; i < updated.size(); i++) {
      String image = text(updated.get(i), "image");
      if (image.isEmpty()) {
        errors.add(FieldErrors.required(path + "[" + i + "].image", ""));
      }
      ContainerValidation.imageWhitespace(updated.get(i), path + "[" + i + "]", errors);
    }
    return false;
  }

  /** kube's {@code validateOnlyDeletedSchedulingGates}. */
  private static void onlyDeletedSchedulingGates(JsonNode updated, JsonNode old, List<Status.Cause> errors) {
    Set<String> oldNames = new HashSet<>();
    for (JsonNode gate : old) {
      oldNames.add(text(gate, "name"));
    }
    for (int i = 0; i < updated.size(); i++) {
      String name = text(updated.get(i), "name");
      if (!oldNames.contains(name)) {
        errors.add(FieldErrors.forbidden("spec.schedulingGates[" + i + "].name",
            "only deletion is allowed, but found new scheduling gate '" + name + "'"));
      }
    }
  }

  /** The updated spec with what an update may change put back as it was (kube's "munged" spec). */
  private static ObjectNode munged(JsonNode updated, JsonNode old, List<Status.Cause> errors) {
    ObjectNode munged = updated instanceof ObjectNode o ? o.deepCopy() : JsonNodeFactory.instance.objectNode();
    for (String list : List.of("containers", "initContainers")) {
      JsonNode containers = munged.path(list);
      for (int i = 0; i < containers.size(); i++) {
        if (containers.get(i) instanceof ObjectNode c) {
          c.set("image", old.path(list).get(i).path("image").deepCopy());
        }
      }
    }
    for (String field : List.of("activeDeadlineSeconds", "schedulingGates", "tolerations")) {
      copyField(old, munged, field);
    }
    JsonNode oldGrace = old.path("terminationGracePeriodSeconds");
    if (oldGrace.isIntegralNumber() && oldGrace.longValue() < 0 && munged.path("terminationGracePeriodSeconds").asLong(0) == 1) {
      copyField(old, munged, "terminationGracePeriodSeconds");
    }
    if (!old.path("schedulingGates").isEmpty()) {
      JsonNode selector = normalized(munged.path("nodeSelector"));
      JsonNode oldSelector = normalized(old.path("nodeSelector"));
      if (!selector.equals(oldSelector)) {
        for (Map.Entry<String, JsonNode> e : old.path("nodeSelector").properties()) {
          if (!e.getValue().equals(munged.path("nodeSelector").get(e.getKey()))) {
            Map<String, String> values = new java.util.TreeMap<>();
            munged.path("nodeSelector").properties().forEach(p -> values.put(p.getKey(), p.getValue().asText()));
            errors.add(FieldErrors.invalid("spec.nodeSelector", values,
                "only additions to spec.nodeSelector are allowed (no mutations or deletions)"));
            break;
          }
        }
        copyField(old, munged, "nodeSelector");
      }
    }
    return munged;
  }

  private static void copyField(JsonNode from, ObjectNode to, String field) {
    if (from.has(field)) {
      to.set(field, from.get(field).deepCopy());
    } else {
      to.remove(field);
    }
  }

  /**
   * {@code node} without the values kube's semantic equality does not tell from absent: nulls,
   * empty strings, {@code false}, zeros, and objects and arrays left empty.
   */
  static JsonNode normalized(JsonNode node) {
    if (node instanceof ObjectNode o) {
      ObjectNode out = JsonNodeFactory.instance.objectNode();
      for (Map.Entry<String, JsonNode> e : o.properties()) {
        JsonNode v = normalized(e.getValue());
        if (v != null) {
          out.set(e.getKey(), v);
        }
      }
      return out.isEmpty() ? null : out;
    }
    if (node instanceof ArrayNode a) {
      ArrayNode out = JsonNodeFactory.instance.arrayNode();
      for (JsonNode item : a) {
        JsonNode v = normalized(item);
        out.add(v == null ? JsonNodeFactory.instance.objectNode() : v);
      }
      return out.isEmpty() ? null : out;
    }
    return ContainerValidation.isSet(node) ? node : null;
  }

  /** The changed top-level fields of a {@code type} (Go's name, e.g. {@code core.PodSpec}), in the frame of kube's diff. */
  static String diff(String type, JsonNode before, JsonNode after) {
    Set<String> fields = new LinkedHashSet<>();
    List<String> lines = new ArrayList<>();
    for (JsonNode side : new JsonNode[] {before, after}) {
      if (side != null) {
        side.fieldNames().forEachRemaining(fields::add);
      }
    }
    StringBuilder b = new StringBuilder("  " + type + "{\n");
    for (String field : fields) {
      JsonNode was = before == null ? null : before.get(field);
      JsonNode is = after == null ? null : after.get(field);
      if (java.util.Objects.equals(was, is)) {
        continue;
      }
      String name = Character.toUpperCase(field.charAt(0)) + field.substring(1);
      if (was != null) {
        lines.add("- \t" + name + ": " + was + ",");
      }
      if (is != null) {
        lines.add("+ \t" + name + ": " + is + ",");
      }
    }
    for (String line : lines) {
      b.append(line).append('\n');
    }
    return b.append("  }\n").toString();
  }
}
