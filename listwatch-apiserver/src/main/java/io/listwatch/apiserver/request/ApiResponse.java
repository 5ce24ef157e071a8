package io.listwatch.apiserver.request;

import io.listwatch.apiserver.cacher.CachedObject;
import io.listwatch.apiserver.registry.ResourceDefinition;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a REST handler answers, before any encoding: an HTTP status code, a body, and extra
 * response headers ({@code Warning}, {@code ETag}). The transport
 * ({@code io.listwatch.server.http}) turns it into bytes on the wire; errors are thrown as
 * {@link io.listwatch.api.StatusException}s instead. Immutable.
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
    ApiResponse r = this;
    for (String w : warnings) {
      r = r.withHeader("Warning", warningHeader(w));
    }
    return r;
  }

  /** The value of kube's {@code Warning} header for {@code text}: {@code 299 - "text"}, quoted. */
  public static String warningHeader(String text) {
    return "299 - \"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  /** A response body. */
  public sealed interface Body permits JsonBytes, CachedBody, Value, ListBody, DiscoveryBody, Text, Binary {
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
