package io.listwatch.apiserver.apiextensions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.registry.ResourceDefinition;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube's naming controller: which of a CustomResourceDefinition's requested names
 * ({@code spec.names}) it may have, given the names the other definitions of its group have
 * already been given ({@code status.acceptedNames}) and the built-in resources of that group.
 *
 * <p>A name equal to the one already accepted for this definition is kept; a new name is
 * accepted unless another resource of the group uses it: plural, singular and short names
 * against the others' plurals, singulars and short names; kind and list kind against their
 * kinds and list kinds. Each refused name sets {@code NamesAccepted} False with kube's reason
 * ({@code PluralConflict}, {@code SingularConflict}, {@code ShortNamesConflict},
 * {@code KindConflict}, {@code ListKindConflict}) and message ({@code "foo" is already in
 * use}); the accepted names keep the previously accepted value of a refused one.
 *
 * <p>Stateless; thread-safe.
 */
final class NamingConditions {

  /**
   * The outcome for one definition.
   *
   * @param acceptedNames what {@code status.acceptedNames} becomes
   * @param accepted whether every requested name was accepted
   * @param reason the NamesAccepted condition's reason
   * @param message the NamesAccepted condition's message
   */
  record Result(ObjectNode acceptedNames, boolean accepted, String reason, String message) {
  }

  private NamingConditions() {
  }

  /**
   * @param crd the definition
   * @param others the other definitions of the same group
   * @param builtins the built-in resources of the same group
   */
  static Result calculate(ObjectNode crd, List<ObjectNode> others, List<ResourceDefinition> builtins) {
    Set<String> resources = new HashSet<>();
    Set<String> kinds = new HashSet<>();
    for (ObjectNode other : others) {
      JsonNode names = other.path("status").path("acceptedNames");
      addText(resources, names.path("plural"));
      addText(resources, names.path("singular"));
      names.path("shortNames").forEach(s -> addText(resources, s));
      addText(kinds, names.path("kind"));
      addText(kinds, names.path("listKind"));
    }
    for (ResourceDefinition b : builtins) {
      resources.add(b.plural());
      resources.add(b.singular());
      resources.addAll(b.shortNames());
      kinds.add(b.kind());
      kinds.add(b.listKind());
    }
    JsonNode requested = crd.path("spec").path("names");
    JsonNode previous = crd.path("status").path("acceptedNames");
    ObjectNode names = previous.isObject() ? previous.deepCopy() : JsonNodeFactory.instance.objectNode();
    String reason = null;
    String message = null;
    for (String field : List.of("plural", "singular")) {
      String error = conflict(text(requested, field), text(previous, field), resources);
      if (error == null) {
        putOrRemove(names, field, text(requested, field));
      } else {
        reason = Character.toUpperCase(field.charAt(0)) + field.substring(1) + "Conflict";
        message = error;
      }
    }
    List<String> requestedShort = texts(requested.path("shortNames"));
    List<String> previousShort = texts(previous.path("shortNames"));
    if (!requestedShort.equals(previousShort)) {
      List<String> errors = new ArrayList<>();
      for (String s : requestedShort) {
        if (!previousShort.contains(s)) {
          String error = conflict(s, "", resources);
          if (error != null) {
            errors.add(error);
          }
        }
      }
      if (errors.isEmpty()) {
        putList(names, "shortNames", requested.path("shortNames"));
      } else {
        reason = "ShortNamesConflict";
        message = errors.size() == 1 ? errors.getFirst() : "[" + String.join(", ", errors) + "]";
      }
    }
    for (String field : List.of("kind", "listKind")) {
      String error = conflict(text(requested, field), text(previous, field), kinds);
      if (error == null) {
        putOrRemove(names, field, text(requested, field));
      } else {
        reason = field.equals("kind") ? "KindConflict" : "ListKindConflict";
        message = error;
      }
    }
    putList(names, "categories", requested.path("categories"));
    if (reason == null) {
      return new Result(names, true, "NoConflicts", "no conflicts found");
    }
    return new Result(names, false, reason, message);
  }

  /** kube's equalToAcceptedOrFresh: null when {@code requested} may be had, else the error. */
  private static String conflict(String requested, String accepted, Set<String> used) {
    if (requested.equals(accepted) || !used.contains(requested)) {
      return null;
    }
    return "\"" + requested + "\" is already in use";
  }

  private static String text(JsonNode names, String field) {
    return names.path(field).asText("");
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(s -> out.add(s.asText()));
    return out;
  }

  private static void addText(Set<String> set, JsonNode value) {
    if (!value.asText("").isEmpty()) {
      set.add(value.asText());
    }
  }

  private static void putOrRemove(ObjectNode names, String field, String value) {
    if (value.isEmpty()) {
      names.remove(field);
    } else {
      names.put(field, value);
    }
  }

  private static void putList(ObjectNode names, String field, JsonNode values) {
    if (values instanceof ArrayNode a && !a.isEmpty()) {
      names.set(field, a.deepCopy());
    } else {
      names.remove(field);
    }
  }
}
