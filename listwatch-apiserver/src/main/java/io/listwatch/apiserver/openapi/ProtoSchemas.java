package io.listwatch.apiserver.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import io.kubernetes.client.proto.IntStr;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Resource;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Apiextensions;
import io.kubernetes.client.proto.V1Admissionregistration;
import io.kubernetes.client.proto.V1Apps;
import io.kubernetes.client.proto.V1Authentication;
import io.kubernetes.client.proto.V1Authorization;
import io.kubernetes.client.proto.V1Autoscaling;
import io.kubernetes.client.proto.V1Batch;
import io.kubernetes.client.proto.V1Coordination;
import io.kubernetes.client.proto.V1Discovery;
import io.kubernetes.client.proto.V1Events;
import io.kubernetes.client.proto.V1Admissionregistration;
import io.kubernetes.client.proto.V1Certificates;
import io.kubernetes.client.proto.V1Flowcontrol;
import io.kubernetes.client.proto.V1Networking;
import io.kubernetes.client.proto.V1Node;
import io.kubernetes.client.proto.V1Policy;
import io.kubernetes.client.proto.V1Rbac;
import io.kubernetes.client.proto.V1Scheduling;
import io.kubernetes.client.proto.V1Storage;
import io.kubernetes.client.proto.V2Autoscaling;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * kube's OpenAPI schemas of the built-in kinds, derived from the protobuf descriptors of kube's
 * generated classes ({@code io.kubernetes:client-java-proto}) rather than written by hand.
 * Definitions carry kube's names ({@code io.k8s.api.core.v1.Pod},
 * {@code io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta}); descriptions are absent, since the
 * generated classes carry none.
 *
 * <p><b>From protobuf to JSON.</b> kube's {@code generated.proto} names every field by its JSON
 * name, so a message's fields are the JSON object's properties, with these corrections:
 * <ul>
 *   <li>kube's special types take their JSON forms: {@code meta.v1.Time} and {@code MicroTime} are
 *       strings of format {@code date-time}, {@code meta.v1.Duration} a string,
 *       {@code resource.Quantity} a string or a number, {@code intstr.IntOrString} an integer or a
 *       string (format {@code int-or-string}), {@code runtime.RawExtension} and
 *       {@code meta.v1.FieldsV1} any object, and the one-field wrappers of nested lists
 *       ({@code meta.v1.Verbs}, the {@code ExtraValue}s) arrays of strings;</li>
 *   <li>maps give {@code additionalProperties}, repeated fields arrays, bytes strings of format
 *       {@code byte};</li>
 *   <li>structs that Go embeds inline ({@code Volume}'s {@code VolumeSource}, {@code Probe}'s
 *       {@code ProbeHandler}, the {@code LocalObjectReference} of key selectors, ...) are a field
 *       in protobuf but their fields sit in the parent in JSON ({@link #INLINE});</li>
 *   <li>kinds and lists get {@code apiVersion} and {@code kind}, which protobuf keeps in its
 *       envelope rather than the message.</li>
 * </ul>
 *
 * <p>Immutable and thread-safe.
 */
public final class ProtoSchemas {

  /** The OpenAPI version a schema is written for: they differ in references and one-of types. */
  public enum Dialect {
    /** Swagger 2.0 ({@code /openapi/v2}): {@code #/definitions/}, no {@code oneOf}. */
    SWAGGER_2("#/definitions/"),
    /** OpenAPI 3.0 ({@code /openapi/v3}): {@code #/components/schemas/}, {@code oneOf}. */
    OPENAPI_3("#/components/schemas/");

    private final String refPrefix;

    Dialect(String refPrefix) {
      this.refPrefix = refPrefix;
    }

    /** The JSON reference to a definition. */
    public String ref(String definition) {
      return refPrefix + definition;
    }

    /** The definition a JSON reference names. */
    public String definition(String ref) {
      return ref.startsWith(refPrefix) ? ref.substring(refPrefix.length()) : ref;
    }
  }

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";

  /** The generated files whose messages are described: apimachinery's and kube's v1 groups. */
  private static List<FileDescriptor> files() {
    return List.of(
      Meta.getDescriptor(), IntStr.getDescriptor(), Resource.getDescriptor(), Runtime.getDescriptor(),
      V1.getDescriptor(), V1Apps.getDescriptor(), V1Authentication.getDescriptor(),
      V1Authorization.getDescriptor(), V1Autoscaling.getDescriptor(), V1Batch.getDescriptor(),
      V1Coordination.getDescriptor(), V1Discovery.getDescriptor(), V1Events.getDescriptor(),
      V1Networking.getDescriptor(), V1Policy.getDescriptor(), V1Rbac.getDescriptor(),
      V1Scheduling.getDescriptor(), V1Storage.getDescriptor(), V1Apiextensions.getDescriptor(),
      V1Node.getDescriptor(), V1Flowcontrol.getDescriptor(),
      V1Certificates.getDescriptor(), V1Admissionregistration.getDescriptor(),
      V2Autoscaling.getDescriptor());
  }

  /** The package kube's OpenAPI names apiextensions' definitions in (the proto package has '_'). */
  private static final String APIEXTENSIONS = "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.";

  /**
   * Fields that are Go structs embedded with {@code json:",inline"}: in protobuf a field, in JSON
   * their fields are the parent's. By definition name, then protobuf field name.
   */
  static final Map<String, Set<String>> INLINE = inline();

  private static Map<String, Set<String>> inline() {
    Map<String, Set<String>> inline = new java.util.HashMap<>(Map.of(
        "io.k8s.api.core.v1.Volume", Set.of("volumeSource"),
        "io.k8s.api.core.v1.PersistentVolumeSpec", Set.of("persistentVolumeSource"),
        "io.k8s.api.core.v1.EphemeralContainer", Set.of("ephemeralContainerCommon"),
        "io.k8s.api.core.v1.Probe", Set.of("handler"),
        "io.k8s.api.core.v1.VolumeMountStatus", Set.of("volumeStatus"),
        "io.k8s.api.networking.v1.IngressRule", Set.of("ingressRuleValue"),
        "io.k8s.api.admissionregistration.v1.NamedRuleWithOperations", Set.of("ruleWithOperations"),
        "io.k8s.api.admissionregistration.v1.RuleWithOperations", Set.of("rule")));
    // the LocalObjectReference (its "name") of key selectors and sources
    for (String kind : java.util.List.of("ConfigMapEnvSource", "ConfigMapKeySelector", "ConfigMapProjection",
        "ConfigMapVolumeSource", "SecretEnvSource", "SecretKeySelector", "SecretProjection")) {
      inline.put("io.k8s.api.core.v1." + kind, Set.of("localObjectReference"));
    }
    return Map.copyOf(inline);
  }

  /** Meta types that embed TypeMeta although they have no ObjectMeta or ListMeta. */
  private static final Set<String> TYPE_META = Set.of(
      META + "Status", META + "DeleteOptions", META + "CreateOptions", META + "UpdateOptions",
      META + "PatchOptions", META + "GetOptions", META + "ListOptions", META + "APIGroup",
      META + "APIGroupList", META + "APIResourceList", META + "APIVersions");

  /** Messages whose ObjectMeta is not an object's own: templates (no TypeMeta). */
  private static final Set<String> TEMPLATES = Set.of(
      "io.k8s.api.core.v1.PodTemplateSpec", "io.k8s.api.batch.v1.JobTemplateSpec",
      "io.k8s.api.core.v1.PersistentVolumeClaimTemplate");

  /**
   * The generated messages by definition name, loaded on first use: initializing the generated
   * classes takes about half a second, which a server pays at its first OpenAPI request or
   * checked write rather than at start.
   */
  private static final class Messages {
    static final Map<String, Descriptor> ALL = load();

    private static Map<String, Descriptor> load() {
      Map<String, Descriptor> messages = new HashMap<>();
      for (FileDescriptor f : files()) {
        for (Descriptor d : f.getMessageTypes()) {
          messages.put(definitionName(d), d);
        }
      }
      return Map.copyOf(messages);
    }
  }

  private final PatchMetadata patches;

  private ProtoSchemas(PatchMetadata patches) {
    this.patches = patches;
  }

  /**
   * The schemas of kube's built-in v1 types, with {@code patches} for their list fields. Cheap:
   * the generated classes are read on first use.
   */
  public static ProtoSchemas builtins(PatchMetadata patches) {
    return new ProtoSchemas(java.util.Objects.requireNonNull(patches));
  }

  private static Map<String, Descriptor> messages() {
    return Messages.ALL;
  }

  /** The generated message of a definition, e.g. {@code io.k8s.api.core.v1.PodSpec}. */
  static Optional<Descriptor> message(String definition) {
    return Optional.ofNullable(Messages.ALL.get(definition));
  }

  /** kube's definition name of a generated message: {@code k8s.io.api...} becomes {@code io.k8s.api...}. */
  static String definitionName(Descriptor d) {
    String full = d.getFullName();
    return full.startsWith("k8s.io.")
        ? "io.k8s." + full.substring("k8s.io.".length()).replace("apiextensions_apiserver", "apiextensions-apiserver")
        : full;
  }

  /**
   * The definition of a kind of a built-in group, e.g. {@code io.k8s.api.apps.v1.Deployment} for
   * {@code apps/v1 Deployment}; empty when the generated classes have no such message.
   */
  public Optional<String> definitionFor(String group, String version, String kind) {
    String name = definitionName(group, version, kind);
    return messages().containsKey(name) ? Optional.of(name) : Optional.empty();
  }

  /**
   * The name kube gives the definition of a kind of a built-in group, whether or not it exists:
   * {@code io.k8s.api.<first label of the group, or core>.<version>.<kind>}.
   */
  static String definitionName(String group, String version, String kind) {
    if (group.equals("apiextensions.k8s.io")) {
      return APIEXTENSIONS + version + "." + kind;
    }
    int dot = group.indexOf('.');
    String pkg = group.isEmpty() ? "core" : dot < 0 ? group : group.substring(0, dot);
    return "io.k8s.api." + pkg + "." + version + "." + kind;
  }

  /** The patch metadata written into the schemas. */
  public PatchMetadata patches() {
    return patches;
  }

  /**
   * {@code roots} and every definition they reference, directly or not, in the given dialect,
   * sorted by name (as kube lists them).
   */
  public Map<String, ObjectNode> closure(Collection<String> roots, Dialect dialect) {
    Map<String, ObjectNode> out = new TreeMap<>();
    Deque<String> todo = new ArrayDeque<>(roots);
    while (!todo.isEmpty()) {
      String name = todo.pop();
      if (out.containsKey(name)) {
        continue;
      }
      ObjectNode schema = schema(name, dialect);
      out.put(name, schema);
      collectRefs(schema, dialect, todo);
    }
    return out;
  }

  /** Every definition, in the given dialect. */
  public Map<String, ObjectNode> all(Dialect dialect) {
    return closure(messages().keySet(), dialect);
  }

  private static void collectRefs(JsonNode node, Dialect dialect, Deque<String> todo) {
    if (node.isObject()) {
      JsonNode ref = node.get("$ref");
      if (ref != null && ref.isTextual()) {
        todo.push(dialect.definition(ref.asText()));
      }
    }
    for (JsonNode child : node) {
      collectRefs(child, dialect, todo);
    }
  }

  /** The schema of one definition. */
  public ObjectNode schema(String definition, Dialect dialect) {
    if (definition.equals(META + "Patch")) {
      return JSON.objectNode().put("type", "object");
    }
    Descriptor d = messages().get(definition);
    if (d == null) {
      throw new IllegalArgumentException("no definition " + definition);
    }
    ObjectNode special = special(definition, dialect);
    if (special != null) {
      return special;
    }
    ObjectNode schema = JSON.objectNode();
    schema.put("type", "object");
    ObjectNode properties = JSON.objectNode();
    if (hasTypeMeta(definition, d)) {
      properties.set("apiVersion", JSON.objectNode().put("type", "string"));
      properties.set("kind", JSON.objectNode().put("type", "string"));
    }
    addProperties(definition, d, properties, dialect);
    Map<String, JsonNode> byName = new TreeMap<>(); // kube lists properties by name
    properties.properties().forEach(e -> byName.put(e.getKey(), e.getValue()));
    ObjectNode sorted = JSON.objectNode();
    byName.forEach(sorted::set);
    schema.set("properties", sorted);
    Set<String> required = new java.util.TreeSet<>(RequiredFields.of(definition));
    required.retainAll(byName.keySet());
    if (!required.isEmpty()) {
      required.forEach(schema.putArray("required")::add);
    }
    return schema;
  }

  private static boolean hasTypeMeta(String definition, Descriptor d) {
    if (TYPE_META.contains(definition)) {
      return true;
    }
    if (TEMPLATES.contains(definition)) {
      return false;
    }
    FieldDescriptor metadata = d.findFieldByName("metadata");
    if (metadata == null || metadata.getType() != FieldDescriptor.Type.MESSAGE) {
      return false;
    }
    String type = definitionName(metadata.getMessageType());
    return type.equals(META + "ObjectMeta") || type.equals(META + "ListMeta");
  }

  private void addProperties(String definition, Descriptor d, ObjectNode properties, Dialect dialect) {
    Set<String> inline = INLINE.getOrDefault(definition, Set.of());
    for (FieldDescriptor f : d.getFields()) {
      if (inline.contains(f.getName())) {
        Descriptor embedded = f.getMessageType();
        addProperties(definitionName(embedded), embedded, properties, dialect);
        continue;
      }
      ObjectNode property = fieldSchema(f, dialect);
      String name = io.listwatch.apiserver.protobuf.ProtoJson.jsonName(f);
      patches.field(definition, name).ifPresent(p -> {
        if (p.strategy() != null && !p.strategy().isEmpty()) {
          property.put("x-kubernetes-patch-strategy", p.strategy());
        }
        if (p.mergeKey() != null && !p.mergeKey().isEmpty()) {
          property.put("x-kubernetes-patch-merge-key", p.mergeKey());
        }
        if (p.listType() != null && !p.listType().isEmpty()) {
          property.put("x-kubernetes-list-type", p.listType());
        }
        if (!p.listMapKeys().isEmpty()) {
          var keys = property.putArray("x-kubernetes-list-map-keys");
          p.listMapKeys().forEach(keys::add);
        }
      });
      properties.set(name, property);
    }
  }

  private ObjectNode fieldSchema(FieldDescriptor f, Dialect dialect) {
    if (f.isMapField()) {
      FieldDescriptor value = f.getMessageType().findFieldByName("value");
      ObjectNode map = JSON.objectNode().put("type", "object");
      map.set("additionalProperties", valueSchema(value, dialect));
      return map;
    }
    if (f.isRepeated()) {
      ObjectNode array = JSON.objectNode().put("type", "array");
      array.set("items", valueSchema(f, dialect));
      return array;
    }
    return valueSchema(f, dialect);
  }

  /** The schema of one value of a field (an array's item, a map's value). */
  private static ObjectNode valueSchema(FieldDescriptor f, Dialect dialect) {
    return switch (f.getType()) {
      case MESSAGE, GROUP -> JSON.objectNode().put("$ref", dialect.ref(definitionName(f.getMessageType())));
      case STRING -> JSON.objectNode().put("type", "string");
      case BYTES -> JSON.objectNode().put("type", "string").put("format", "byte");
      case BOOL -> JSON.objectNode().put("type", "boolean");
      case INT32, SINT32, SFIXED32, UINT32, FIXED32 -> JSON.objectNode().put("type", "integer").put("format", "int32");
      case INT64, SINT64, SFIXED64, UINT64, FIXED64 -> JSON.objectNode().put("type", "integer").put("format", "int64");
      case DOUBLE -> JSON.objectNode().put("type", "number").put("format", "double");
      case FLOAT -> JSON.objectNode().put("type", "number").put("format", "float");
      case ENUM -> JSON.objectNode().put("type", "string");
    };
  }

  /** kube's JSON forms of its special types, or null for an ordinary message. */
  private static ObjectNode special(String definition, Dialect dialect) {
    switch (definition) {
      case META + "Time", META + "MicroTime" -> {
        return JSON.objectNode().put("type", "string").put("format", "date-time");
      }
      case META + "Duration" -> {
        return JSON.objectNode().put("type", "string");
      }
      case META + "FieldsV1", "io.k8s.apimachinery.pkg.runtime.RawExtension" -> {
        return JSON.objectNode().put("type", "object");
      }
      case "io.k8s.apimachinery.pkg.api.resource.Quantity" -> {
        if (dialect == Dialect.SWAGGER_2) {
          return JSON.objectNode().put("type", "string");
        }
        ObjectNode q = JSON.objectNode();
        q.putArray("oneOf").add(JSON.objectNode().put("type", "string")).add(JSON.objectNode().put("type", "number"));
        q.put("x-kubernetes-int-or-string", true);
        return q;
      }
      case "io.k8s.apimachinery.pkg.util.intstr.IntOrString" -> {
        if (dialect == Dialect.SWAGGER_2) {
          return JSON.objectNode().put("type", "string").put("format", "int-or-string");
        }
        ObjectNode s = JSON.objectNode().put("format", "int-or-string");
        s.putArray("oneOf").add(JSON.objectNode().put("type", "integer")).add(JSON.objectNode().put("type", "string"));
        s.put("x-kubernetes-int-or-string", true);
        return s;
      }
      case APIEXTENSIONS + "v1.JSONSchemaProps", APIEXTENSIONS + "v1.JSON", APIEXTENSIONS + "v1.JSONSchemaPropsOrArray",
          APIEXTENSIONS + "v1.JSONSchemaPropsOrBool", APIEXTENSIONS + "v1.JSONSchemaPropsOrStringArray" -> {
        // a schema (keys such as $ref and x-kubernetes-*, values of any JSON type): the CRD's
        // own checks read it, field validation does not look into it
        ObjectNode free = JSON.objectNode();
        if (definition.endsWith(".JSONSchemaProps")) {
          free.put("type", "object");
        }
        return dialect == Dialect.SWAGGER_2 ? free : free.put("x-kubernetes-preserve-unknown-fields", true);
      }
      case META + "Verbs", "io.k8s.api.authentication.v1.ExtraValue", "io.k8s.api.authorization.v1.ExtraValue",
          "io.k8s.api.certificates.v1.ExtraValue" -> {
        ObjectNode array = JSON.objectNode().put("type", "array");
        array.set("items", JSON.objectNode().put("type", "string"));
        return array;
      }
      default -> {
        return null;
      }
    }
  }

  /**
   * The definition each OpenAPI 3 reference names, worked out once per reference (every write
   * resolves the same few hundred); bounded by the references of the schemas this class makes.
   */
  private static final Map<String, String> REFERENCED = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * A property's schema with its {@code $ref} (in {@link Dialect#OPENAPI_3}) followed into
   * {@code definitions}; null for no schema, a missing definition, or a schema that is not an
   * object.
   */
  static ObjectNode resolve(Map<String, ObjectNode> definitions, JsonNode schema) {
    if (schema == null) {
      return null;
    }
    JsonNode ref = schema.get("$ref");
    if (ref != null) {
      return definitions.get(REFERENCED.computeIfAbsent(ref.asText(), Dialect.OPENAPI_3::definition));
    }
    return schema instanceof ObjectNode o ? o : null;
  }
}
