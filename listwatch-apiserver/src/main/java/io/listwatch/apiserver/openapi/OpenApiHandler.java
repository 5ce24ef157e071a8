package io.listwatch.apiserver.openapi;

import io.listwatch.api.Reasons;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.ApiResponse;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Answers {@code GET /openapi/v2}, {@code /openapi/v3} and {@code /openapi/v3/{api/v1|apis/g/v}}
 * from {@link OpenApiDocuments}, which it builds on first use and again only when the set of
 * served resources changes. Each answer has an {@code ETag}; a request whose
 * {@code If-None-Match} names it gets 304. A group-version document requested with its current
 * {@code ?hash=} (the index's links) is {@code Cache-Control: public, immutable}, as kube
 * serves it; anything else {@code no-cache, private}.
 *
 * <p>{@code /openapi/v2} is served as JSON, or as gnostic protobuf
 * ({@code application/com.github.proto-openapi.spec.v2@v1.0+protobuf}, {@link OpenApiV2Protobuf})
 * to clients that ask for it first in their Accept header, as kubectl and client-go do; a
 * request that accepts neither gets 406 NotAcceptable.
 *
 * <p>Thread-safe: the documents are immutable, built under this object's lock and published
 * through a volatile field.
 */
public final class OpenApiHandler {

  private static final String PREFIX = "/openapi/";

  private final Supplier<List<ResourceDefinition>> resources;
  private final ProtoSchemas schemas;
  private volatile Built built;

  private record Built(List<ResourceDefinition> resources, OpenApiDocuments documents) {
  }

  /** Serves the documents of {@code resources} (asked again on each request; cheap and stable). */
  public OpenApiHandler(Supplier<List<ResourceDefinition>> resources, ProtoSchemas schemas) {
    this.resources = resources;
    this.schemas = schemas;
  }

  /** Whether {@code path} is one of the OpenAPI endpoints. */
  public static boolean handles(String path) {
    return path.equals("/openapi/v2") || path.equals("/openapi/v3") || path.startsWith("/openapi/v3/");
  }

  /**
   * The documents for the resources served now: built on first use (about a second on a cold
   * JVM, a tenth of that warm) and again only when the resources change. Concurrent first
   * requests wait for one build.
   */
  public OpenApiDocuments documents() {
    List<ResourceDefinition> now = resources.get();
    Built b = built;
    if (b != null && b.resources().equals(now)) {
      return b.documents();
    }
    synchronized (this) {
      b = built;
      if (b == null || !b.resources().equals(now)) {
        b = new Built(List.copyOf(now), OpenApiDocuments.build(now, schemas));
        built = b;
      }
      return b.documents();
    }
  }

  /** Answers a request for one of the {@link #handles handled} paths. */
  public ApiResponse handle(ApiRequest request) {
    if (!ApiRequest.GET.equals(request.method())) {
      throw StatusException.methodNotAllowed();
    }
    String path = request.path();
    OpenApiDocuments docs = documents();
    OpenApiDocuments.Document doc;
    String contentType = "application/json";
    if (path.equals("/openapi/v2")) {
      String v2Type = v2MediaType(request.accept());
      if (v2Type == null) {
        throw new StatusException(Status.failure(406, Reasons.NOT_ACCEPTABLE,
            "only the following media types are accepted: application/json, " + OpenApiV2Protobuf.MEDIA_TYPE, null));
      }
      contentType = v2Type;
      doc = v2Type.equals(OpenApiV2Protobuf.CONTENT_TYPE) ? docs.v2Protobuf() : docs.v2();
    } else if (path.equals("/openapi/v3")) {
      doc = docs.v3Index();
    } else {
      doc = docs.v3(path.substring(PREFIX.length() + "v3/".length()))
          .orElseThrow(StatusException::pathNotFound);
    }
    // a group-version document asked for by its current hash never changes: cacheable for good
    String cacheControl = request.param("hash").equals(doc.hash()) ? "public, immutable" : "no-cache, private";
    String ifNoneMatch = request.header("If-None-Match");
    if (!ifNoneMatch.isEmpty() && (ifNoneMatch.equals(doc.etag()) || ifNoneMatch.equals("*"))) {
      return new ApiResponse(304, new ApiResponse.Text("", contentType))
          .withHeader("ETag", doc.etag()).withHeader("Cache-Control", cacheControl);
    }
    ApiResponse answer = contentType.equals("application/json") ? ApiResponse.okJson(doc.bytes())
        : new ApiResponse(200, new ApiResponse.Binary(doc.bytes(), contentType));
    return answer.withHeader("ETag", doc.etag()).withHeader("Cache-Control", cacheControl);
  }

  /**
   * The media type {@code /openapi/v2} is answered in for an Accept header: the first of its
   * ranges that admits JSON or gnostic protobuf (JSON when absent), or null when none does.
   */
  static String v2MediaType(String accept) {
    if (accept.isBlank()) {
      return "application/json";
    }
    for (String part : accept.split(",")) {
      int semi = part.indexOf(';');
      String type = (semi < 0 ? part : part.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
      if (type.equals(OpenApiV2Protobuf.MEDIA_TYPE) || type.equals(OpenApiV2Protobuf.CONTENT_TYPE)) {
        return OpenApiV2Protobuf.CONTENT_TYPE;
      }
      if (acceptsJson(type)) {
        return "application/json";
      }
    }
    return null;
  }

  /** Whether an Accept header admits JSON: absent, {@code *}/{@code *}, {@code application/*} or {@code application/json}. */
  static boolean acceptsJson(String accept) {
    if (accept.isBlank()) {
      return true;
    }
    for (String part : accept.split(",")) {
      int semi = part.indexOf(';');
      String type = (semi < 0 ? part : part.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
      if (type.equals("application/json") || type.equals("*/*") || type.equals("application/*")) {
        return true;
      }
    }
    return false;
  }
}
