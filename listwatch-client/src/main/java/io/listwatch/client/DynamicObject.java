package io.listwatch.client;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.client.internal.Interner;
import io.listwatch.client.internal.Json;
import io.listwatch.client.internal.RecordingInputStream;
import io.listwatch.client.internal.ScratchBuffer;
import io.listwatch.client.internal.SkippingJsonParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Any Kubernetes object, of any resource (custom resources included), without a Java model.
 *
 * <p>Immutable and thread-safe: it keeps the object's JSON bytes as received plus its parsed
 * metadata; {@link #toJson()} and {@link #toTree()} give copies.
 *
 * <p>Memory: one {@code byte[]} of the object's JSON, the name, the label map (the shared
 * empty map when there are none), and the resourceVersion and uid as numbers when they have
 * the API server's canonical forms (decimal; lowercase UUID), else as strings. Namespaces,
 * apiVersion, kind, label keys and values are shared between objects through
 * {@link Interner}. Annotations are not kept: {@link #annotations()} reads them from the
 * bytes. No tree is kept. Decoding is one pass of
 * the streaming parser that picks out {@code apiVersion}, {@code kind} and
 * {@code metadata}'s fields and skips the rest; the bytes are then copied as they arrived
 * from the REST client's stream. {@link #parse(byte[])} and other parsers (e.g. a token
 * buffer) re-write every token into compact bytes instead.
 *
 * <p>{@link #equals} and {@link #hashCode} compare the JSON bytes.
 */
public final class DynamicObject {

  /** The codec of dynamic objects. Thread-safe. */
  public static final ObjectCodec<DynamicObject> CODEC = new Codec();

  private final byte[] json;
  private final String apiVersion;
  private final String kind;
  private final String namespace;
  private final String name;
  /**
   * {@code metadata.resourceVersion} as a number when it is a canonical decimal (the API
   * server's always are), else -1 and the string is in {@link #resourceVersionText}.
   */
  private final long resourceVersion;
  /** {@code metadata.resourceVersion} when it is not canonical, else null. */
  private final String resourceVersionText;
  /**
   * {@code metadata.uid}'s 128 bits when it is a canonical lowercase UUID (the API server's
   * always are); {@link #uidText} is then null.
   */
  private final long uidHigh;
  private final long uidLow;
  /** {@code metadata.uid} when it is not a canonical UUID, else null. */
  private final String uidText;
  private final Map<String, String> labels;
  /** Racy single-check cache of {@code Arrays.hashCode(json)}; 0 means not computed yet. */
  private int hash;

  private DynamicObject(byte[] json, Reader r) {
    this.json = json;
    this.apiVersion = r.apiVersion;
    this.kind = r.kind;
    this.namespace = r.namespace;
    this.name = r.name;
    long rv = CompactMeta.resourceVersion(r.resourceVersion);
    this.resourceVersion = rv;
    this.resourceVersionText = rv < 0 ? r.resourceVersion : null;
    if (CompactMeta.isUuid(r.uid)) {
      this.uidHigh = CompactMeta.uuidHigh(r.uid);
      this.uidLow = CompactMeta.uuidLow(r.uid);
      this.uidText = null;
    } else {
      this.uidHigh = 0;
      this.uidLow = 0;
      this.uidText = r.uid;
    }
    this.labels = r.labels;
  }

  /** Parses an object from JSON; throws {@link IllegalArgumentException} if it is not one. */
  public static DynamicObject parse(byte[] json) {
    Objects.requireNonNull(json, "json");
    try (JsonParser p = Json.FACTORY.createParser(json)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IllegalArgumentException("not a JSON object");
      }
      DynamicObject o = read(p);
      if (p.nextToken() != null) {
        throw new IllegalArgumentException("trailing data after the JSON object");
      }
      return o;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("malformed JSON: " + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Parses an object from a JSON string; as {@link #parse(byte[])}. */
  public static DynamicObject parse(String json) {
    return parse(json.getBytes(StandardCharsets.UTF_8));
  }

  /** Wraps a tree (copied). */
  public static DynamicObject of(ObjectNode tree) {
    try {
      return parse(Json.MAPPER.writeValueAsBytes(tree));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot serialize the tree", e);
    }
  }

  /**
   * Reads one object with the parser on its {@code START_OBJECT}; returns with the parser on
   * the matching {@code END_OBJECT}. When the parser reads a {@link RecordingInputStream}
   * (the REST client's response bodies), the object's bytes are taken as they arrived and
   * only metadata is decoded; otherwise (parse, a token buffer, a stream of unknown origin)
   * every token is re-written into compact bytes.
   */
  static DynamicObject read(JsonParser p) throws IOException {
    if (p.getInputSource() instanceof RecordingInputStream input) {
      long start = p.currentTokenLocation().getByteOffset();
      Reader r = new Reader(false);
      r.readObject(p, null);
      long end = p.currentLocation().getByteOffset();
      byte[] json = start < 0 ? null : input.copy(start, end);
      if (json == null) {
        throw new IOException("cannot locate the object's bytes in the stream");
      }
      return new DynamicObject(json, r);
    }
    ScratchBuffer out = ScratchBuffer.forThread();
    Reader r = new Reader(false);
    try (JsonGenerator g = Json.FACTORY.createGenerator(out)) {
      r.readObject(p, g);
    }
    return new DynamicObject(out.toByteArray(), r);
  }

  /**
   * The fields picked out while reading. With a generator every token is copied into it;
   * without one, what is not picked out is skipped. Confined to the decoding thread.
   */
  private static final class Reader {
    /** Whether annotations are read into {@link #annotations}; else they are skipped. */
    final boolean readAnnotations;
    String apiVersion = "";
    String kind = "";
    String namespace = "";
    String name = "";
    String resourceVersion = "";
    String uid = "";
    Map<String, String> labels = Map.of();
    Map<String, String> annotations = Map.of();

    Reader(boolean readAnnotations) {
      this.readAnnotations = readAnnotations;
    }

    void readObject(JsonParser p, JsonGenerator g) throws IOException {
      if (g != null) {
        g.writeStartObject();
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        if (g != null) {
          g.writeFieldName(field);
        }
        JsonToken t = p.nextToken();
        switch (field) {
          case "apiVersion" -> apiVersion = Interner.intern(string(p, g, t));
          case "kind" -> kind = Interner.intern(string(p, g, t));
          case "metadata" -> {
            if (t == JsonToken.START_OBJECT) {
              readMetadata(p, g);
            } else {
              other(p, g);
            }
          }
          default -> other(p, g);
        }
      }
      if (g != null) {
        g.writeEndObject();
      }
    }

    private void readMetadata(JsonParser p, JsonGenerator g) throws IOException {
      if (g != null) {
        g.writeStartObject();
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        if (g != null) {
          g.writeFieldName(field);
        }
        JsonToken t = p.nextToken();
        switch (field) {
          case "name" -> name = string(p, g, t);
          case "namespace" -> namespace = Interner.intern(string(p, g, t));
          case "resourceVersion" -> resourceVersion = string(p, g, t);
          case "uid" -> uid = string(p, g, t);
          case "labels" -> labels = stringMap(p, g, t, true);
          case "annotations" -> {
            if (readAnnotations) {
              annotations = stringMap(p, g, t, false);
            } else {
              other(p, g);
            }
          }
          default -> other(p, g);
        }
      }
      if (g != null) {
        g.writeEndObject();
      }
    }

    /** Copies or skips the current value (a REST body's parser skips it without tokenizing). */
    private static void other(JsonParser p, JsonGenerator g) throws IOException {
      if (g != null) {
        g.copyCurrentStructure(p);
      } else if (p instanceof SkippingJsonParser s) {
        s.skipValue();
      } else {
        p.skipChildren();
      }
    }

    /** The current value if it is a string, else "" (copied or skipped). */
    private static String string(JsonParser p, JsonGenerator g, JsonToken t) throws IOException {
      if (t == JsonToken.VALUE_STRING) {
        String s = p.getText();
        if (g != null) {
          g.writeString(s);
        }
        return s;
      }
      other(p, g);
      return "";
    }

    private static Map<String, String> stringMap(JsonParser p, JsonGenerator g, JsonToken t,
        boolean internValues) throws IOException {
      if (t != JsonToken.START_OBJECT) {
        other(p, g);
        return Map.of();
      }
      if (g != null) {
        g.writeStartObject();
      }
      SmallMapBuilder entries = new SmallMapBuilder();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = Interner.intern(p.currentName());
        if (g != null) {
          g.writeFieldName(key);
        }
        JsonToken v = p.nextToken();
        if (v != JsonToken.VALUE_STRING) {
          other(p, g); // null or not a string: kept in the JSON, not in the map
          continue;
        }
        String value = p.getText();
        if (g != null) {
          g.writeString(value);
        }
        entries.put(key, internValues ? Interner.intern(value) : value);
      }
      if (g != null) {
        g.writeEndObject();
      }
      return entries.build();
    }
  }

  /** {@code apiVersion}, {@code ""} if absent. */
  public String apiVersion() {
    return apiVersion;
  }

  /** {@code kind}, {@code ""} if absent. */
  public String kind() {
    return kind;
  }

  /** {@code metadata.namespace}, {@code ""} if absent. */
  public String namespace() {
    return namespace;
  }

  /** {@code metadata.name}, {@code ""} if absent. */
  public String name() {
    return name;
  }

  /**
   * {@code metadata.resourceVersion}, {@code ""} if absent. A canonical decimal version is
   * kept as a number and formatted on each call.
   */
  public String resourceVersion() {
    return resourceVersionText != null ? resourceVersionText : Long.toString(resourceVersion);
  }

  /**
   * {@code metadata.uid}, {@code ""} if absent. A canonical lowercase UUID is kept as 128
   * bits and formatted on each call.
   */
  public String uid() {
    return uidText != null ? uidText : new UUID(uidHigh, uidLow).toString();
  }

  /** {@code metadata.labels} (string values only), unmodifiable. */
  public Map<String, String> labels() {
    return labels;
  }

  /**
   * {@code metadata.annotations} (string values only), unmodifiable. Not kept with the object
   * (annotations are often large and rarely read by informers): each call reads them from
   * the JSON bytes, so callers reading them often should keep the map.
   */
  public Map<String, String> annotations() {
    try (JsonParser p = Json.FACTORY.createParser(json)) {
      p.nextToken();
      Reader r = new Reader(true);
      r.readObject(p, null);
      return r.annotations;
    } catch (IOException e) {
      throw notJson(e);
    }
  }

  /** What a reader of the bytes throws if they are not JSON: a broken invariant, as every way in checks them. */
  private static IllegalStateException notJson(IOException e) {
    return new IllegalStateException("a DynamicObject holds valid JSON", e);
  }

  /** The JSON bytes (a copy). */
  public byte[] toJson() {
    return json.clone();
  }

  /** The JSON as a string. */
  public String toJsonString() {
    return new String(json, StandardCharsets.UTF_8);
  }

  /** A mutable tree (a copy). */
  public ObjectNode toTree() {
    try {
      return (ObjectNode) Json.MAPPER.readTree(json);
    } catch (IOException e) {
      throw notJson(e);
    }
  }

  /**
   * The value at a path of field names (and array indexes), e.g.
   * {@code get("spec", "containers", "0", "image")}; empty if any step is missing. Reads the
   * bytes with a streaming parser and builds a tree of the found value only.
   */
  public Optional<JsonNode> get(String... path) {
    try (JsonParser p = Json.FACTORY.createParser(json)) {
      p.nextToken();
      for (String step : path) {
        if (!seek(p, step)) {
          return Optional.empty();
        }
      }
      return Optional.of(Json.MAPPER.readTree(p));
    } catch (IOException e) {
      throw notJson(e);
    }
  }

  /** Moves the parser from a container's start token onto the value of {@code step}. */
  private static boolean seek(JsonParser p, String step) throws IOException {
    if (p.currentToken() == JsonToken.START_OBJECT) {
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        boolean match = step.equals(p.currentName());
        p.nextToken();
        if (match) {
          return true;
        }
        p.skipChildren();
      }
      return false;
    }
    if (p.currentToken() == JsonToken.START_ARRAY) {
      int index;
      try {
        index = Integer.parseInt(step);
      } catch (NumberFormatException e) {
        return false;
      }
      for (int i = 0; p.nextToken() != JsonToken.END_ARRAY; i++) {
        if (i == index) {
          return true;
        }
        p.skipChildren();
      }
    }
    return false;
  }

  @Override
  public boolean equals(Object o) {
    return o == this || o instanceof DynamicObject d && Arrays.equals(json, d.json);
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = Arrays.hashCode(json);
      hash = h;
    }
    return h;
  }

  @Override
  public String toString() {
    return (kind.isEmpty() ? "object" : kind) + " "
        + (namespace.isEmpty() ? name : namespace + "/" + name) + " rv=" + resourceVersion();
  }

  /** Reads and writes {@link DynamicObject}s. Stateless, thread-safe. */
  private static final class Codec implements ObjectCodec<DynamicObject> {

    @Override
    public DynamicObject decode(JsonParser parser) throws IOException {
      return read(parser);
    }

    @Override
    public void encode(DynamicObject object, JsonGenerator generator) throws IOException {
      try (JsonParser p = Json.FACTORY.createParser(object.json)) {
        p.nextToken();
        generator.copyCurrentStructure(p);
      }
    }

    @Override
    public Class<DynamicObject> type() {
      return DynamicObject.class;
    }

    @Override
    public String namespace(DynamicObject o) {
      return o.namespace;
    }

    @Override
    public String name(DynamicObject o) {
      return o.name;
    }

    @Override
    public String resourceVersion(DynamicObject o) {
      return o.resourceVersion();
    }

    @Override
    public String uid(DynamicObject o) {
      return o.uid();
    }

    @Override
    public Map<String, String> labels(DynamicObject o) {
      return o.labels;
    }

    @Override
    public Map<String, String> annotations(DynamicObject o) {
      return o.annotations();
    }

    @Override
    public String toString() {
      return "DynamicObject.CODEC";
    }
  }
}
