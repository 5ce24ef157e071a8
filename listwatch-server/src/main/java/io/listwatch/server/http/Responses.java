package io.listwatch.server.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.cacher.CachedObject;
import io.listwatch.apiserver.flowcontrol.Rejection;
import io.listwatch.apiserver.protobuf.KubeProtobuf;
import io.listwatch.apiserver.request.ApiResponse;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.time.Instant;
import io.listwatch.apiserver.request.ApiRequest;

/**
 * Encodes what the REST layer answers ({@link ApiResponse}) and kube Status errors as HTTP
 * responses. Stateless (its one cached body, the 429 of {@link Rejection}, is immutable).
 */
public final class Responses {

  public static final ObjectMapper MAPPER = new ObjectMapper();
  /**
   * The 429 of API Priority and Fairness and of the in-flight limit, the same Status every time:
   * encoded once in JSON and once in protobuf, as a flood is refused thousands of times a second.
   * Never written to.
   */
  private static final Status TOO_MANY_REQUESTS = StatusException.tooManyRequests(Rejection.MESSAGE,
      Rejection.RETRY_AFTER_SECONDS).status();
  private static final byte[] TOO_MANY_REQUESTS_JSON = bytes(TOO_MANY_REQUESTS);
  private static final byte[] TOO_MANY_REQUESTS_PROTOBUF = KubeProtobuf.encode(TOO_MANY_REQUESTS_JSON);

  private Responses() {
  }

  /**
   * The HTTP response for a REST answer to {@code request}: objects of a resource (a GET or a
   * LIST) go out as a Table when the request asks for one (see {@link TableOptions}), anything
   * else as {@link #encode(ApiResponse)}. Bad Table options are a 400 Status.
   */
  public static FullHttpResponse encode(ApiResponse response, ApiRequest request) {
    if (response.body() instanceof ApiResponse.DiscoveryBody d) {
      return AggregatedDiscovery.encode(d, request);
    }
    if (!(response.body() instanceof ApiResponse.CachedBody) && !(response.body() instanceof ApiResponse.ListBody)) {
      return encode(response, Negotiation.prefersProtobuf(request.accept()));
    }
    Optional<TableOptions> table;
    try {
      table = TableOptions.negotiate(request);
    } catch (StatusException e) {
      return status(e);
    }
    if (table.isEmpty()) {
      return encode(response, Negotiation.prefersProtobuf(request.accept()));
    }
    HttpResponseStatus status = HttpResponseStatus.valueOf(response.code());
    Instant now = Instant.now();
    FullHttpResponse encoded = switch (response.body()) {
      case ApiResponse.CachedBody b -> json(status, Tables.table(b.resource().tableConvertor(), table.get(),
          Long.toString(b.object().resourceVersion()), null, null, List.of(Tables.parse(b.object().json())), true, now));
      case ApiResponse.ListBody l -> json(status, Tables.table(l.resource().tableConvertor(), table.get(),
          Long.toString(l.resourceVersion()), l.continueToken(), l.remainingItemCount(),
          l.items().stream().map(o -> Tables.parse(o.json())).toList(), true, now));
      default -> encode(response);
    };
    response.headers().forEach((name, values) -> encoded.headers().set(name, headerValues(name, values)));
    return encoded;
  }

  /**
   * The body of a list to stream in chunks rather than build whole, unless the request asks for
   * a Table: a JSON list ({@link ListChunks}), or a protobuf one ({@link ProtobufListChunks})
   * when the client prefers protobuf and the kind has a protobuf form (each item converted once
   * and kept in the watch cache, {@link CachedObject#protobuf}). Empty for every other answer,
   * which {@link #encode(ApiResponse, ApiRequest)} encodes.
   */
  static Optional<ListBodyChunks> streamedList(ApiResponse response, ApiRequest request) {
    if (!(response.body() instanceof ApiResponse.ListBody list)
        || TableOptions.tableVersion(request.accept()).isPresent()) {
      return Optional.empty();
    }
    if (!Negotiation.prefersProtobuf(request.accept())) {
      return Optional.of(new ListChunks(list));
    }
    if (!KubeProtobuf.supports(list.apiVersion(), list.kind())) {
      return Optional.of(new ListChunks(list)); // a custom resource: JSON
    }
    try {
      return Optional.of(new ProtobufListChunks(KubeProtobuf.listLayout(list.apiVersion(), list.kind(),
          list.resourceVersion(), list.continueToken(), list.remainingItemCount(),
          list.items().stream().map(CachedObject::protobuf).toList())));
    } catch (IllegalArgumentException e) {
      return Optional.of(new ListChunks(list)); // not expected for a built-in kind: JSON, decoded by Content-Type
    }
  }

  /**
   * Whether {@code response} is a list to be answered in protobuf ({@link #streamedList}) with
   * items whose protobuf form is not kept yet ({@link CachedObject#hasProtobuf}).
   */
  static boolean needsProtobufForms(ApiResponse response, ApiRequest request) {
    return response.body() instanceof ApiResponse.ListBody list
        && Negotiation.prefersProtobuf(request.accept())
        && TableOptions.tableVersion(request.accept()).isEmpty()
        && KubeProtobuf.supports(list.apiVersion(), list.kind())
        && list.items().stream().anyMatch(o -> !o.hasProtobuf());
  }

  /** Converts and keeps the protobuf form of each item of a list answer; returns the answer. */
  static ApiResponse convertProtobufForms(ApiResponse response) {
    if (response.body() instanceof ApiResponse.ListBody list) {
      for (CachedObject o : list.items()) {
        try {
          o.protobuf();
        } catch (IllegalArgumentException e) {
          return response; // not expected for a built-in kind: the answer falls back to JSON
        }
      }
    }
    return response;
  }

  /** The response head of a streamed list: its status, its media type, and its Content-Length. */
  static HttpResponse streamedListHead(ApiResponse response, ListBodyChunks chunks) {
    HttpResponse r = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(response.code()));
    r.headers().set(HttpHeaderNames.CONTENT_TYPE, chunks.contentType());
    if (chunks instanceof ProtobufListChunks) {
      r.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-cache, private"); // as every protobuf answer
    }
    r.headers().set(HttpHeaderNames.CONTENT_LENGTH, chunks.length());
    response.headers().forEach((name, values) -> r.headers().set(name, headerValues(name, values)));
    return r;
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
          case ApiResponse.CachedBody b -> KubeProtobuf.supports(b.resource().apiVersion(), b.resource().kind())
              ? b.object().protobuf() : null;
          case ApiResponse.DiscoveryBody d -> null;
          case ApiResponse.Value v -> KubeProtobuf.encodeIfSupported(bytes(v.value()));
          case ApiResponse.ListBody l -> KubeProtobuf.supports(l.apiVersion(), l.kind())
              ? KubeProtobuf.encodeList(l.apiVersion(), l.kind(), l.resourceVersion(), l.continueToken(),
                  l.remainingItemCount(), l.items().stream().map(CachedObject::protobuf).toList())
              : null;
          case ApiResponse.Text t -> null;
          case ApiResponse.Binary b -> null;
          case io.listwatch.apiserver.request.WatchStart w -> throw new IllegalStateException("a watch is streamed");
        };
        if (body != null) {
          FullHttpResponse encoded = protobuf(status, body);
          response.headers().forEach((name, values) -> encoded.headers().set(name, headerValues(name, values)));
          return encoded;
        }
      } catch (IllegalArgumentException e) {
        // not expected for a built-in kind: answer JSON, which every client decodes by Content-Type
      }
    }
    return encode(response);
  }

  /** A protobuf response ({@link KubeProtobuf#MEDIA_TYPE}). */
  public static FullHttpResponse protobuf(HttpResponseStatus status, byte[] body) {
    return protobuf(status, Unpooled.wrappedBuffer(body));
  }

  private static FullHttpResponse protobuf(HttpResponseStatus status, ByteBuf body) {
    FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
    r.headers().set(HttpHeaderNames.CONTENT_TYPE, KubeProtobuf.MEDIA_TYPE);
    r.headers().set(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
    r.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-cache, private");
    return r;
  }

  /** The HTTP response for a REST answer, as JSON ({@link ApiResponse#jsonParts()}), or its text or bytes. */
  public static FullHttpResponse encode(ApiResponse response) {
    HttpResponseStatus status = HttpResponseStatus.valueOf(response.code());
    FullHttpResponse encoded = response.jsonParts()
        .map(parts -> json(status, Unpooled.wrappedBuffer(parts.length, parts)))
        .orElseGet(() -> switch (response.body()) {
          case ApiResponse.Text t -> text(status, t.text(), t.contentType());
          case ApiResponse.Binary b -> binary(status, b.bytes(), b.contentType());
          default -> throw new IllegalStateException("a JSON body without JSON: " + response.body());
        });
    response.headers().forEach((name, values) -> encoded.headers().set(name, headerValues(name, values)));
    return encoded;
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

  private static ByteBuf statusJson(Status s) {
    return s.equals(TOO_MANY_REQUESTS) ? Unpooled.wrappedBuffer(TOO_MANY_REQUESTS_JSON).asReadOnly()
        : Unpooled.wrappedBuffer(bytes(s));
  }

  /** The kube Status of an error, with its HTTP code (and Retry-After when it carries one). */
  public static FullHttpResponse status(StatusException e) {
    Status s = e.status();
    FullHttpResponse r = json(HttpResponseStatus.valueOf(s.code()), statusJson(s));
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
    FullHttpResponse r = protobuf(HttpResponseStatus.valueOf(s.code()), s.equals(TOO_MANY_REQUESTS)
        ? Unpooled.wrappedBuffer(TOO_MANY_REQUESTS_PROTOBUF).asReadOnly()
        : Unpooled.wrappedBuffer(KubeProtobuf.encode(bytes(s))));
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

  /** A response of the given content type whose body is {@code body} as it is (not copied). */
  public static FullHttpResponse binary(HttpResponseStatus status, byte[] body, String contentType) {
    FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
    r.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
    r.headers().set(HttpHeaderNames.CONTENT_LENGTH, body.length);
    return r;
  }

  /** A list body (see {@link ApiResponse.ListBody#jsonParts()}), as one buffer over its parts. */
  public static ByteBuf list(ApiResponse.ListBody list) {
    byte[][] parts = list.jsonParts();
    return Unpooled.wrappedBuffer(parts.length, parts);
  }

  /** {@code value} as JSON ({@link ApiResponse#json}). */
  public static byte[] bytes(Object value) {
    return ApiResponse.json(value);
  }

  /** A response header's values as sent: {@code Warning}s bounded as kube bounds them. */
  private static java.util.List<String> headerValues(String name, java.util.List<String> values) {
    return name.equalsIgnoreCase("Warning") ? io.listwatch.apiserver.request.WarningHeaders.bounded(values) : values;
  }
}
