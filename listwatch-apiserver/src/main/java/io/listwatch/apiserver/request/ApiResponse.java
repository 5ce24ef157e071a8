package io.listwatch.apiserver.request;

import io.listwatch.apiserver.cacher.CachedObject;
import io.listwatch.apiserver.registry.ResourceDefinition;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a REST handler answers, before any encoding: an HTTP status code, a body, and extra
 * response headers ({@code Warning}, {@code ETag}). {@link #jsonParts()} is its JSON, the same
 * for every transport; the network server ({@code io.listwatch.server.http}) sends it (or
 * protobuf, or a Table); errors are thrown as {@link io.listwatch.api.StatusException}s
 * instead. Immutable.
 *
 * @param headers extra headers by name, each with its values in order
 */
public record ApiResponse(int code, Body body, Map<String, List<String>> headers) {

  public ApiResponse {
    Objects.requireNonNull(body);
    headers = Map.copyOf(headers);
  }

  public ApiResponse(int code, Body body) {
    this(code, body, Map.of());
  }

  /** This response with one more value of header {@code name}. */
  public ApiResponse withHeader(String name, String value) {
    Map<String, List<String>> next = new java.util.LinkedHashMap<>(headers);
    List<String> values = new java.util.ArrayList<>(next.getOrDefault(name, List.of()));
    values.add(value);
    next.put(name, List.copyOf(values));
    return new ApiResponse(code, body, next);
  }

  /**
   * This response with a {@code Warning: 299 - "text"} header per warning, as kube sends them
   * (kubectl prints each as {@code Warning: text}).
   */
  public ApiResponse withWarnings(List<String> warnings) {
    if (warnings.isEmpty()) {
      return this;
    }
    Map<String, List<String>> next = new java.util.LinkedHashMap<>(headers);
    List<String> values = new java.util.ArrayList<>(next.getOrDefault("Warning", List.of()));
    warnings.forEach(w -> values.add(warningHeader(w)));
    next.put("Warning", List.copyOf(values));
    return new ApiResponse(code, body, next);
  }

  /**
   * The value of kube's {@code Warning} header for {@code text}: {@code 299 - "text"}, quoted.
   * A response's warnings are bounded as kube bounds them when it is sent ({@link WarningHeaders}).
   */
  public static String warningHeader(String text) {
    return WarningHeaders.value(text);
  }

  /** Serializes the {@link Value}s of responses; thread-safe once configured. */
  private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
      new com.fasterxml.jackson.databind.ObjectMapper();

  /**
   * The body as JSON, as its parts in order, whatever transport sends it (one part, or for a
   * list the head, each item's cached bytes and the commas and tail around them: nothing is
   * copied or re-serialized); empty for a body that is not JSON ({@link Text}, {@link Binary}) and
   * for a watch ({@link WatchStart}), whose events the transport streams.
   * The parts are shared and must not be changed.
   */
  public java.util.Optional<byte[][]> jsonParts() {
    return switch (body) {
      case JsonBytes b -> java.util.Optional.of(new byte[][] {b.json()});
      case CachedBody b -> java.util.Optional.of(new byte[][] {b.object().json()});
      case DiscoveryBody d -> java.util.Optional.of(new byte[][] {json(d.legacy())});
      case Value v -> java.util.Optional.of(new byte[][] {json(v.value())});
      case ListBody l -> java.util.Optional.of(l.jsonParts());
      case Text t -> java.util.Optional.empty();
      case Binary b -> java.util.Optional.empty();
      case WatchStart w -> java.util.Optional.empty();
    };
  }

  /** {@code value} as JSON (a Status, a map, a tree). */
  public static byte[] json(Object value) {
    try {
      return JSON.writeValueAsBytes(value);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize " + value.getClass(), e);
    }
  }

  /** A response body. */
  public sealed interface Body permits JsonBytes, CachedBody, Value, ListBody, DiscoveryBody, Text, Binary, WatchStart {
  }

  /** An object that is already JSON (a cached object's bytes). Shared; do not mutate. */
  public record JsonBytes(byte[] json) implements Body {
  }

  /**
   * One stored object of {@code resource}, as the watch cache holds it (a GET): sent as its
   * cached JSON, or as a Table when the client asks for one.
   */
  public record CachedBody(ResourceDefinition resource, CachedObject object) implements Body {
  }

  /** A value to serialize as JSON (an ObjectNode, a Map, a {@link io.listwatch.api.Status}, a record). */
  public record Value(Object value) implements Body {
  }

  /**
   * A list of {@code resource}'s objects, {@code {"kind":..,"apiVersion":..,"metadata":{..},"items":[..]}},
   * to be assembled around the cached bytes of its items without re-serializing them (or
   * printed as a Table when the client asks for one).
   *
   * @param continueToken null when this is the last page
   * @param remainingItemCount null when unknown
   */
  public record ListBody(ResourceDefinition resource, long resourceVersion, String continueToken,
      Long remainingItemCount, List<CachedObject> items) implements Body {

    /** The list's kind, e.g. {@code PodList}. */
    public String kind() {
      return resource.listKind();
    }

    /** The list's apiVersion, e.g. {@code v1}. */
    public String apiVersion() {
      return resource.apiVersion();
    }

    /**
     * {@code {"kind":..,"apiVersion":..,"metadata":{..},"items":[..]}} as its parts, assembled
     * around the items' cached bytes without copying or re-serializing them.
     */
    public byte[][] jsonParts() {
      byte[][] parts = new byte[Math.max(0, items.size() * 2 - 1) + 2][];
      int n = 0;
      parts[n++] = jsonHead();
      for (int i = 0; i < items.size(); i++) {
        if (i > 0) {
          parts[n++] = COMMA;
        }
        parts[n++] = items.get(i).json();
      }
      parts[n] = TAIL;
      return parts;
    }

    /**
     * The JSON before the first item, {@code {"kind":..,"apiVersion":..,"metadata":{..},"items":[};
     * then come the items' cached bytes ({@link CachedObject#json()}) separated by commas, and
     * {@code ]}}. For a writer that walks {@link #items()} itself rather than hold
     * {@link #jsonParts()}' array of every part.
     */
    public byte[] jsonHead() {
      StringBuilder head = new StringBuilder(128)
          .append("{\"kind\":\"").append(kind()).append("\",\"apiVersion\":\"").append(apiVersion())
          .append("\",\"metadata\":{\"resourceVersion\":\"").append(resourceVersion).append('"');
      if (continueToken != null) {
        head.append(",\"continue\":\"").append(continueToken).append('"');
      }
      if (remainingItemCount != null) {
        head.append(",\"remainingItemCount\":").append(remainingItemCount);
      }
      head.append("},\"items\":[");
      return head.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static final byte[] COMMA = {','};
    private static final byte[] TAIL = {']', '}'};
  }

  /**
   * A discovery root ({@code /api}, {@code /apis}): the legacy document, and the aggregated one
   * (an apidiscovery.k8s.io APIGroupDiscoveryList) for clients whose Accept header prefers it.
   *
   * @param aggregated the aggregated document for an apiVersion ({@code apidiscovery.k8s.io/v2}
   *     or {@code apidiscovery.k8s.io/v2beta1})
   */
  public record DiscoveryBody(Object legacy, java.util.function.Function<String, Object> aggregated) implements Body {
  }

  /** Bytes of the given content type, written as they are (the OpenAPI v2 document's protobuf form). */
  public record Binary(byte[] bytes, String contentType) implements Body {
  }

  /** Text (health checks, metrics) of the given content type. */
  public record Text(String text, String contentType) implements Body {
    /** Plain UTF-8 text. */
    public Text(String text) {
      this(text, "text/plain; charset=utf-8");
    }
  }

  public static ApiResponse ok(Object value) {
    return new ApiResponse(200, new Value(value));
  }

  public static ApiResponse created(Object value) {
    return new ApiResponse(201, new Value(value));
  }

  public static ApiResponse okJson(byte[] json) {
    return new ApiResponse(200, new JsonBytes(json));
  }

  public static ApiResponse okText(String text) {
    return new ApiResponse(200, new Text(text));
  }
}
