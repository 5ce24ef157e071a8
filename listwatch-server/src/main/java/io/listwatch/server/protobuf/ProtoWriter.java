package io.listwatch.server.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes an object's JSON tree as the protobuf message of a descriptor, straight into the wire
 * format (no intermediate message objects): the reverse of {@link ProtoJson}, with the same JSON
 * names, inline structs and special types. It writes what the JSON has: fields in field-number
 * order and map entries in key order, as kube's generated code writes them; a Time with its
 * seconds and nanos, an IntOrString with all of type, intVal and strVal, as kube does. Fields the
 * message does not have, nulls, and values of the wrong JSON type are left out (kube drops what its
 * Go types cannot hold).
 *
 * <p>Stateless apart from a cache of each descriptor's fields in number order; thread-safe.
 */
final class ProtoWriter {

  private static final Map<Descriptor, List<FieldDescriptor>> ORDERED = new ConcurrentHashMap<>();

  private ProtoWriter() {
  }

  /** The bytes of the message of type {@code type} holding what {@code json} (an object) has. */
  static byte[] write(Descriptor type, JsonNode json) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    CodedOutputStream out = CodedOutputStream.newInstance(bytes, 4096);
    try {
      fields(type, json, out);
      out.flush();
    } catch (IOException e) {
      throw new IllegalStateException(e); // in memory
    }
    return bytes.toByteArray();
  }

  private static List<FieldDescriptor> ordered(Descriptor type) {
    return ORDERED.computeIfAbsent(type, t -> {
      List<FieldDescriptor> fields = new ArrayList<>(t.getFields());
      fields.sort(Comparator.comparingInt(FieldDescriptor::getNumber));
      return List.copyOf(fields);
    });
  }

  private static void fields(Descriptor type, JsonNode json, CodedOutputStream out) throws IOException {
    for (FieldDescriptor f : ordered(type)) {
      if (ProtoJson.isInline(f)) {
        byte[] inline = write(f.getMessageType(), json);
        if (inline.length > 0) {
          out.writeByteArray(f.getNumber(), inline);
        }
        continue;
      }
      JsonNode v = json.get(ProtoJson.jsonName(f));
      if (v == null || v.isNull()) {
        continue;
      }
      if (f.isMapField()) {
        if (v.isObject()) {
          map(f, v, out);
        }
      } else if (f.isRepeated()) {
        if (v.isArray()) {
          for (JsonNode item : v) {
            value(f, item, out);
          }
        }
      } else {
        value(f, v, out);
      }
    }
  }

  private static void map(FieldDescriptor f, JsonNode object, CodedOutputStream out) throws IOException {
    FieldDescriptor val = f.getMessageType().findFieldByNumber(2);
    TreeMap<String, JsonNode> sorted = new TreeMap<>();
    object.properties().forEach(e -> sorted.put(e.getKey(), e.getValue()));
    for (Map.Entry<String, JsonNode> e : sorted.entrySet()) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      CodedOutputStream entry = CodedOutputStream.newInstance(bytes, 256);
      entry.writeString(1, e.getKey());
      if (!e.getValue().isNull()) {
        value(val, e.getValue(), entry);
      }
      entry.flush();
      out.writeByteArray(f.getNumber(), bytes.toByteArray());
    }
  }

  /** Writes one value of field {@code f}, if its JSON type fits. */
  private static void value(FieldDescriptor f, JsonNode v, CodedOutputStream out) throws IOException {
    int n = f.getNumber();
    switch (f.getType()) {
      case STRING -> {
        if (v.isTextual()) {
          out.writeString(n, v.textValue());
        }
      }
      case INT32 -> {
        if (v.isIntegralNumber() && v.canConvertToInt()) {
          out.writeInt32(n, v.intValue());
        }
      }
      case INT64 -> {
        if (v.isIntegralNumber() && v.canConvertToLong()) {
          out.writeInt64(n, v.longValue());
        }
      }
      case BOOL -> {
        if (v.isBoolean()) {
          out.writeBool(n, v.booleanValue());
        }
      }
      case DOUBLE -> {
        if (v.isNumber()) {
          out.writeDouble(n, v.doubleValue());
        }
      }
      case BYTES -> {
        if (v.isTextual()) {
          try {
            out.writeByteArray(n, Base64.getDecoder().decode(v.textValue()));
          } catch (IllegalArgumentException e) {
            // not base64: left out
          }
        }
      }
      case MESSAGE -> {
        byte[] m = message(f.getMessageType(), v);
        if (m != null) {
          out.writeByteArray(n, m);
        }
      }
      default -> {
        // kube's messages use no other scalar types
      }
    }
  }

  /** A nested message's bytes, or null when the JSON does not fit it. */
  private static byte[] message(Descriptor d, JsonNode v) throws IOException {
    String name = d.getFullName();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(32);
    CodedOutputStream out = CodedOutputStream.newInstance(bytes, 64);
    switch (name) {
      case ProtoJson.TIME, ProtoJson.MICRO_TIME -> {
        if (!v.isTextual()) {
          return null;
        }
        Instant t;
        try {
          t = OffsetDateTime.parse(v.textValue()).toInstant();
        } catch (DateTimeParseException e) {
          return null;
        }
        int nanos = name.equals(ProtoJson.TIME) ? t.getNano() : t.getNano() / 1000 * 1000;
        out.writeInt64(1, t.getEpochSecond());
        out.writeInt32(2, nanos);
      }
      case ProtoJson.DURATION -> {
        if (!v.isTextual()) {
          return null;
        }
        try {
          out.writeInt64(1, GoDuration.parse(v.textValue()));
        } catch (IllegalArgumentException e) {
          return null;
        }
      }
      case ProtoJson.QUANTITY, ProtoJson.QUANTITY_VALUE -> {
        String q = v.isTextual() ? v.textValue() : v.isNumber() ? v.asText() : null;
        if (q == null) {
          return null;
        }
        out.writeString(1, q);
      }
      case ProtoJson.INT_OR_STRING -> {
        if (v.isIntegralNumber() && v.canConvertToInt()) {
          out.writeInt64(1, 0);
          out.writeInt32(2, v.intValue());
          out.writeString(3, "");
        } else if (v.isTextual()) {
          out.writeInt64(1, 1);
          out.writeInt32(2, 0);
          out.writeString(3, v.textValue());
        } else {
          return null;
        }
      }
      case ProtoJson.RAW_EXTENSION, ProtoJson.FIELDS_V1 -> out.writeByteArray(1, ProtoJson.MAPPER.writeValueAsBytes(v));
      default -> {
        if (d.getName().equals("ExtraValue")) {
          if (!v.isArray()) {
            return null;
          }
          for (JsonNode s : v) {
            if (s.isTextual()) {
              out.writeString(1, s.textValue());
            }
          }
        } else if (v.isObject()) {
          return write(d, v);
        } else {
          return null;
        }
      }
    }
    out.flush();
    return bytes.toByteArray();
  }
}
