package io.listwatch.apiserver.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.listwatch.api.GoDuration;
import io.listwatch.api.meta.KubeTime;
import java.io.IOException;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Converts any of kube's protobuf messages to the object's JSON tree (and, with
 * {@link ProtoWriter}, back), driven by the message's descriptor: a field's JSON name is its proto name (kube generates one from the other),
 * messages are objects, repeated fields arrays, maps objects, {@code bytes} base64 strings, as
 * kube's JSON has them. kube's special types are mapped to their JSON forms:
 * <ul>
 *   <li>meta.v1 {@code Time} (seconds, nanos) is an RFC 3339 string with second precision, and
 *       {@code MicroTime} one with exactly six fractional digits, both in UTC; an empty message is
 *       Go's zero time, which kube's JSON has as null (left out here).</li>
 *   <li>meta.v1 {@code Duration} (nanoseconds) is a Go duration string ({@link GoDuration}).</li>
 *   <li>{@code resource.Quantity} is its string; {@code intstr.IntOrString} (type, intVal, strVal)
 *       a JSON number (type 0) or string (type 1).</li>
 *   <li>{@code runtime.RawExtension} and meta.v1 {@code FieldsV1} hold raw JSON, embedded as it is
 *       (a RawExtension may also hold a protobuf object in kube's envelope, decoded to its JSON).</li>
 *   <li>{@code ExtraValue} (a Go string slice) is an array of strings.</li>
 *   <li>A Go struct embedded inline in its parent (a Probe's handler, a Volume's source, a
 *       key selector's LocalObjectReference, ...) is a message field in protobuf, and its fields
 *       are the parent's own in JSON ({@link #INLINE} lists them: kube's Go tags say which, the
 *       descriptors do not).</li>
 * </ul>
 *
 * <p>Message to JSON follows kube's {@code omitempty}: absent fields, empty strings, empty arrays and
 * maps and zero times are left out. Numbers and booleans are kept even when zero or false: kube's
 * generated code writes every non-pointer field, so a zero on the wire may be a pointer set to zero
 * ({@code replicas: 0}, {@code allowPrivilegeEscalation: false}), which the JSON must keep; a kept
 * zero of a non-pointer field means the same as an absent one.
 *
 * <p>Stateless; thread-safe.
 */
public final class ProtoJson {

  static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  static final String TIME = ProtoTypes.META + "Time";
  static final String MICRO_TIME = ProtoTypes.META + "MicroTime";
  static final String DURATION = ProtoTypes.META + "Duration";
  static final String FIELDS_V1 = ProtoTypes.META + "FieldsV1";
  static final String RAW_EXTENSION = "k8s.io.apimachinery.pkg.runtime.RawExtension";
  static final String QUANTITY = "k8s.io.apimachinery.pkg.api.resource.Quantity";
  static final String QUANTITY_VALUE = "k8s.io.apimachinery.pkg.api.resource.QuantityValue";
  static final String INT_OR_STRING = "k8s.io.apimachinery.pkg.util.intstr.IntOrString";
  /**
   * Go structs embedded inline ({@code json:",inline"}) in kube's types: one message field in
   * protobuf, their fields directly in the parent's JSON. Keyed "Message.field" (short names).
   */
  private static final java.util.Set<String> INLINE = java.util.Set.of(
      "Probe.handler", "Volume.volumeSource", "PersistentVolumeSpec.persistentVolumeSource",
      "EphemeralContainer.ephemeralContainerCommon", "VolumeMountStatus.volumeStatus",
      "ConfigMapEnvSource.localObjectReference", "ConfigMapKeySelector.localObjectReference",
      "ConfigMapProjection.localObjectReference", "ConfigMapVolumeSource.localObjectReference",
      "SecretEnvSource.localObjectReference", "SecretKeySelector.localObjectReference",
      "SecretProjection.localObjectReference", "IngressRule.ingressRuleValue",
      "NamedRuleWithOperations.ruleWithOperations", "RuleWithOperations.rule",
      "DeviceAllocationConfiguration.deviceConfiguration", "DeviceClaimConfiguration.deviceConfiguration",
      "DeviceClassConfiguration.deviceConfiguration");

  private ProtoJson() {
  }

  // ---- message -> JSON ---------------------------------------------------------------------

  /** The JSON object of a message (not a special type). */
  public static ObjectNode toJson(Message message) {
    ObjectNode out = NODES.objectNode();
    for (Map.Entry<FieldDescriptor, Object> e : message.getAllFields().entrySet()) {
      FieldDescriptor f = e.getKey();
      JsonNode value;
      if (f.isMapField()) {
        value = map(f, (List<?>) e.getValue());
      } else if (f.isRepeated()) {
        ArrayNode array = NODES.arrayNode();
        for (Object item : (List<?>) e.getValue()) {
          array.add(nonNull(value(f, item)));
        }
        value = array;
      } else {
        value = value(f, e.getValue());
        if (value == null || (value.isTextual() && value.textValue().isEmpty())) {
          continue; // omitempty
        }
        if (isInline(f) && value.isObject()) {
          out.setAll((ObjectNode) value);
          continue;
        }
      }
      if (value.isContainerNode() && value.isEmpty() && !value.isObject()) {
        continue;
      }
      out.set(jsonName(f), value);
    }
    return out;
  }

  private static JsonNode nonNull(JsonNode value) {
    return value == null ? NODES.nullNode() : value;
  }

  private static ObjectNode map(FieldDescriptor f, List<?> entries) {
    ObjectNode out = NODES.objectNode();
    FieldDescriptor key = f.getMessageType().findFieldByNumber(1);
    FieldDescriptor val = f.getMessageType().findFieldByNumber(2);
    for (Object o : entries) {
      Message entry = (Message) o;
      out.set(String.valueOf(entry.getField(key)), nonNull(value(val, entry.getField(val))));
    }
    return out;
  }

  /** A singular value as JSON; null for a value kube's JSON leaves out (a zero time). */
  private static JsonNode value(FieldDescriptor f, Object v) {
    return switch (f.getJavaType()) {
      case STRING -> NODES.textNode((String) v);
      case INT -> NODES.numberNode((Integer) v);
      case LONG -> {
        long l = (Long) v; // as a JSON parser reads the number back: an int when it fits
        yield l == (int) l ? NODES.numberNode((int) l) : NODES.numberNode(l);
      }
      case BOOLEAN -> NODES.booleanNode((Boolean) v);
      case DOUBLE -> NODES.numberNode((Double) v);
      case FLOAT -> NODES.numberNode((Float) v);
      case BYTE_STRING -> NODES.textNode(Base64.getEncoder().encodeToString(((ByteString) v).toByteArray()));
      case ENUM -> NODES.textNode(v.toString());
      case MESSAGE -> message((Message) v);
    };
  }

  private static JsonNode message(Message m) {
    Descriptor d = m.getDescriptorForType();
    String name = d.getFullName();
    switch (name) {
      case TIME, MICRO_TIME -> {
        FieldDescriptor seconds = d.findFieldByNumber(1);
        FieldDescriptor nanos = d.findFieldByNumber(2);
        if (!m.hasField(seconds) && !m.hasField(nanos)) {
          return null; // Go's zero time
        }
        Instant t = Instant.ofEpochSecond((Long) m.getField(seconds), (Integer) m.getField(nanos));
        return NODES.textNode(name.equals(TIME) ? KubeTime.time(t) : KubeTime.microTime(t));
      }
      case DURATION -> {
        return NODES.textNode(GoDuration.format((Long) m.getField(d.findFieldByNumber(1))));
      }
      case QUANTITY, QUANTITY_VALUE -> {
        return NODES.textNode((String) m.getField(d.findFieldByNumber(1)));
      }
      case INT_OR_STRING -> {
        long type = (Long) m.getField(d.findFieldByNumber(1));
        return type == 1 ? NODES.textNode((String) m.getField(d.findFieldByNumber(3)))
            : NODES.numberNode((Integer) m.getField(d.findFieldByNumber(2)));
      }
      case RAW_EXTENSION, FIELDS_V1 -> {
        byte[] raw = ((ByteString) m.getField(d.findFieldByNumber(1))).toByteArray();
        return raw.length == 0 ? null : raw(raw);
      }
      default -> {
        if (d.getName().equals("ExtraValue")) {
          ArrayNode items = NODES.arrayNode();
          for (Object s : (List<?>) m.getField(d.findFieldByNumber(1))) {
            items.add((String) s);
          }
          return items;
        }
        return toJson(m);
      }
    }
  }

  /** Raw JSON, or an object in kube's protobuf envelope. */
  private static JsonNode raw(byte[] raw) {
    if (Envelope.isEnvelope(raw)) {
      return KubeProtobuf.decodeAny(raw);
    }
    try {
      return MAPPER.readTree(raw);
    } catch (IOException e) {
      throw new IllegalArgumentException("an embedded object is neither JSON nor a protobuf object: "
          + e.getMessage(), e);
    }
  }

  // ---- names ---------------------------------------------------------------------------------


  /** Proto names, by "Message.field", whose JSON names differ beyond the first letter. */
  private static final java.util.Map<String, String> RENAMED = java.util.Map.of(
      "BoundObjectReference.uID", "uid", "IngressClassParametersReference.aPIGroup", "apiGroup");

  static boolean isInline(FieldDescriptor f) {
    return f.getJavaType() == FieldDescriptor.JavaType.MESSAGE && !f.isRepeated()
        && INLINE.contains(f.getContainingType().getName() + "." + f.getName());
  }

  /**
   * A field's JSON name: its proto name, which kube generates from the JSON name, except for a few
   * Go fields without a JSON tag ({@code Webhooks}, {@code Expression}, {@code Name} in
   * admissionregistration), which the JSON spells in lower camel case. {@code DaemonEndpoint.Port}
   * is {@code "Port"} in JSON too. Two proto names are not their JSON names at all (kube named
   * them after the Go field): {@code BoundObjectReference.uID} is {@code uid} and
   * {@code IngressClassParametersReference.aPIGroup} is {@code apiGroup}.
   */
  public static String jsonName(FieldDescriptor f) {
    String name = f.getName();
    String renamed = RENAMED.get(f.getContainingType().getName() + "." + name);
    if (renamed != null) {
      return renamed;
    }
    if (Character.isUpperCase(name.charAt(0)) && !f.getContainingType().getName().equals("DaemonEndpoint")) {
      return Character.toLowerCase(name.charAt(0)) + name.substring(1);
    }
    return name;
  }
}
