package io.listwatch.apiserver.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * What the plug-ins share to read and change the objects they admit: a field made on demand,
 * an annotation, kube's {@code admission.NewForbidden} refusal, and the newest of several
 * default classes (kube's rule for StorageClasses and IngressClasses). Stateless.
 */
final class AdmittedObjects {

  private AdmittedObjects() {
  }

  /** The object at {@code field} of {@code parent}, made (empty) when missing or not an object. */
  static ObjectNode object(ObjectNode parent, String field) {
    return parent.get(field) instanceof ObjectNode o ? o : parent.putObject(field);
  }

  /** The array at {@code field} of {@code parent}, made (empty) when missing or not an array. */
  static ArrayNode array(ObjectNode parent, String field) {
    return parent.get(field) instanceof ArrayNode a ? a : parent.putArray(field);
  }

  /** Whether {@code field} of {@code parent} is set: present and not null (Go's non-nil pointer). */
  static boolean isSet(JsonNode parent, String field) {
    JsonNode value = parent.get(field);
    return value != null && !value.isNull();
  }

  /** The annotation {@code key} of {@code obj}, if it has one. */
  static Optional<String> annotation(JsonNode obj, String key) {
    JsonNode value = obj.path("metadata").path("annotations").get(key);
    return value == null || value.isNull() ? Optional.empty() : Optional.of(value.asText());
  }

  /**
   * kube's {@code admission.NewForbidden}: 403 naming the written resource and object, e.g.
   * {@code pods "web" is forbidden: <why>}.
   */
  static StatusException forbidden(AdmissionAttributes a, String why) {
    String name = a.name().isEmpty() ? a.object().path("metadata").path("name").asText("") : a.name();
    return StatusException.forbidden(a.resource().group(), a.resource().plural(), name, why);
  }

  /**
   * The newest object of {@code objects} (by {@code metadata.creationTimestamp}; of two created
   * in the same second, the first by name), as kube picks among several default classes.
   */
  static Optional<ObjectNode> newest(List<ObjectNode> objects) {
    Comparator<ObjectNode> created = Comparator.comparing(o -> o.path("metadata").path("creationTimestamp").asText(""));
    return objects.stream().min(created.reversed().thenComparing(o -> o.path("metadata").path("name").asText("")));
  }
}
