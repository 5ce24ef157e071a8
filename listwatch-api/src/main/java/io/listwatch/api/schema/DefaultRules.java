package io.listwatch.api.schema;

import static io.listwatch.api.schema.SchemaNodes.EMBEDDED_RESOURCE;
import static io.listwatch.api.schema.SchemaNodes.child;
import static io.listwatch.api.schema.SchemaNodes.flag;
import static io.listwatch.api.schema.SchemaNodes.key;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * kube's check of the {@code default}s in a structural schema at CRD create or update: each
 * default must be unchanged by pruning ({@code Invalid value: {...}: must not have unknown
 * fields}) and must validate against the schema it sits in, errors being reported under
 * {@code <schema path>.default}. {@code additionalProperties} are not followed: kube forbids
 * defaults there. Defaults of type and object meta inside an embedded resource are validated
 * against their schema only (kube also coerces them into ObjectMeta; that is not done here).
 *
 * <p>Stateless; thread-safe.
 */
final class DefaultRules {

  private DefaultRules() {
  }

  static List<FieldError> validate(JsonNode schema, String path) {
    List<FieldError> errors = new ArrayList<>();
    walk(schema, path, true, false, errors);
    return errors;
  }

  private static void walk(JsonNode s, String path, boolean isResourceRoot, boolean insideMeta,
      List<FieldError> errors) {
    if (s == null || !s.isObject()) {
      return;
    }
    boolean embedded = isResourceRoot || flag(s, EMBEDDED_RESOURCE);
    if (embedded) {
      insideMeta = false;
    }
    JsonNode def = s.get("default");
    if (def != null && !def.isNull()) {
      String defaultPath = child(path, "default");
      if (!insideMeta) {
        JsonNode pruned = def.deepCopy();
        if (!Pruner.prune(s, pruned, embedded).isEmpty()) {
          errors.add(FieldError.invalid(defaultPath, def, "must not have unknown fields"));
        }
      }
      errors.addAll(SchemaValidator.validate(s, def, defaultPath));
    }
    walk(SchemaNodes.items(s), child(path, "items"), false, insideMeta, errors);
    boolean inMeta = insideMeta;
    SchemaNodes.properties(s).forEach((name, prop) ->
        walk(prop, key(child(path, "properties"), name), false,
            inMeta || embedded && StructuralSchema.isMetaField(name), errors));
  }
}
