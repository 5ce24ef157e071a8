package io.listwatch.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.server.cacher.CachedObject;
import io.listwatch.server.protobuf.KubeProtobuf;
import io.listwatch.server.rest.ApiResponse;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes what the REST layer answers ({@link ApiResponse}) and kube Status errors as HTTP
 * responses. Stateless.
 */
public final class Responses {

  public static final ObjectMapper MAPPER = new ObjectMapper();

  private Responses() {
  }

  /**
   * The HTTP response for a REST answer, in kube's protobuf when {@code protobuf} and the
   * object's (or list's) kind has a protobuf form, else as {@link #encode(ApiResponse)}.
   */
  public static FullHttpResponse encode(ApiResponse response, boolean protobuf) {
    if (protobuf) {
      HttpResponseStatus status = HttpResponseStatus.valueOf(response.code());
      try {
        byte[] body = switch (response.body()) {
          case ApiResponse.JsonBytes b -> KubeProtobuf.encodeIfSupported(b.json());
          case ApiResponse.Value v -> KubeProtobuf.encodeIfSupported(bytes(v.value()));
          case ApiResponse.ListBody l -> KubeProtobuf.supports(l.apiVersion(), l.kind())
              ? KubeProtobuf.encodeList(l.apiVersion(), l.kind(), l.kind().substring(0, l.kind().length() - 4),
                  l.resourceVersion(), l.continueToken(), l.remainingItemCount(),
                  l.items().stream().map(CachedObject::json).toList())
              : null;
          case ApiResponse.Text t -> null;
        };
        if (body != null) {
          return protobuf(status, body);
        }
      } catch (IllegalArgumentException e) {
        // not expected for a built-in kind: answer JSON, which every client decodes by Content-Type
      }
    }
    return encode(response);
  }

  /** A protobuf response ({@link KubeProtobuf#MEDIA_TYPE}). */
  public static FullHttpResponse protobuf(HttpResponseStatus status, byte[] body) {
    FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
    r.headers().set(HttpHeaderNames.CONTENT_TYPE, KubeProtobuf.MEDIA_TYPE);
    r.headers().set(HttpHeaderNames.CONTENT_LENGTH, body.length);
    r.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-cache, private");
    return r;
  }

  /** The HTTP response for a REST answer. */
  public static FullHttpResponse encode(ApiResponse response) {
    HttpResponseStatus status = HttpResponseStatus.valueOf(response.code());
    return switch (response.body()) {
      case ApiResponse.JsonBytes b -> json(status, b.json());
      case ApiResponse.Value v -> json(status, bytes(v.value()));
      case ApiResponse.ListBody l -> json(status,
          list(l.kind(), l.apiVersion(), l.resourceVersion(), l.continueToken(), l.remainingItemCount(), l.items()));
      case ApiResponse.Text t -> text(status, t.text(), t.contentType());
    };
  }

  /** A JSON response. */
  public static FullHttpResponse json(HttpResponseStatus status, ByteBuf body) {
    FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
    r.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
    r.headers().set(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
    r.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-cache, private");
    return r;
  }

  public static FullHttpResponse json(HttpResponseStatus status, byte[] body) {
    return json(status, Unpooled.wrappedBuffer(body));
  }

  /** The kube Status of an error, with its HTTP code (and Retry-After when it carries one). */
  public static FullHttpResponse status(StatusException e) {
    Status s = e.status();
    FullHttpResponse r = json(HttpResponseStatus.valueOf(s.code()), bytes(s));
    if (s.details() != null && s.details().retryAfterSeconds() != null) {
      r.headers().set(HttpHeaderNames.RETRY_AFTER, s.details().retryAfterSeconds());
    }
    return r;
  }

  /** The kube Status of an error, in protobuf when {@code protobuf} (kube's Status message). */
  public static FullHttpResponse status(StatusException e, boolean protobuf) {
    if (!protobuf) {
      return status(e);
    }
    Status s = e.status();
    FullHttpResponse r = protobuf(HttpResponseStatus.valueOf(s.code()), KubeProtobuf.encode(bytes(s)));
    if (s.details() != null && s.details().retryAfterSeconds() != null) {
      r.headers().set(HttpHeaderNames.RETRY_AFTER, s.details().retryAfterSeconds());
    }
    return r;
  }

  public static FullHttpResponse text(HttpResponseStatus status, String body) {
    return text(status, body, "text/plain; charset=utf-8");
  }

  /** A text response of the given content type (UTF-8). */
  public static FullHttpResponse text(HttpResponseStatus status, String body, String contentType) {
    FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
        Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
    r.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
    r.headers().set(HttpHeaderNames.CONTENT_LENGTH, r.content().readableBytes());
    return r;
  }

  /**
   * A list body, {@code {"kind":..,"apiVersion":..,"metadata":{..},"items":[..]}}, assembled
   * around the cached bytes without copying or re-serializing them.
   */
  public static ByteBuf list(String kind, String apiVersion, long resourceVersion, String continueToken,
      Long remainingItemCount, List<CachedObject> items) {
    StringBuilder head = new StringBuilder(128)
        .append("{\"kind\":\"").append(kind).append("\",\"apiVersion\":\"").append(apiVersion)
        .append("\",\"metadata\":{\"resourceVersion\":\"").append(resourceVersion).append('"');
    if (continueToken != null) {
      head.append(",\"continue\":\"").append(continueToken).append('"');
    }
    if (remainingItemCount != null) {
      head.append(",\"remainingItemCount\":").append(remainingItemCount);
    }
    head.append("},\"items\":[");
    List<byte[]> parts = new ArrayList<>(items.size() * 2 + 2);
    parts.add(head.toString().getBytes(StandardCharsets.UTF_8));
    byte[] comma = {','};
    for (int i = 0; i < items.size(); i++) {
      if (i > 0) {
        parts.add(comma);
      }
      parts.add(items.get(i).json());
    }
    parts.add(new byte[] {']', '}'});
    return Unpooled.wrappedBuffer(parts.size(), parts.toArray(new byte[0][]));
  }

  public static byte[] bytes(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize " + value.getClass(), e);
    }
  }
}
