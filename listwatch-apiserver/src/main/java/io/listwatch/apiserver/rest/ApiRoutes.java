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
 * Decides which handler answers a request: health, version, discovery, or a resource's
 * {@link ResourceHandler}. Built once per server with the built-in resources; custom resources
 * are added and removed while it serves ({@link #serve}, {@link #unserve}).
 *
 * <p>Thread-safe: serve and unserve are synchronized and publish a new registry through a
 * volatile field; handlers and stores are in concurrent maps, so a request sees a resource
 * either served or not (one removed meanwhile answers 404).
 */
public final class ApiRoutes {

  /** What /version answers: kube 1.32's fields, all strings (strict clients require them). */
  private static final Map<String, String> VERSION = versionInfo();

  /** The served resources: the built-ins, and custom resources as they are served ({@link #serve}). */
  private volatile ResourceRegistry registry;
  private final Discovery discovery;
  private final Storage storage;
  private final ObjectMetaDefaults defaults;
  /** The admission plug-ins every store runs, in kube's order. */
  private final AdmissionChain admission;
  private final io.listwatch.apiserver.openapi.OpenApiHandler openapi;
  /** Makes the {@link WriteStrategy} of a custom resource {@link #serve} serves; none by default. */
  private volatile java.util.function.Function<ResourceDefinition, WriteStrategy> customResourceStrategies = d -> null;
  private final Map<ResourceDefinition, ResourceHandler> handlers = new java.util.concurrent.ConcurrentHashMap<>();
  private final Map<ResourceDefinition, ResourceStore> stores = new java.util.concurrent.ConcurrentHashMap<>();
  /** Handlers of virtual resources and extra subresources, by "group/plural/subresource". */
  private final Map<String, RestHandler> custom = new java.util.concurrent.ConcurrentHashMap<>();
  /**
   * The scale handlers of custom resources served now, by definition (their versions share a
   * plural, so they cannot share {@link #custom}'s key).
   */
  private final Map<ResourceDefinition, RestHandler> customScales = new java.util.concurrent.ConcurrentHashMap<>();
  /** Non-resource GET endpoints registered at start ({@code /metrics}), by path. */
  private final Map<String, java.util.function.Supplier<ApiResponse>> nonResourceGets =
      new java.util.concurrent.ConcurrentHashMap<>();
  /** "group/plural" of every namespaced resource: decides path shapes without a registry scan. */
  private final java.util.Set<String> namespacedResources = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private static final ListOptions ANY_VERSION = ListOptions.parse(Map.of("resourceVersion", java.util.List.of("0")));

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
    this.registry = registry;
    this.storage = storage;
    this.discovery = new Discovery(() -> this.registry);
    this.openapi = new io.listwatch.apiserver.openapi.OpenApiHandler(() -> this.registry.all(), schemas);
    ObjectMetaDefaults defaults = new ObjectMetaDefaults(clock, new NameGenerator());
    this.defaults = defaults;
    ResourceDefinition nsDef = registry.find("", "v1", "namespaces").orElseThrow();
    ResourceStore[] nsStore = new ResourceStore[1];
    AdmissionChain admission = AdmissionChain.of(java.util.List.of(new NamespaceLifecycle(ns -> {
      var cached = cachers.get(nsDef).get("", ns, ANY_VERSION).join();
      if (cached.isPresent()) {
        return CompletableFuture.completedFuture(namespaceState(cached.get().json()));
      }
      // the cache may not have seen a namespace created a moment ago: ask storage
      return nsStore[0].getFromStorage("", ns).thenApply(kv -> kv.isEmpty() ? NamespaceLifecycle.NamespaceState.MISSING
          : namespaceState(kv.get().value()));
    }), new ServiceAccount()));
    for (ResourceDefinition def : registry.all()) {
      if (def.namespaced()) {
        namespacedResources.add(def.group() + "/" + def.plural());
      }
      if (!def.stored()) {
        continue;
      }
      ResourceStore store = new ResourceStore(def, storage, cachers.get(def), defaults, admission);
      stores.put(def, store);
      handlers.put(def, new ResourceHandler(store));
    }
    nsStore[0] = stores.get(nsDef);
    this.admission = admission;
    var validations = new io.listwatch.apiserver.openapi.FieldValidation.Catalog(schemas);
    handlers.forEach((def, handler) -> handler.fieldValidation(
        validations.forKind(def.group(), def.version(), def.kind())));
    registerSubresources();
  }

  private static NamespaceLifecycle.NamespaceState namespaceState(byte[] json) {
    return ResourceStore.parse(json).path("status").path("phase").asText("").equals("Terminating")
        ? NamespaceLifecycle.NamespaceState.TERMINATING : NamespaceLifecycle.NamespaceState.ACTIVE;
  }

  /** The subresources the server serves itself: scale, a pod's binding and eviction, a namespace's finalize. */
  private void registerSubresources() {
    for (ResourceDefinition def : registry.all()) {
      if (def.subresources().containsKey("scale") && stores.containsKey(def)) {
        register(def, "scale", new ScaleHandler(stores.get(def), ScaleFields.builtin()));
      }
    }
    ResourceDefinition namespaces = registry.find("", "v1", "namespaces").orElseThrow();
    register(namespaces, "finalize", new FinalizeHandler(stores.get(namespaces)));
    ResourceDefinition pods = registry.find("", "v1", "pods").orElseThrow();
    register(pods, "binding", new BindingHandler(stores.get(pods)));
    registry.find("policy", "v1", "poddisruptionbudgets").ifPresent(pdbs ->
        register(pods, "eviction", new EvictionHandler(stores.get(pods), stores.get(pdbs))));
  }

  /**
   * Serves a virtual resource ({@code subresource} "") or a subresource other than status with
   * {@code handler}. Call before the server accepts requests.
   */
  public void register(ResourceDefinition def, String subresource, RestHandler handler) {
    if (subresource.isEmpty() ? def.stored() : !def.subresources().containsKey(subresource)) {
      throw new IllegalArgumentException(subresource.isEmpty()
          ? def + " is stored; its verbs are served by its ResourceHandler"
          : def + " declares no subresource " + subresource);
    }
    custom.put(def.group() + "/" + def.plural() + "/" + subresource, handler);
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
   * Whether a resource request names a resource (and subresource) this server serves; false
   * for non-resource requests.
   */
  public boolean serves(RequestInfo info) {
    if (!info.resourceRequest() || info.resource().isEmpty()) {
      return false;
    }
    return registry.find(info.group(), info.version(), info.resource())
        .filter(def -> info.subresource().isEmpty()
            || (info.subresource().equals("status") && def.hasStatus())
            || def.subresources().containsKey(info.subresource()))
        .isPresent();
  }

  /**
   * Serves a resource from now on (a custom resource whose definition was accepted): its
   * store over {@code cacher}, discovery, and every verb a stored resource has. Serving a
   * resource already served (by group, version and plural) replaces its definition. Its writes
   * pass {@code admissions} (in order) from the first request on.
   */
  public synchronized ResourceStore serve(ResourceDefinition def, io.listwatch.apiserver.cacher.Cacher cacher,
      java.util.List<WriteAdmission> admissions) {
    registry.find(def.group(), def.version(), def.plural()).ifPresent(this::unserve);
    ResourceStore store = new ResourceStore(def, storage, cacher, defaults, admission,
        def.customResource().isPresent() ? customResourceStrategies.apply(def) : null);
    stores.put(def, store);
    ResourceHandler handler = new ResourceHandler(store);
    admissions.forEach(handler::addAdmission);
    handlers.put(def, handler);
    if (def.subresources().containsKey("scale")) {
      def.customResource().ifPresent(cr -> customScales.put(def, new ScaleHandler(store, ScaleFields.custom(cr))));
    }
    if (def.namespaced()) {
      namespacedResources.add(def.group() + "/" + def.plural());
    }
    registry = registry.with(def);
    return store;
  }

  /**
   * How the resources {@link #serve} serves get their {@link WriteStrategy} (custom resources:
   * their schema's pruning, defaults and validation). Call before the server accepts requests.
   */
  public void customResourceStrategies(java.util.function.Function<ResourceDefinition, WriteStrategy> factory) {
    this.customResourceStrategies = java.util.Objects.requireNonNull(factory, "factory");
  }

  /** Stops serving a resource {@link #serve} served; its objects stay in storage. */
  public synchronized void unserve(ResourceDefinition def) {
    registry = registry.without(def);
    handlers.remove(def);
    stores.remove(def);
    customScales.remove(def);
    if (registry.all().stream().noneMatch(d -> d.group().equals(def.group()) && d.plural().equals(def.plural()))) {
      namespacedResources.remove(def.group() + "/" + def.plural());
    }
  }

  /**
   * Adds a check of a stored resource's writes (see {@link WriteAdmission}); checks run in the
   * order added. Call before the server accepts requests.
   */
  public void admission(ResourceDefinition def, WriteAdmission admission) {
    ResourceHandler handler = handlers.get(def);
    if (handler == null) {
      throw new IllegalArgumentException(def + " is not stored");
    }
    handler.addAdmission(admission);
  }

  /**
   * Whether the resource a request names has kube's protobuf form (a built-in kind; custom
   * resources are JSON only).
   */
  public boolean hasProtobuf(RequestInfo info) {
    return registry.find(info.group(), info.version(), info.resource())
        .filter(def -> KubeProtobuf.supports(def.apiVersion(), def.kind()))
        .isPresent();
  }

  /** The stores of every resource served now, built-in and custom (a snapshot). */
  public java.util.List<ResourceStore> stores() {
    return java.util.List.copyOf(stores.values());
  }

  /** The store of a resource, for in-process callers (startup, tests). */
  public ResourceStore store(ResourceDefinition def) {
    return stores.get(def);
  }

  /**
   * What a request means (kube's RequestInfoFactory, with this server's namespaced resources):
   * the filters authorize it, then {@link #handle} serves it.
   */
  public RequestInfo requestInfo(ApiRequest request) {
    return RequestInfo.parse(request.method(), request.path(), request.query(),
        (group, resource) -> namespacedResources.contains(group + "/" + resource));
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
    RestHandler handler = custom.get(info.group() + "/" + info.resource() + "/" + info.subresource());
    if (handler == null && info.subresource().equals("scale")) {
      handler = registry.find(info.group(), info.version(), info.resource()).map(customScales::get).orElse(null);
    }
    java.util.List<String> warnings = deprecationWarnings(info);
    ResourceHandler resourceHandler = handler != null ? null : handlerFor(info);
    checkNames(info);
    CompletableFuture<ApiResponse> answer = handler != null ? handler.handle(info, request)
        : resourceHandler.handle(info, request);
    return warnings.isEmpty() ? answer : answer.thenApply(r -> r.withWarnings(warnings));
  }

  /** kube's Warning for every request to a deprecated custom resource version; empty for others. */
  public java.util.List<String> deprecationWarnings(RequestInfo info) {
    return registry.find(info.group(), info.version(), info.resource())
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
   * Checks a watch request (unknown resource, bad options: thrown as StatusException before
   * any response is written) and returns how to start it.
   */
  private WatchStart watch(RequestInfo info, ApiRequest request) {
    if (!info.resourceRequest() || info.resource().isEmpty()) {
      throw StatusException.pathNotFound();
    }
    ResourceHandler handler = handlerFor(info);
    if (!info.name().isEmpty() || !info.subresource().isEmpty()) {
      throw StatusException.methodNotAllowed();
    }
    checkNames(info);
    ListOptions options = handler.listOptions(request);
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

  private ResourceHandler handlerFor(RequestInfo info) {
    ResourceDefinition def = registry.find(info.group(), info.version(), info.resource())
        .orElseThrow(StatusException::pathNotFound);
    ResourceHandler handler = handlers.get(def);
    if (handler == null) { // a virtual resource without a registered handler
      throw StatusException.pathNotFound();
    }
    return handler;
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
