package io.listwatch.apiserver.apiextensions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.registry.NameValidation;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.validation.ObjectMetaValidator;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * kube's ObjectMeta validation of the resources a custom resource embeds (schema nodes with
 * {@code x-kubernetes-embedded-resource: true}): the {@code metadata} of each such value is
 * validated as an object's metadata, with names as path segments (an absent name is fine), a
 * namespace checked only when given, and labels, annotations, generation and finalizers by
 * kube's rules; errors name the full path, e.g.
 * {@code spec.template.metadata.labels: Invalid value: "-bad": ...}. The root object's own
 * metadata is the server's ObjectMeta check, not this.
 *
 * <p>Stateless; thread-safe.
 */
final class EmbeddedObjectMeta {

  private static final ObjectMetaValidator META = new ObjectMetaValidator();
  /** Stand-ins for the embedded object's type: only their scope and name rule are read. */
  private static final ResourceDefinition NAMESPACED = ResourceDefinition.builder("embedded.listwatch.io", "v1",
      "Embedded", "embedded").nameValidation(NameValidation.PATH_SEGMENT).build();
  private static final ResourceDefinition CLUSTER = ResourceDefinition.builder("embedded.listwatch.io", "v1",
      "Embedded", "embedded").nameValidation(NameValidation.PATH_SEGMENT).clusterScoped().build();

  private EmbeddedObjectMeta() {
  }

  /** The metadata errors of the resources {@code object} embeds, in document order. */
  static List<Status.Cause> validate(JsonNode schema, JsonNode object) {
    List<Status.Cause> causes = new ArrayList<>();
    walk(schema, object, "", true, causes);
    return causes;
  }

  private static void walk(JsonNode schema, JsonNode value, String path, boolean root, List<Status.Cause> causes) {
    if (schema == null || !schema.isObject() || value == null) {
      return;
    }
    if (value.isObject()) {
      if (!root && schema.path("x-kubernetes-embedded-resource").asBoolean(false)
          && value.get("metadata") instanceof ObjectNode meta) {
        checkMetadata(meta, path, causes);
      }
      JsonNode properties = schema.get("properties");
      JsonNode additional = schema.get("additionalProperties");
      for (Iterator<Map.Entry<String, JsonNode>> it = value.properties().iterator(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (root && e.getKey().equals("metadata")) {
          continue;
        }
        String at = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
        JsonNode child = properties != null && properties.has(e.getKey()) ? properties.get(e.getKey())
            : additional != null && additional.isObject() ? additional : null;
        walk(child, e.getValue(), at, false, causes);
      }
    } else if (value.isArray()) {
      for (int i = 0; i < value.size(); i++) {
        walk(schema.get("items"), value.get(i), path + "[" + i + "]", false, causes);
      }
    }
  }

  private static void checkMetadata(ObjectNode meta, String path, List<Status.Cause> causes) {
    ObjectNode copy = meta.deepCopy();
    if (copy.path("name").asText("").isEmpty()) {
      copy.put("name", "fakename"); // kube: an embedded resource need not be named
    }
    boolean namespaced = !copy.path("namespace").asText("").isEmpty();
    ObjectNode wrapper = JsonNodeFactory.instance.objectNode();
    wrapper.set("metadata", copy);
    for (Status.Cause c : META.validate(namespaced ? NAMESPACED : CLUSTER, wrapper)) {
      causes.add(new Status.Cause(c.reason(), c.message(), path + "." + c.field()));
    }
  }
}
