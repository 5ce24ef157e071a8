package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.gson.annotations.SerializedName;
import io.listwatch.apiserver.openapi.PatchMetadata;
import io.listwatch.apiserver.openapi.ProtoSchemas;
import java.lang.reflect.Field;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The {@code required} lists of the built-in schemas (the core's {@code required-fields.txt})
 * against kube's published OpenAPI, as the official Java client's models carry it
 * ({@code openapiRequiredFields}). On a difference the message is the file's expected content.
 */
class RequiredFieldsTest {

  @Test
  void everyBuiltinDefinition_listsTheFieldsKubesOpenApiRequires() throws Exception {
    Map<String, ObjectNode> all = ProtoSchemas.builtins(PatchMetadata.builtins()).all(ProtoSchemas.Dialect.OPENAPI_3);
    Map<String, String> expected = new TreeMap<>();
    Map<String, String> ours = new TreeMap<>();
    int matched = 0;
    for (Map.Entry<String, ObjectNode> e : all.entrySet()) {
      ObjectNode schema = e.getValue();
      if (!schema.has("properties")) {
        continue;
      }
      Set<String> ourRequired = new TreeSet<>();
      schema.path("required").forEach(f -> ourRequired.add(f.asText()));
      if (!ourRequired.isEmpty()) {
        ours.put(e.getKey(), String.join(",", ourRequired));
      }
      Class<?> model = model(e.getKey());
      if (model == null) {
        continue;
      }
      matched++;
      Set<String> properties = new TreeSet<>();
      schema.get("properties").fieldNames().forEachRemaining(properties::add);
      Set<String> theirs = new TreeSet<>(requiredOf(model));
      theirs.retainAll(properties);
      theirs.removeAll(Set.of("apiVersion", "kind"));
      if (!theirs.isEmpty()) {
        expected.put(e.getKey(), String.join(",", theirs));
      }
    }
    assertThat(matched).as("definitions found among the official client's models").isGreaterThan(400);
    StringBuilder file = new StringBuilder();
    expected.forEach((k, v) -> file.append(k).append('=').append(v).append('\n'));
    assertThat(ours).as("required-fields.txt should read:\n" + file).isEqualTo(expected);
  }

  /** The official client's model of a definition ({@code io.k8s.api.core.v1.Pod}: CoreV1Pod or V1Pod). */
  private static Class<?> model(String definition) {
    String[] parts = definition.split("\\.");
    String name = parts[parts.length - 1];
    String version = capitalized(parts[parts.length - 2]);
    String group = capitalized(parts[parts.length - 3]);
    for (String candidate : new String[] {group + version + name, version + name}) {
      try {
        Class<?> c = Class.forName("io.kubernetes.client.openapi.models." + candidate);
        return hasJsonFields(c) ? c : null;
      } catch (ClassNotFoundException ignored) {
        // try the next naming
      }
    }
    return null;
  }

  private static boolean hasJsonFields(Class<?> model) {
    for (Field f : model.getDeclaredFields()) {
      if (f.getAnnotation(SerializedName.class) != null) {
        return true;
      }
    }
    return false;
  }

  @SuppressWarnings("unchecked")
  private static Set<String> requiredOf(Class<?> model) throws ReflectiveOperationException {
    Field f = model.getDeclaredField("openapiRequiredFields");
    f.setAccessible(true);
    return (Set<String>) f.get(null);
  }

  private static String capitalized(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }
}
