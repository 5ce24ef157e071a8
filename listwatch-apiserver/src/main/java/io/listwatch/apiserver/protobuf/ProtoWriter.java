package io.listwatch.apiserver.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import io.listwatch.api.GoDuration;
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
 * <p>A nested message is written into a scratch buffer of its depth, then copied into its
 * parent behind its length; each thread keeps one buffer per depth and reuses it for every
 * message at that depth, so converting an object allocates little more than its result.
 *
 * <p>Thread-safe: a cache of each descriptor's fields in number order, and scratch buffers
 * confined to their thread.
 */
final class ProtoWriter {

  private static final Map<Descriptor, List<FieldDescriptor>> ORDERED = new ConcurrentHashMap<>();
  /** A scratch buffer that grew past this is dropped after use rather than kept. */
  private static final int KEEP_BYTES = 64 * 1024;
  private static final ThreadLocal<List<Level>> LEVELS = ThreadLocal.withInitial(ArrayList::new);

  /** The scratch buffer of one nesting depth. */
  private static final class Level {
    final Bytes bytes = new Bytes();
    final CodedOutputStream out = CodedOutputStream.newInstance(bytes, 256);
  }

  /** A byte array output whose buffer can be copied from without another copy. */
  private static final class Bytes extends ByteArrayOutputStream {
    Bytes() {
      super(256);
    }

    byte[] buffer() {
      return buf;
    }
  }

  private ProtoWriter() {
  }

  /** The bytes of the message of type {@code type} holding what {@code json} (an object) has. */
  static byte[] write(Descriptor type, JsonNode json) {
    Level top = level(0);
    try {
      fields(type, json, top.out, 0);
      top.out.flush();
    } catch (IOException e) {
      throw new IllegalStateException(e); // in memory
    }
    byte[] result = top.bytes.toByteArray();
    release(0, top);
    return result;
  }

  private static Level level(int depth) {
    List<Level> levels = LEVELS.get();
    while (levels.size() <= depth) {
      levels.add(new Level());
    }
    Level l = levels.get(depth);
    l.bytes.reset();
    return l;
  }

  private static void release(int depth, Level l) {
    if (l.bytes.buffer().length > KEEP_BYTES) {
      LEVELS.get().set(depth, new Level());
    }
  }

  /** What a nested message's writer does with the stream of its depth. */
  @FunctionalInterface
  private interface Body {
    /** Writes the message; false when the JSON does not fit it (nothing is then written). */
    boolean write(CodedOutputStream out, int depth) throws IOException;
  }

  /**
   * Writes field {@code number} holding the message {@code body} writes (always, also when
   * empty, unless {@code skipEmpty}); nothing when {@code body} answers false.
   */
  private static void nested(int number, CodedOutputStream parent, int depth, boolean skipEmpty, Body body)
      throws IOException {
    Level l = level(depth + 1);
    if (!body.write(l.out, depth + 1)) {
      l.out.flush();
      release(depth + 1, l);
      return;
    }
    l.out.flush();
    int size = l.bytes.size();
    if (size > 0 || !skipEmpty) {
      parent.writeTag(number, com.google.protobuf.WireFormat.WIRETYPE_LENGTH_DELIMITED);
      parent.writeUInt32NoTag(size);
      parent.writeRawBytes(l.bytes.buffer(), 0, size);
    }
    release(depth + 1, l);
  }

  private static List<FieldDescriptor> ordered(Descriptor type) {
    return ORDERED.computeIfAbsent(type, t -> {
      List<FieldDescriptor> fields = new ArrayList<>(t.getFields());
      fields.sort(Comparator.comparingInt(FieldDescriptor::getNumber));
      return List.copyOf(fields);
    });
  }

  private static void fields(Descriptor type, JsonNode json, CodedOutputStream out, int depth) throws IOException {
    for (FieldDescriptor f : ordered(type)) {
      if (ProtoJson.isInline(f)) {
        nested(f.getNumber(), out, depth, true, (o, d) -> {
          fields(f.getMessageType(), json, o, d);
          return true;
        });
        continue;
      }
      JsonNode v = json.get(ProtoJson.jsonName(f));
      if (v == null || v.isNull()) {
        continue;
      }
      if (f.isMapField()) {
        if (v.isObject()) {
          map(f, v, out, depth);
        }
      } else if (f.isRepeated()) {
        if (v.isArray()) {
          for (JsonNode item : v) {
            value(f, item, out, depth);
          }
        }
      } else {
        value(f, v, out, depth);
      }
    }
  }

  private static void map(FieldDescriptor f, JsonNode object, CodedOutputStream out, int depth) throws IOException {
    FieldDescriptor val = f.getMessageType().findFieldByNumber(2);
    TreeMap<String, JsonNode> sorted = new TreeMap<>();
    object.properties().forEach(e -> sorted.put(e.getKey(), e.getValue()));
    for (Map.Entry<String, JsonNode> e : sorted.entrySet()) {
      nested(f.getNumber(), out, depth, false, (entry, d) -> {
        entry.writeString(1, e.getKey());
        if (!e.getValue().isNull()) {
          value(val, e.getValue(), entry, d);
        }
        return true;
      });
    }
  }

  /** Writes one value of field {@code f}, if its JSON type fits. */
  private static void value(FieldDescriptor f, JsonNode v, CodedOutputStream out, int depth) throws IOException {
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
      case MESSAGE -> nested(n, out, depth, false, (o, d) -> message(f.getMessageType(), v, o, d));
      default -> {
        // kube's messages use no other scalar types
      }
    }
  }

  /** Writes a nested message's fields into {@code out}; false when the JSON does not fit it. */
  private static boolean message(Descriptor d, JsonNode v, CodedOutputStream out, int depth) throws IOException {
    String name = d.getFullName();
    switch (name) {
      case ProtoJson.TIME, ProtoJson.MICRO_TIME -> {
        if (!v.isTextual()) {
          return false;
        }
        Instant t;
        try {
          t = OffsetDateTime.parse(v.textValue()).toInstant();
        } catch (DateTimeParseException e) {
          return false;
        }
        int nanos = name.equals(ProtoJson.TIME) ? t.getNano() : t.getNano() / 1000 * 1000;
        out.writeInt64(1, t.getEpochSecond());
        out.writeInt32(2, nanos);
      }
      case ProtoJson.DURATION -> {
        if (!v.isTextual()) {
          return false;
        }
        try {
          out.writeInt64(1, GoDuration.parse(v.textValue()));
        } catch (IllegalArgumentException e) {
          return false;
        }
      }
      case ProtoJson.QUANTITY, ProtoJson.QUANTITY_VALUE -> {
        String q = v.isTextual() ? v.textValue() : v.isNumber() ? v.asText() : null;
        if (q == null) {
          return false;
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
          return false;
        }
      }
      case ProtoJson.RAW_EXTENSION, ProtoJson.FIELDS_V1 -> out.writeByteArray(1, ProtoJson.MAPPER.writeValueAsBytes(v));
      default -> {
        if (d.getName().equals("ExtraValue")) {
          if (!v.isArray()) {
            return false;
          }
          for (JsonNode s : v) {
            if (s.isTextual()) {
              out.writeString(1, s.textValue());
            }
          }
        } else if (v.isObject()) {
          fields(d, v, out, depth);
        } else {
          return false;
        }
      }
    }
    return true;
  }
}
