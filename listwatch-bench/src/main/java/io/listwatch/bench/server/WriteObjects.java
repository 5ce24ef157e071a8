package io.listwatch.bench.server;

import java.nio.charset.StandardCharsets;

/**
 * The objects {@code bench server-writes} writes, each about {@code objectBytes} of JSON as
 * the server stores it after a create (before any {@code managedFields}): a ConfigMap, and the
 * same content as a custom resource of one of two CustomResourceDefinitions, one whose schema
 * types and constrains every field ({@link #SCHEMA_CRD}) and one that only preserves unknown
 * fields ({@link #OPEN_CRD}), so that the two differ by the schema's work alone. Each write
 * changes a counter, so no write is a no-op. Stateless; thread-safe.
 */
final class WriteObjects {

  static final String GROUP = "bench.listwatch.io";
  static final String NAMESPACE = "default";

  /** A definition whose schema types every field, with an enum, bounds, a set and a pattern. */
  static final String SCHEMA_CRD = crd("typedwidgets", "TypedWidget", """
      {"type": "object", "properties": {"spec": {"type": "object", "required": ["counter", "mode"],
        "properties": {
          "counter": {"type": "integer", "minimum": 0},
          "mode": {"type": "string", "enum": ["fast", "slow"]},
          "replicas": {"type": "integer", "minimum": 0, "maximum": 100},
          "owner": {"type": "string", "pattern": "^[a-z][a-z0-9-]*$", "maxLength": 63},
          "tags": {"type": "array", "maxItems": 16, "x-kubernetes-list-type": "set", "items": {"type": "string"}},
          "payload": {"type": "string", "maxLength": 8192}}}}}""");

  /** A definition whose schema checks nothing in {@code spec}. */
  static final String OPEN_CRD = crd("openwidgets", "OpenWidget", """
      {"type": "object", "properties": {"spec": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}""");

  /** What the server adds on create: uid, creationTimestamp, resourceVersion, generation (about). */
  private static final int SERVER_ADDED_BYTES = 170;

  private final int objectBytes;

  WriteObjects(int objectBytes) {
    this.objectBytes = objectBytes;
  }

  private static String crd(String plural, String kind, String schema) {
    return """
        {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
         "metadata": {"name": "%s.%s"},
         "spec": {"group": "%s", "scope": "Namespaced", "names": {"plural": "%s", "kind": "%s"},
           "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": %s}}]}}"""
        .formatted(plural, GROUP, GROUP, plural, kind, schema);
  }

  /** Which object a scenario writes. */
  enum Kind {
    CONFIGMAP("/api/v1/namespaces/" + NAMESPACE + "/configmaps", "v1", "ConfigMap"),
    SCHEMA_CR("/apis/" + GROUP + "/v1/namespaces/" + NAMESPACE + "/typedwidgets", GROUP + "/v1", "TypedWidget"),
    OPEN_CR("/apis/" + GROUP + "/v1/namespaces/" + NAMESPACE + "/openwidgets", GROUP + "/v1", "OpenWidget"),
    POD("/api/v1/namespaces/" + NAMESPACE + "/pods", "v1", "Pod");

    final String collection;
    final String apiVersion;
    final String kind;

    Kind(String collection, String apiVersion, String kind) {
      this.collection = collection;
      this.apiVersion = apiVersion;
      this.kind = kind;
    }
  }

  /**
   * The object {@code name} of {@code kind} with {@code counter}; with {@code resourceVersion}
   * in its metadata unless null (an update's precondition).
   */
  byte[] body(Kind kind, String name, long counter, String resourceVersion) {
    String meta = "{\"name\":\"" + name + "\",\"namespace\":\"" + NAMESPACE + "\",\"labels\":{\"app\":\"bench\","
        + "\"writer\":\"" + name + "\"}" + (resourceVersion == null ? "" : ",\"resourceVersion\":\"" + resourceVersion
        + "\"") + "}";
    String head = "{\"apiVersion\":\"" + kind.apiVersion + "\",\"kind\":\"" + kind.kind + "\",\"metadata\":" + meta;
    String fields = switch (kind) {
      case CONFIGMAP -> ",\"data\":{\"counter\":\"" + counter + "\",\"mode\":\"fast\",\"replicas\":\"3\","
          + "\"owner\":\"team-a\",\"tags\":\"a,b,c\",\"payload\":\"";
      // a typical pod: what validation, defaulting and admission look at is all here
      case POD -> ",\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"registry.example/app:1.0\","
          + "\"ports\":[{\"name\":\"http\",\"containerPort\":8080}],"
          + "\"resources\":{\"requests\":{\"cpu\":\"100m\",\"memory\":\"64Mi\"},"
          + "\"limits\":{\"cpu\":\"500m\",\"memory\":\"128Mi\"}},"
          + "\"readinessProbe\":{\"httpGet\":{\"path\":\"/healthz\",\"port\":8080}},"
          + "\"volumeMounts\":[{\"name\":\"config\",\"mountPath\":\"/etc/app\"}],"
          + "\"env\":[{\"name\":\"COUNTER\",\"value\":\"" + counter + "\"},{\"name\":\"PAYLOAD\",\"value\":\"";
      default -> ",\"spec\":{\"counter\":" + counter + ",\"mode\":\"fast\",\"replicas\":3,\"owner\":\"team-a\","
          + "\"tags\":[\"a\",\"b\",\"c\"],\"payload\":\"";
    };
    String tail = kind == Kind.POD
        ? "\"}]}],\"volumes\":[{\"name\":\"config\",\"configMap\":{\"name\":\"app-config\"}}]}}" : "\"}}";
    // pad to the size asked for as stored: the resourceVersion sent is counted in what the server adds
    int unpadded = head.length() + fields.length() + tail.length() + SERVER_ADDED_BYTES
        - (resourceVersion == null ? 0 : resourceVersion.length() + 21);
    String payload = "x".repeat(Math.max(0, objectBytes - unpadded));
    return (head + fields + payload + tail).getBytes(StandardCharsets.UTF_8);
  }
}
