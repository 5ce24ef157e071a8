package io.listwatch.apiserver.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.openapi.ProtoSchemas.Dialect;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.registry.ResourceRegistry;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * kube's {@code resolver.SchemaResolver} over the OpenAPI v3 definitions this server publishes
 * (kube-controller-manager's {@code ClientDiscoveryResolver} reads the same from
 * {@code /openapi/v3}): the schema of a served kind, with every {@code $ref} inlined (and a
 * {@code allOf} of one reference, kube's wrapping of {@code metadata}, merged into its holder).
 * Built-in kinds' schemas come from {@link ProtoSchemas}; custom resources' from their version's
 * schema as {@link CustomResourceSchemas} publishes it (so {@code metadata} is the whole
 * ObjectMeta). A reference back into a definition being inlined (a recursive type) becomes
 * {@code {}}, a schema without a type. Kinds that are not served, or are served without a
 * schema (aggregated APIs), are not found.
 *
 * <p>Thread-safe: built-in kinds' inlined schemas are cached in a concurrent map; the returned
 * schemas are shared and must not be changed.
 */
public final class OpenApiSchemaResolver {

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private final Supplier<ResourceRegistry> served;
  private final ProtoSchemas schemas;
  /** Built-in kinds' inlined schemas by definition name; bounded by the built-in kinds. */
  private final Map<String, JsonNode> builtins = new ConcurrentHashMap<>();

  /**
   * A resolver of the kinds {@code served} serves now (it is asked on each resolution, so
   * custom resources served later are found).
   */
  public OpenApiSchemaResolver(Supplier<ResourceRegistry> served, ProtoSchemas schemas) {
    this.served = served;
    this.schemas = schemas;
  }

  /** The inlined schema of {@code group/version kind}, or empty when it is not served with one. */
  public Optional<JsonNode> resolveSchema(String group, String version, String kind) {
    Optional<ResourceDefinition> served = this.served.get().forKind(group, version, kind);
    if (served.isEmpty()) {
      return Optional.empty();
    }
    ResourceDefinition def = served.get();
    if (def.customResource().isPresent()) {
      Map<String, ObjectNode> definitions = CustomResourceSchemas.definitions(def, def.customResource().get(),
          Dialect.OPENAPI_3);
      ObjectNode schema = definitions.get(CustomResourceSchemas.definitionName(group, version, kind));
      return Optional.of(inline(schema, schemas.closure(CustomResourceSchemas.REFERENCED, Dialect.OPENAPI_3),
          new ArrayDeque<>()));
    }
    return schemas.definitionFor(group, version, kind).map(definition -> builtins.computeIfAbsent(definition, name ->
        inline(schemas.schema(name, Dialect.OPENAPI_3), schemas.closure(List.of(name), Dialect.OPENAPI_3),
            new ArrayDeque<>(List.of(name)))));
  }

  /**
   * A copy of {@code schema} with its references replaced by their definitions.
   *
   * @param inlining the definitions being inlined, outermost first (a reference to one is a cycle)
   */
  private static JsonNode inline(JsonNode schema, Map<String, ObjectNode> definitions, Deque<String> inlining) {
    if (!schema.isObject()) {
      return schema.deepCopy();
    }
    JsonNode ref = schema.get("$ref");
    if (ref != null) {
      String name = Dialect.OPENAPI_3.definition(ref.asText());
      ObjectNode target = definitions.get(name);
      if (target == null || inlining.contains(name)) {
        return JSON.objectNode();
      }
      inlining.push(name);
      JsonNode out = inline(target, definitions, inlining);
      inlining.pop();
      return out;
    }
    ObjectNode out = JSON.objectNode();
    JsonNode allOf = schema.get("allOf");
    boolean wrapsOneRef = allOf != null && allOf.size() == 1 && allOf.get(0).has("$ref");
    if (wrapsOneRef) {
      JsonNode merged = inline(allOf.get(0), definitions, inlining);
      if (merged instanceof ObjectNode m) {
        out.setAll(m);
      }
    }
    schema.properties().forEach(e -> {
      switch (e.getKey()) {
        case "allOf" -> {
          if (!wrapsOneRef) {
            out.set("allOf", inlineEach(e.getValue(), definitions, inlining));
          }
        }
        case "properties" -> {
          ObjectNode props = out.putObject("properties");
          e.getValue().properties().forEach(p -> props.set(p.getKey(), inline(p.getValue(), definitions, inlining)));
        }
        case "items", "additionalProperties" -> out.set(e.getKey(), inline(e.getValue(), definitions, inlining));
        case "oneOf", "anyOf" -> out.set(e.getKey(), inlineEach(e.getValue(), definitions, inlining));
        default -> out.set(e.getKey(), e.getValue().deepCopy());
      }
    });
    return out;
  }

  private static JsonNode inlineEach(JsonNode schemas, Map<String, ObjectNode> definitions, Deque<String> inlining) {
    var out = JSON.arrayNode();
    schemas.forEach(s -> out.add(inline(s, definitions, inlining)));
    return out;
  }
}
