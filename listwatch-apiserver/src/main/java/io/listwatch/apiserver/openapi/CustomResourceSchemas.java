package io.listwatch.apiserver.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.openapi.ProtoSchemas.Dialect;
import io.listwatch.apiserver.registry.CustomResourceVersion;
import io.listwatch.apiserver.registry.ResourceDefinition;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The OpenAPI definitions of a served custom resource version, as kube's apiextensions server
 * publishes them: the kind and its list, named after the group reversed
 * ({@code com.example.v1.Widget} for {@code example.com/v1 Widget}).
 * <ul>
 *   <li>The kind is the version's {@code openAPIV3Schema} with {@code apiVersion}, {@code kind}
 *       and {@code metadata} (a reference to {@code ObjectMeta}; in OpenAPI 3 wrapped in
 *       {@code allOf}, as kube does) set as kube sets them. A version without a schema is an
 *       object that keeps unknown fields.</li>
 *   <li>The list has {@code apiVersion}, {@code kind}, {@code metadata} ({@code ListMeta}) and
 *       the required {@code items}, an array of the kind.</li>
 *   <li>In Swagger 2.0, what it cannot say is dropped as kube drops it: {@code nullable} (and
 *       the type of a nullable field, so that null passes), the type of
 *       {@code x-kubernetes-int-or-string} fields, and {@code oneOf}, {@code anyOf} and
 *       {@code not}.</li>
 * </ul>
 * {@code x-kubernetes-group-version-kind} is added by the document writer, as for built-in
 * kinds. Stateless.
 */
final class CustomResourceSchemas {

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";
  /**
   * The built-in definitions a custom resource's definitions and operations refer to: its
   * metadata, its list's, and the bodies of delete answers and patches.
   */
  static final List<String> REFERENCED = List.of(META + "ObjectMeta", META + "ListMeta", META + "Status",
      META + "Patch");

  private CustomResourceSchemas() {
  }

  /**
   * kube's name for the definition of a custom kind: the group's labels reversed, the version
   * and the kind, e.g. {@code com.example.v1.Widget}.
   */
  static String definitionName(String group, String version, String kind) {
    List<String> labels = new ArrayList<>(List.of(group.split("\\.")));
    Collections.reverse(labels);
    return String.join(".", labels) + "." + version + "." + kind;
  }

  /** The kind's and the list kind's definitions of {@code def}, by name. */
  static Map<String, ObjectNode> definitions(ResourceDefinition def, CustomResourceVersion version, Dialect dialect) {
    String kindName = definitionName(def.group(), def.version(), def.kind());
    return Map.of(kindName, kind(version, dialect),
        definitionName(def.group(), def.version(), def.listKind()), list(def, kindName, dialect));
  }

  private static ObjectNode kind(CustomResourceVersion version, Dialect dialect) {
    JsonNode declared = version.schema();
    ObjectNode schema = declared.isObject() ? ((ObjectNode) declared).deepCopy()
        : JSON.objectNode().put("type", "object").put("x-kubernetes-preserve-unknown-fields", true);
    if (dialect == Dialect.SWAGGER_2) {
      toSwagger2(schema);
    }
    ObjectNode properties = schema.get("properties") instanceof ObjectNode p ? p : schema.putObject("properties");
    ObjectNode typeMeta = JSON.objectNode();
    typeMeta.set("apiVersion", apiVersionProperty());
    typeMeta.set("kind", kindProperty());
    typeMeta.set("metadata", metadata(META + "ObjectMeta", "Standard object's metadata. More info: "
        + "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata", dialect));
    properties.properties().forEach(e -> {
      if (!typeMeta.has(e.getKey())) {
        typeMeta.set(e.getKey(), e.getValue());
      }
    });
    schema.set("properties", typeMeta);
    if (!schema.has("type")) {
      schema.put("type", "object");
    }
    return schema;
  }

  private static ObjectNode list(ResourceDefinition def, String kindName, Dialect dialect) {
    ObjectNode schema = JSON.objectNode();
    schema.put("description", def.listKind() + " is a list of " + def.kind());
    schema.putArray("required").add("items");
    ObjectNode properties = schema.putObject("properties");
    properties.set("apiVersion", apiVersionProperty());
    ObjectNode items = JSON.objectNode().put("description", "List of " + def.plural() + ". More info: "
        + "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md");
    items.put("type", "array");
    items.set("items", JSON.objectNode().put("$ref", dialect.ref(kindName)));
    properties.set("items", items);
    properties.set("kind", kindProperty());
    properties.set("metadata", metadata(META + "ListMeta", "Standard list metadata. More info: "
        + "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
        dialect));
    schema.put("type", "object");
    return schema;
  }

  private static ObjectNode apiVersionProperty() {
    return JSON.objectNode().put("description", "APIVersion defines the versioned schema of this representation "
        + "of an object. Servers should convert recognized schemas to the latest internal value, and may reject "
        + "unrecognized values. More info: "
        + "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources")
        .put("type", "string");
  }

  private static ObjectNode kindProperty() {
    return JSON.objectNode().put("description", "Kind is a string value representing the REST resource this "
        + "object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be "
        + "updated. In CamelCase. More info: "
        + "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds")
        .put("type", "string");
  }

  private static ObjectNode metadata(String definition, String description, Dialect dialect) {
    if (dialect == Dialect.SWAGGER_2) {
      return JSON.objectNode().put("$ref", dialect.ref(definition));
    }
    ObjectNode m = JSON.objectNode();
    m.putArray("allOf").add(JSON.objectNode().put("$ref", dialect.ref(definition)));
    m.put("description", description);
    return m;
  }

  /** Drops, in place and recursively, what Swagger 2.0 cannot say (see the class comment). */
  private static void toSwagger2(ObjectNode schema) {
    if (schema.path("nullable").asBoolean(false)) {
      schema.remove("type");
    }
    schema.remove("nullable");
    if (schema.path("x-kubernetes-int-or-string").asBoolean(false)) {
      schema.remove("type");
    }
    schema.remove(List.of("oneOf", "anyOf", "not"));
    if (schema.get("properties") instanceof ObjectNode properties) {
      properties.forEach(p -> {
        if (p instanceof ObjectNode o) {
          toSwagger2(o);
        }
      });
    }
    for (String child : List.of("items", "additionalProperties")) {
      if (schema.get(child) instanceof ObjectNode o) {
        toSwagger2(o);
      }
    }
    if (schema.get("allOf") instanceof ArrayNode all) {
      all.forEach(a -> {
        if (a instanceof ObjectNode o) {
          toSwagger2(o);
        }
      });
    }
  }
}
