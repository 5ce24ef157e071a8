package io.listwatch.server.rest;

import io.listwatch.api.ListOptions;
import io.listwatch.api.StatusException;
import io.listwatch.server.cacher.CacheWatcher;
import io.listwatch.server.cacher.Cacher;
import io.listwatch.server.cacher.WatchSink;
import io.listwatch.server.http.RequestInfo;
import io.listwatch.server.http.Responses;
import io.listwatch.server.registry.ResourceDefinition;
import io.listwatch.server.registry.ResourceRegistry;
import io.listwatch.server.validation.NameGenerator;
import io.listwatch.storage.Storage;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Decides which handler answers a request: health, version, discovery, or a resource's
 * {@link ResourceHandler}. Built once per server; thread-safe.
 */
public final class ApiRoutes {

  /** What /version answers: kube 1.32's fields, all strings (strict clients require them). */
  private static final Map<String, String> VERSION = versionInfo();

  private final ResourceRegistry registry;
  private final Discovery discovery;
  private final Map<ResourceDefinition, ResourceHandler> handlers = new HashMap<>();
  private final Map<ResourceDefinition, ResourceStore> stores = new HashMap<>();
  /** "group/plural" of every namespaced resource: decides path shapes without a registry scan. */
  private final java.util.Set<String> namespacedResources = new java.util.HashSet<>();
  private static final ListOptions ANY_VERSION = ListOptions.parse(Map.of("resourceVersion", java.util.List.of("0")));

  /** Builds the routes and a {@link ResourceStore} per resource over the given cachers. */
  public ApiRoutes(ResourceRegistry registry, Storage storage, Map<ResourceDefinition, Cacher> cachers, Clock clock) {
    this.registry = registry;
    this.discovery = new Discovery(registry);
    ObjectMetaDefaults defaults = new ObjectMetaDefaults(clock, new NameGenerator());
    ResourceDefinition nsDef = registry.find("", "v1", "namespaces").orElseThrow();
    ResourceStore[] nsStore = new ResourceStore[1];
    ResourceStore.NamespaceCheck namespaces = ns -> {
      if (cachers.get(nsDef).get("", ns, ANY_VERSION).join().isPresent()) {
        return CompletableFuture.completedFuture(true);
      }
      // the cache may not have seen a namespace created a moment ago: ask storage
      return nsStore[0].getFromStorage("", ns).thenApply(java.util.Optional::isPresent);
    };
    for (ResourceDefinition def : registry.all()) {
      if (def.namespaced()) {
        namespacedResources.add(def.group() + "/" + def.plural());
      }
      ResourceStore store = new ResourceStore(def, storage, cachers.get(def), defaults, namespaces);
      stores.put(def, store);
      handlers.put(def, new ResourceHandler(store));
    }
    nsStore[0] = stores.get(nsDef);
  }

  /** The store of a resource, for in-process callers (startup, tests). */
  public ResourceStore store(ResourceDefinition def) {
    return stores.get(def);
  }

  /** Answers a non-watch request. Failures are StatusExceptions (thrown or in the future). */
  public CompletableFuture<FullHttpResponse> handle(ApiRequest request) {
    String path = request.path();
    switch (path) {
      case "/healthz", "/livez", "/readyz" -> {
        return done(Responses.text(HttpResponseStatus.OK, request.query().containsKey("verbose")
            ? "[+]ping ok\n[+]storage ok\n" + path.substring(1) + " check passed\n" : "ok"));
      }
      case "/version" -> {
        return done(Responses.json(HttpResponseStatus.OK, VERSION));
      }
      case "/api" -> {
        return done(Responses.json(HttpResponseStatus.OK, discovery.apiVersions(request.host())));
      }
      case "/apis" -> {
        return done(Responses.json(HttpResponseStatus.OK, discovery.apiGroupList()));
      }
      default -> {
        // fall through to API paths
      }
    }
    if (path.startsWith("/livez/") || path.startsWith("/readyz/") || path.startsWith("/healthz/")) {
      return done(Responses.text(HttpResponseStatus.OK, "ok"));
    }
    RequestInfo info = parse(path);
    if (info.resource().isEmpty()) {
      if (!HttpMethod.GET.equals(request.method())) {
        throw StatusException.methodNotAllowed();
      }
      Map<String, Object> list = discovery.apiResourceList(info.group(), info.version());
      if (list == null) {
        throw StatusException.pathNotFound();
      }
      return done(Responses.json(HttpResponseStatus.OK, list));
    }
    return handlerFor(info).handle(info, request);
  }

  /** A watch about to start: the response head is written, then {@link #start} is called. */
  @FunctionalInterface
  public interface WatchStart {
    CompletableFuture<CacheWatcher> start(WatchSink sink);
  }

  /**
   * Checks a watch request (unknown resource, bad options: thrown as StatusException before
   * any response is written) and returns how to start it.
   */
  public WatchStart prepareWatch(ApiRequest request) {
    RequestInfo info = parse(request.path());
    ResourceHandler handler = handlerFor(info);
    if (!info.name().isEmpty() || !info.subresource().isEmpty()) {
      throw StatusException.methodNotAllowed();
    }
    ListOptions options = handler.listOptions(request);
    return sink -> handler.watch(info, options, sink);
  }

  private RequestInfo parse(String path) {
    RequestInfo info = RequestInfo.parse(path,
        (group, resource) -> namespacedResources.contains(group + "/" + resource));
    if (info == null) {
      throw StatusException.pathNotFound();
    }
    return info;
  }

  private ResourceHandler handlerFor(RequestInfo info) {
    ResourceDefinition def = registry.find(info.group(), info.version(), info.resource())
        .orElseThrow(StatusException::pathNotFound);
    return handlers.get(def);
  }

  private static CompletableFuture<FullHttpResponse> done(FullHttpResponse r) {
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
