package io.listwatch.apiserver.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import java.io.IOException;
import java.util.Map;

/**
 * The Swagger 2.0 document in the protobuf form kubectl and client-go download
 * ({@code application/com.github.proto-openapi.spec.v2@v1.0+protobuf}): gnostic's
 * {@code openapi.v2.Document} message, converted from the JSON document. kubectl needs it to
 * validate a {@code kind: List} file on the client (its server-side validation check has no
 * List kind) and for {@code explain --output=plaintext-openapiv2}.
 *
 * <p>How JSON maps to the messages, as gnostic compiles a document: every JSON object used as a
 * map (paths, definitions, properties, responses) is a repeated {@code Named*} pair (1: name,
 * 2: value) in the document's key order; {@code x-} keys are vendor extensions, each a
 * {@code NamedAny} whose value carries the extension's value as YAML text (written as JSON,
 * which YAML reads); defaults, examples and enum values are such {@code Any}s too; a
 * parameter is a body parameter or, by its {@code in}, a header, formData, query or path
 * sub-schema; {@code $ref} is {@code _ref}. As proto3 writes them, empty strings, false and
 * zero are left out. Fields this server's documents never use (security, tags, xml, external
 * docs) are not written.
 *
 * <p>Stateless; thread-safe.
 */
final class OpenApiV2Protobuf {

  /** The media type kubectl asks for. */
  static final String MEDIA_TYPE = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";
  /**
   * The Content-Type of the answer, as kube writes it: the same type with a dot for the
   * {@code @}, which is not allowed in a media type (Go's parser rejects it).
   */
  static final String CONTENT_TYPE = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

  private static final ObjectMapper MAPPER = new ObjectMapper();

  // Schema's field numbers, by JSON key
  private static final Map<String, Integer> SCHEMA_STRINGS = Map.of(
      "$ref", 1, "format", 2, "title", 3, "description", 4, "pattern", 13, "discriminator", 26);
  private static final Map<String, Integer> SCHEMA_DOUBLES = Map.of(
      "multipleOf", 6, "maximum", 7, "minimum", 9);
  private static final Map<String, Integer> SCHEMA_INTS = Map.of(
      "maxLength", 11, "minLength", 12, "maxItems", 14, "minItems", 15, "maxProperties", 17, "minProperties", 18);
  private static final Map<String, Integer> SCHEMA_BOOLS = Map.of(
      "exclusiveMaximum", 8, "exclusiveMinimum", 10, "uniqueItems", 16, "readOnly", 27);

  private OpenApiV2Protobuf() {
  }

  /** The Document message of a Swagger 2.0 document. */
  static byte[] document(byte[] json) {
    JsonNode doc;
    try {
      doc = MAPPER.readTree(json);
    } catch (IOException e) {
      throw new IllegalArgumentException("the OpenAPI v2 document is not JSON", e);
    }
    Message m = new Message();
    m.string(1, doc.path("swagger").asText(""));
    if (doc.has("info")) {
      Message info = new Message();
      info.string(1, doc.get("info").path("title").asText(""));
      info.string(2, doc.get("info").path("version").asText(""));
      m.message(2, info);
    }
    m.string(3, doc.path("host").asText(""));
    m.string(4, doc.path("basePath").asText(""));
    m.strings(5, doc.path("schemes"));
    m.strings(6, doc.path("consumes"));
    m.strings(7, doc.path("produces"));
    if (doc.has("paths")) {
      Message paths = new Message();
      doc.get("paths").properties().forEach(e -> {
        if (e.getKey().startsWith("x-")) {
          paths.message(1, namedAny(e.getKey(), e.getValue()));
        } else {
          paths.message(2, named(e.getKey(), pathItem(e.getValue())));
        }
      });
      m.message(8, paths);
    }
    if (doc.has("definitions")) {
      Message definitions = new Message();
      doc.get("definitions").properties().forEach(e -> definitions.message(1, named(e.getKey(), schema(e.getValue()))));
      m.message(9, definitions);
    }
    vendorExtensions(m, 16, doc);
    return m.bytes();
  }

  private static Message pathItem(JsonNode item) {
    Message m = new Message();
    m.string(1, item.path("$ref").asText(""));
    String[] verbs = {"get", "put", "post", "delete", "options", "head", "patch"};
    for (int i = 0; i < verbs.length; i++) {
      if (item.has(verbs[i])) {
        m.message(2 + i, operation(item.get(verbs[i])));
      }
    }
    for (JsonNode p : item.path("parameters")) {
      m.message(9, parametersItem(p));
    }
    vendorExtensions(m, 10, item);
    return m;
  }

  private static Message operation(JsonNode op) {
    Message m = new Message();
    m.strings(1, op.path("tags"));
    m.string(2, op.path("summary").asText(""));
    m.string(3, op.path("description").asText(""));
    m.string(5, op.path("operationId").asText(""));
    m.strings(6, op.path("produces"));
    m.strings(7, op.path("consumes"));
    for (JsonNode p : op.path("parameters")) {
      m.message(8, parametersItem(p));
    }
    if (op.has("responses")) {
      Message responses = new Message();
      op.get("responses").properties().forEach(e -> {
        if (e.getKey().startsWith("x-")) {
          responses.message(2, namedAny(e.getKey(), e.getValue()));
          return;
        }
        Message value = new Message();
        if (e.getValue().has("$ref")) {
          value.message(2, jsonReference(e.getValue()));
        } else {
          Message response = new Message();
          response.string(1, e.getValue().path("description").asText(""));
          if (e.getValue().has("schema")) {
            response.message(2, new Message().message(1, schema(e.getValue().get("schema"))));
          }
          vendorExtensions(response, 5, e.getValue());
          value.message(1, response);
        }
        responses.message(1, named(e.getKey(), value));
      });
      m.message(9, responses);
    }
    m.strings(10, op.path("schemes"));
    m.bool(11, op.path("deprecated").asBoolean(false));
    vendorExtensions(m, 13, op);
    return m;
  }

  private static Message parametersItem(JsonNode p) {
    if (p.has("$ref")) {
      return new Message().message(2, jsonReference(p));
    }
    Message parameter = new Message();
    String in = p.path("in").asText("");
    if (in.equals("body")) {
      Message body = new Message();
      body.string(1, p.path("description").asText(""));
      body.string(2, p.path("name").asText(""));
      body.string(3, in);
      body.bool(4, p.path("required").asBoolean(false));
      if (p.has("schema")) {
        body.message(5, schema(p.get("schema")));
      }
      vendorExtensions(body, 6, p);
      parameter.message(1, body);
    } else {
      // header and path sub-schemas share one numbering; query and formData add
      // allowEmptyValue as field 5 and move every later field up by one
      int which = switch (in) {
        case "header" -> 1;
        case "formData" -> 2;
        case "query" -> 3;
        case "path" -> 4;
        default -> throw new IllegalArgumentException("a parameter in '" + in + "'");
      };
      int shift = which == 2 || which == 3 ? 1 : 0;
      Message sub = new Message();
      sub.bool(1, p.path("required").asBoolean(false));
      sub.string(2, in);
      sub.string(3, p.path("description").asText(""));
      sub.string(4, p.path("name").asText(""));
      if (shift == 1) {
        sub.bool(5, p.path("allowEmptyValue").asBoolean(false));
      }
      sub.string(5 + shift, p.path("type").asText(""));
      sub.string(6 + shift, p.path("format").asText(""));
      sub.string(8 + shift, p.path("collectionFormat").asText(""));
      if (p.has("default")) {
        sub.message(9 + shift, any(p.get("default")));
      }
      sub.string(16 + shift, p.path("pattern").asText(""));
      sub.bool(19 + shift, p.path("uniqueItems").asBoolean(false));
      for (JsonNode value : p.path("enum")) {
        sub.message(20 + shift, any(value));
      }
      vendorExtensions(sub, 22 + shift, p);
      parameter.message(2, new Message().message(which, sub));
    }
    return new Message().message(1, parameter);
  }

  private static Message jsonReference(JsonNode ref) {
    Message m = new Message();
    m.string(1, ref.path("$ref").asText(""));
    m.string(2, ref.path("description").asText(""));
    return m;
  }

  private static Message schema(JsonNode s) {
    Message m = new Message();
    // written in field-number order, as gnostic writes them
    java.util.TreeMap<Integer, Runnable> fields = new java.util.TreeMap<>();
    s.properties().forEach(e -> {
      String key = e.getKey();
      JsonNode v = e.getValue();
      Integer n;
      if ((n = SCHEMA_STRINGS.get(key)) != null) {
        int f = n;
        fields.put(f, () -> m.string(f, v.asText("")));
      } else if ((n = SCHEMA_DOUBLES.get(key)) != null) {
        int f = n;
        fields.put(f, () -> m.doubleValue(f, v.asDouble()));
      } else if ((n = SCHEMA_INTS.get(key)) != null) {
        int f = n;
        fields.put(f, () -> m.int64(f, v.asLong()));
      } else if ((n = SCHEMA_BOOLS.get(key)) != null) {
        int f = n;
        fields.put(f, () -> m.bool(f, v.asBoolean(false)));
      } else {
        switch (key) {
          case "default" -> fields.put(5, () -> m.message(5, any(v)));
          case "required" -> fields.put(19, () -> m.strings(19, v));
          case "enum" -> fields.put(20, () -> v.forEach(x -> m.message(20, any(x))));
          case "additionalProperties" -> fields.put(21, () -> m.message(21, v.isBoolean()
              ? new Message().boolAlways(2, v.asBoolean()) : new Message().message(1, schema(v))));
          case "type" -> fields.put(22, () -> m.message(22, new Message().strings(1, v.isArray() ? v : arrayOf(v))));
          case "items" -> fields.put(23, () -> {
            Message items = new Message();
            (v.isArray() ? v : arrayOf(v)).forEach(x -> items.message(1, schema(x)));
            m.message(23, items);
          });
          case "allOf" -> fields.put(24, () -> v.forEach(x -> m.message(24, schema(x))));
          case "properties" -> fields.put(25, () -> {
            Message properties = new Message();
            v.properties().forEach(p -> properties.message(1, named(p.getKey(), schema(p.getValue()))));
            m.message(25, properties);
          });
          case "example" -> fields.put(30, () -> m.message(30, any(v)));
          default -> {
            // x- keys below; anything else is not part of gnostic's Schema
          }
        }
      }
    });
    fields.values().forEach(Runnable::run);
    vendorExtensions(m, 31, s);
    return m;
  }

  private static JsonNode arrayOf(JsonNode one) {
    return MAPPER.createArrayNode().add(one);
  }

  private static void vendorExtensions(Message m, int field, JsonNode object) {
    object.properties().forEach(e -> {
      if (e.getKey().startsWith("x-")) {
        m.message(field, namedAny(e.getKey(), e.getValue()));
      }
    });
  }

  private static Message namedAny(String name, JsonNode value) {
    return named(name, any(value));
  }

  /** gnostic's Any: the value as YAML text (2); JSON is YAML. */
  private static Message any(JsonNode value) {
    try {
      return new Message().string(2, MAPPER.writeValueAsString(value) + "\n");
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Message named(String name, Message value) {
    return new Message().string(1, name).message(2, value);
  }

  /** One message being written: its fields in the order they are added. Confined to one thread. */
  private static final class Message {
    private final ByteString.Output bytes = ByteString.newOutput();
    private final CodedOutputStream out = CodedOutputStream.newInstance(bytes);

    Message string(int field, String value) {
      if (!value.isEmpty()) {
        write(() -> out.writeString(field, value));
      }
      return this;
    }

    Message strings(int field, JsonNode values) {
      for (JsonNode v : values) {
        write(() -> out.writeString(field, v.asText()));
      }
      return this;
    }

    Message bool(int field, boolean value) {
      return value ? boolAlways(field, true) : this;
    }

    /** A bool in a oneof, written even when false. */
    Message boolAlways(int field, boolean value) {
      write(() -> out.writeBool(field, value));
      return this;
    }

    Message int64(int field, long value) {
      if (value != 0) {
        write(() -> out.writeInt64(field, value));
      }
      return this;
    }

    Message doubleValue(int field, double value) {
      if (value != 0) {
        write(() -> out.writeDouble(field, value));
      }
      return this;
    }

    Message message(int field, Message value) {
      byte[] b = value.bytes();
      write(() -> {
        out.writeTag(field, com.google.protobuf.WireFormat.WIRETYPE_LENGTH_DELIMITED);
        out.writeUInt32NoTag(b.length);
        out.writeRawBytes(b);
      });
      return this;
    }

    byte[] bytes() {
      write(out::flush);
      return bytes.toByteString().toByteArray();
    }

    private void write(IoAction action) {
      try {
        action.run();
      } catch (IOException e) {
        throw new IllegalStateException(e); // in memory
      }
    }
  }

  @FunctionalInterface
  private interface IoAction {
    void run() throws IOException;
  }
}
