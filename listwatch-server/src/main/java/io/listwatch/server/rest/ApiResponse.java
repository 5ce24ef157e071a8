package io.listwatch.server.rest;

import io.listwatch.server.cacher.CachedObject;
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
      r = r.withHeader("Warning", "299 - \"" + w.replace("\\", "\\\\").replace("\"", "\\\"") + "\"");
    }
    return r;
  }

  /** A response body. */
  public sealed interface Body permits JsonBytes, Value, ListBody, Text {
  }

  /** An object that is already JSON (a cached object's bytes). Shared; do not mutate. */
  public record JsonBytes(byte[] json) implements Body {
  }

  /** A value to serialize as JSON (an ObjectNode, a Map, a {@link io.listwatch.api.Status}, a record). */
  public record Value(Object value) implements Body {
  }

  /**
   * A list, {@code {"kind":..,"apiVersion":..,"metadata":{..},"items":[..]}}, to be assembled
   * around the cached bytes of its items without copying or re-serializing them.
   *
   * @param continueToken null when this is the last page
   * @param remainingItemCount null when unknown
   */
  public record ListBody(String kind, String apiVersion, long resourceVersion, String continueToken,
      Long remainingItemCount, List<CachedObject> items) implements Body {
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
