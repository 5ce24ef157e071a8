package io.listwatch.apiserver.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Checks {@code zero-omitted-fields.txt}, transcribed by hand from kube's Go types, against the
 * schemas: a typo names no definition or no field, and a field that is no scalar in JSON (a
 * struct, a time, an int-or-string) or that kube always encodes (required) cannot be one that
 * Go leaves out when zero.
 */
class ZeroOmittedFieldsTest {

  private static final Map<String, ObjectNode> DEFINITIONS =
      ProtoSchemas.builtins(PatchMetadata.NONE).all(ProtoSchemas.Dialect.OPENAPI_3);

  @Test
  void everyListedField_isAnOptionalScalarPropertyOfItsDefinition() {
    List<String> problems = new ArrayList<>();
    ZeroOmittedFields.all().forEach((definition, fields) -> {
      ObjectNode schema = DEFINITIONS.get(definition);
      if (schema == null) {
        problems.add(definition + ": no such definition");
        return;
      }
      Set<String> required = new java.util.HashSet<>(RequiredFields.of(definition));
      schema.path("required").forEach(r -> required.add(r.asText()));
      for (String field : fields) {
        JsonNode property = schema.path("properties").get(field);
        if (property == null) {
          problems.add(definition + "." + field + ": no such property");
        } else if (!isScalar(ProtoSchemas.resolve(DEFINITIONS, property))) {
          problems.add(definition + "." + field + ": not a scalar " + property);
        } else if (required.contains(field)) {
          problems.add(definition + "." + field + ": required, so always encoded");
        }
      }
    });
    assertThat(problems).isEmpty();
  }

  @Test
  void theFileCoversTheCoreAndMetaDefinitionsOfStoredObjects() {
    assertThat(ZeroOmittedFields.of("io.k8s.api.core.v1.Container")).contains("stdin", "tty", "workingDir");
    assertThat(ZeroOmittedFields.of("io.k8s.api.core.v1.VolumeMount")).contains("readOnly");
    assertThat(ZeroOmittedFields.of("io.k8s.api.core.v1.ConfigMapVolumeSource"))
        .as("an inline LocalObjectReference's name, but not the pointer defaultMode").containsExactly("name");
    assertThat(ZeroOmittedFields.of("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")).contains("generation");
  }

  /** A JSON scalar in Go too: a string (not a time), a boolean, an integer or a number; not an int-or-string. */
  private static boolean isScalar(ObjectNode schema) {
    if (schema == null || schema.has("x-kubernetes-int-or-string")) {
      return false;
    }
    return switch (schema.path("type").asText("")) {
      case "string" -> !schema.path("format").asText("").equals("date-time");
      case "boolean", "integer", "number" -> true;
      default -> false;
    };
  }
}
