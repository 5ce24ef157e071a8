package io.listwatch.apiserver.rest;

import io.listwatch.apiserver.request.ApiResponse;
import io.listwatch.apiserver.admission.AdmissionChain;
import io.listwatch.apiserver.admission.NamespaceLifecycle;
import io.listwatch.apiserver.admission.ServiceAccount;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.ListOptions;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.cacher.Cacher;
import io.listwatch.apiserver.protobuf.KubeProtobuf;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.WatchStart;
import io.listwatch.apiserver.request.RequestInfo;
import io.listwatch.apiserver.registry.ResourceRegistry;
import io.listwatch.api.meta.NameGenerator;
import io.listwatch.storage.Storage;
import io.listwatch.api.clock.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The router: what a request means ({@link #requestInfo}) and which handler answers it
 * ({@link #handle}, every verb, a watch included): health, version, discovery, OpenAPI, a
 * registered non-resource GET, or the handler the {@link ServedResources} catalogue has for the
 * resource. Thread-safe (the catalogue is, and the rest is fixed once requests are served).
 */
public final class ApiRoutes {

  /** What /version answers: kube 1.32's fields, all strings (strict clients require them). */
  private static final Map<String, String> VERSION = versionInfo();

  /** The resources served, their stores and handlers. */
  private final ServedResources resources;
  private final Discovery discovery;
  private final io.listwatch.apiserver.openapi.OpenApiHandler openapi;
  private final io.listwatch.apiserver.openapi.ProtoSchemas schemas;
  /** Non-resource GET endpoints registered at start ({@code /metrics}), by path. */
  private final Map<String, java.util.function.Supplier<ApiResponse>> nonResourceGets =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** Builds the routes and a {@link ResourceStore} per resource over the given cachers. */
  public ApiRoutes(ResourceRegistry registry, Storage storage, Map<ResourceDefinition, Cacher> cachers, Clock clock) {
    this(registry, storage, cachers, clock, io.listwatch.apiserver.openapi.ProtoSchemas.builtins(
        io.listwatch.apiserver.openapi.PatchMetadata.builtins()));
  }

  /**
   * Builds the routes over {@code schemas}: the OpenAPI documents and the {@code fieldValidation}
   * of built-in kinds read them.
   */
  public ApiRoutes(ResourceRegistry registry, Storage storage, Map<ResourceDefinition, Cacher> cachers, Clock clock,
      io.listwatch.apiserver.openapi.ProtoSchemas schemas) {
    this.schemas = schemas;
    this.resources = new ServedResources(registry, storage, cachers, clock, schemas);
    this.discovery = new Discovery(resources::registry, () -> aggregatedApis);
    this.openapi = new io.listwatch.apiserver.openapi.OpenApiHandler(() -> resources.registry().all(), schemas);
  }

  /** The group-versions served by other servers behind this one (kube's aggregator). */
  private volatile AggregatedApis aggregatedApis = AggregatedApis.NONE;

  /** Serves {@code apis}' group-versions through this server (discovery; the transport proxies). */
  public void aggregatedApis(AggregatedApis apis) {
    this.aggregatedApis = java.util.Objects.requireNonNull(apis);
  }

  /**
   * Where the transport proxies {@code request} to, or empty when these routes answer it; ask
   * after authorization.
   *
   * @throws StatusException 503 when the request's aggregated API is unavailable
   */
  public java.util.Optional<AggregatedApis.ProxyTarget> proxyTarget(ApiRequest request) {
    return aggregatedApis.route(request);
  }

  /** The catalogue of served resources the routes dispatch to. */
  public ServedResources resources() {
    return resources;
  }

  /** The built-in kinds' schemas these routes publish and validate with. */
  public io.listwatch.apiserver.openapi.ProtoSchemas schemas() {
    return schemas;
  }

  /**
   * Serves GET {@code path} (a non-resource URL such as {@code /metrics}) with {@code handler}.
   * Authorization is the filters' (kube's nonResourceURLs rules). Call before the server
   * accepts requests.
   */
  public void registerNonResource(String path, java.util.function.Supplier<ApiResponse> handler) {
    nonResourceGets.put(path, java.util.Objects.requireNonNull(handler));
  }

  /**
   * What a request means (kube's RequestInfoFactory, with this server's namespaced resources):
   * the filters authorize it, then {@link #handle} serves it.
   */
  public RequestInfo requestInfo(ApiRequest request) {
    return RequestInfo.parse(request.method(), request.path(), request.query(),
        resources::namespaced);
  }

  /**
   * Answers a request; a watch is answered with a {@link WatchStart} body once its request and
   * options are checked, which the transport begins after writing the response head. Failures
   * are StatusExceptions (thrown or in the future).
   */
  public CompletableFuture<ApiResponse> handle(RequestInfo info, ApiRequest request) {
    if (request.isWatch()) {
      return CompletableFuture.completedFuture(new ApiResponse(200, watch(info, request)));
    }
    String path = request.path();
    if (!info.resourceRequest()) {
      return done(nonResource(path, request));
    }
    if (info.resource().isEmpty()) {
      throw StatusException.pathNotFound();
    }
    RestHandler handler = resources.subresourceHandler(info);
    java.util.List<String> warnings = deprecationWarnings(info);
    ResourceHandler resourceHandler = handler != null ? null : resources.handlerFor(info);
    checkNames(info);
    CompletableFuture<ApiResponse> answer = handler != null ? handler.handle(info, request)
        : resourceHandler.handle(info, request);
    return warnings.isEmpty() ? answer : answer.thenApply(r -> r.withWarnings(warnings));
  }

  /** kube's Warning for every request to a deprecated custom resource version; empty for others. */
  public java.util.List<String> deprecationWarnings(RequestInfo info) {
    return resources.registry().find(info.group(), info.version(), info.resource())
        .flatMap(ResourceDefinition::customResource)
        .flatMap(io.listwatch.apiserver.registry.CustomResourceVersion::deprecationWarning)
        .map(java.util.List::of).orElse(java.util.List.of());
  }

  private ApiResponse nonResource(String path, ApiRequest request) {
    switch (path) {
      case "/healthz", "/livez", "/readyz" -> {
        return ApiResponse.okText(request.query().containsKey("verbose")
            ? "[+]ping ok\n[+]storage ok\n" + path.substring(1) + " check passed\n" : "ok");
      }
      // the generated clients ask for /version/, /api/ and /apis/ (the paths in kube's OpenAPI)
      case "/version", "/version/" -> {
        return ApiResponse.ok(VERSION);
      }
      case "/api", "/api/" -> {
        return new ApiResponse(200, new ApiResponse.DiscoveryBody(discovery.apiVersions(request.host()),
            apiVersion -> discovery.aggregated(true, apiVersion)));
      }
      case "/apis", "/apis/" -> {
        return new ApiResponse(200, new ApiResponse.DiscoveryBody(discovery.apiGroupList(),
            apiVersion -> discovery.aggregated(false, apiVersion)));
      }
      case "/openapi/v3" -> {
        return withAggregatedOpenApi(openapi.handle(request));
      }
      case String p when io.listwatch.apiserver.openapi.OpenApiHandler.handles(p) -> {
        return openapi.handle(request);
      }
      default -> {
        java.util.function.Supplier<ApiResponse> registered = nonResourceGets.get(path);
        if (registered != null) {
          if (!ApiRequest.GET.equals(request.method())) {
            throw StatusException.methodNotAllowed();
          }
          return registered.get();
        }
      }
    }
    if (path.startsWith("/livez/") || path.startsWith("/readyz/") || path.startsWith("/healthz/")) {
      return ApiResponse.okText("ok");
    }
    // a group-version root: /api/v1 or /apis/{group}/{version}
    String[] s = java.util.Arrays.stream(path.split("/")).filter(x -> !x.isEmpty()).toArray(String[]::new);
    String group;
    String version;
    if (s.length == 2 && s[0].equals("api")) {
      group = "";
      version = s[1];
    } else if (s.length == 3 && s[0].equals("apis")) {
      group = s[1];
      version = s[2];
    } else {
      throw StatusException.pathNotFound();
    }
    if (!ApiRequest.GET.equals(request.method())) {
      throw StatusException.methodNotAllowed();
    }
    Map<String, Object> list = discovery.apiResourceList(group, version);
    if (list == null) {
      throw StatusException.pathNotFound();
    }
    return ApiResponse.ok(list);
  }

  /**
   * The OpenAPI v3 index with the available aggregated group-versions added, each linked to its
   * document (which the transport proxies to its server); the index as it is without them.
   */
  private ApiResponse withAggregatedOpenApi(ApiResponse index) {
    java.util.List<AggregatedApis.RemoteGroupVersion> remote = aggregatedApis.groupVersions().stream()
        .filter(AggregatedApis.RemoteGroupVersion::available).toList();
    if (remote.isEmpty() || index.code() != 200 || index.jsonParts().isEmpty()) {
      return index;
    }
    try {
      java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
      for (byte[] part : index.jsonParts().get()) {
        bytes.writeBytes(part);
      }
      ObjectNode doc = (ObjectNode) ResourceStore.MAPPER.readTree(bytes.toByteArray());
      ObjectNode paths = doc.with("paths");
      for (AggregatedApis.RemoteGroupVersion gv : remote) {
        String key = "apis/" + gv.group() + "/" + gv.version();
        if (!paths.has(key)) {
          paths.putObject(key).put("serverRelativeURL", "/openapi/v3/" + key);
        }
      }
      return ApiResponse.okJson(ResourceStore.MAPPER.writeValueAsBytes(doc))
          .withHeader("Cache-Control", "no-cache, private");
    } catch (java.io.IOException e) {
      return index;
    }
  }

  /**
   * Checks a watch request (unknown resource, bad options: thrown as StatusException before
   * any response is written) and returns how to start it.
   */
  private WatchStart watch(RequestInfo info, ApiRequest request) {
    if (!info.resourceRequest() || info.resource().isEmpty()) {
      throw StatusException.pathNotFound();
    }
    if (info.subresource().isEmpty() && resources.subresourceHandler(info) != null) {
      throw StatusException.methodNotAllowed(); // a virtual resource (bindings, componentstatuses) has no watch
    }
    ResourceHandler handler = resources.handlerFor(info);
    if (!info.name().isEmpty() || !info.subresource().isEmpty()) {
      throw StatusException.methodNotAllowed();
    }
    checkNames(info);
    ListOptions options = handler.listOptions(request);
    if (!handler.acceptsWatches()) {
      // kube answers 503 before streaming; an ERROR event after a 200 breaks some clients' loops
      throw StatusException.unavailable("the server is shutting down");
    }
    return new WatchStart(handler.resource(), sink -> handler.watch(info, options, sink));
  }

  /**
   * The name and namespace of a request's path, as kube's key functions take them: a name
   * that cannot be one path segment is 400 ({@code Name parameter invalid: "a%2F": may not
   * contain '%'}); a name or namespace with a NUL cannot be stored (every stored name is
   * validated), so nothing is there: 404, as etcd answers kube for such a key.
   */
  private void checkNames(RequestInfo info) {
    String name = info.name();
    if (!name.isEmpty()) {
      java.util.List<String> problems = io.listwatch.api.validation.NameSyntax.isValidPathSegmentName(name);
      if (!problems.isEmpty()) {
        throw StatusException.badRequest("Name parameter invalid: " + io.listwatch.api.Strconv.quote(name) + ": "
            + String.join(";", problems));
      }
    }
    if (info.namespace().indexOf('\0') >= 0) {
      throw StatusException.notFound("", "namespaces", info.namespace());
    }
    if (name.indexOf('\0') >= 0) {
      throw StatusException.notFound(info.group(), info.resource(), name);
    }
  }

  private static CompletableFuture<ApiResponse> done(ApiResponse r) {
    return CompletableFuture.completedFuture(r);
  }

  private static Map<String, String> versionInfo() {
    Map<String, String> v = new LinkedHashMap<>();
    v.put("major", "1");
    v.put("minor", "32");
    v.put("gitVersion", "v1.32.0");
    v.put("gitCommit", "0000000000000000000000000000000000000000");
    v.put("gitTreeState", "clean");
    v.put("buildDate", "2026-11-01T00:00:00Z");
    v.put("goVersion", "go1.23.4");
    v.put("compiler", "gc");
    v.put("platform", "linux/amd64");
    return java.util.Collections.unmodifiableMap(v);
  }
}
