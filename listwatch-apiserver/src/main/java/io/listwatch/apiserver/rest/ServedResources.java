package io.listwatch.apiserver.rest;

import io.listwatch.api.ListOptions;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.api.meta.NameGenerator;
import io.listwatch.apiserver.admission.AdmissionChain;
import io.listwatch.apiserver.admission.NamespaceLifecycle;
import io.listwatch.apiserver.admission.DefaultPlugins;
import io.listwatch.apiserver.cacher.Cacher;
import io.listwatch.apiserver.protobuf.KubeProtobuf;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.registry.ResourceRegistry;
import io.listwatch.apiserver.request.RequestInfo;
import io.listwatch.storage.Storage;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The catalogue of served resources (kube's installed API groups and their storage): for each
 * resource its {@link ResourceStore} and {@link ResourceHandler}, the handlers of subresources
 * and virtual resources, and the one {@link AdmissionChain} every store runs. Built once per
 * server with the built-in resources; custom resources are added and removed while it serves
 * ({@link #serve}, {@link #unserve}). {@link ApiRoutes} asks it which handler answers a request.
 *
 * <p>Thread-safe: serve and unserve are synchronized and publish a new registry through a
 * volatile field; handlers and stores are in concurrent maps, so a request sees a resource
 * either served or not (one removed meanwhile answers 404).
 */
public final class ServedResources {

  private static final ListOptions ANY_VERSION = ListOptions.parse(Map.of("resourceVersion", java.util.List.of("0")));

  /** The served resources: the built-ins, and custom resources as they are served ({@link #serve}). */
  private volatile ResourceRegistry registry;
  private final io.listwatch.apiserver.admission.Listers listers;
  private final Storage storage;
  private final ObjectMetaDefaults defaults;
  /** The admission plug-ins every store runs, in kube's order. */
  private final AdmissionChain admission;
  /** The server's authorizer, for the checks a handler makes beyond the request's own; set before serving. */
  private volatile io.listwatch.apiserver.admission.AdmissionAuthorizer authorizer =
      io.listwatch.apiserver.admission.AdmissionAuthorizer.ALLOW_ALL;
  /** The feature gates the handlers read; set before serving. */
  private volatile io.listwatch.apiserver.features.FeatureGates featureGates = io.listwatch.apiserver.features.FeatureGates.DEFAULTS;
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
  /**
   * Each cached namespace's state, read once: a cached object never changes (an update caches a
   * new one), so its state is kept while the cache holds it.
   */
  private final Map<io.listwatch.apiserver.cacher.CachedObject, NamespaceLifecycle.NamespaceState> namespaceStates =
      java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());
  /** "group/plural" of every namespaced resource: decides path shapes without a registry scan. */
  private final java.util.Set<String> namespacedResources = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /**
   * A store and a handler per stored resource of {@code registry}, over its cacher, with
   * {@code fieldValidation} read from {@code schemas}.
   */
  ServedResources(ResourceRegistry registry, Storage storage, Map<ResourceDefinition, Cacher> cachers, Clock clock,
      io.listwatch.apiserver.openapi.ProtoSchemas schemas) {
    this.registry = registry;
    this.storage = storage;
    ObjectMetaDefaults defaults = new ObjectMetaDefaults(clock, new NameGenerator());
    this.defaults = defaults;
    ResourceDefinition nsDef = registry.find("", "v1", "namespaces").orElseThrow();
    ResourceStore[] nsStore = new ResourceStore[1];
    // kinds are found in the registry served now and read through the cache of their store, so a
    // custom resource is readable as soon as it is served
    CacheListers listers = new CacheListers(cachers, () -> this.registry,
        def -> java.util.Optional.ofNullable(stores.get(def)).map(ResourceStore::cacher));
    this.listers = listers;
    AdmissionChain admission = DefaultPlugins.chain(listers, ns -> {
      var cached = cachers.get(nsDef).get("", ns, ANY_VERSION).join();
      if (cached.isPresent()) {
        return CompletableFuture.completedFuture(
            namespaceStates.computeIfAbsent(cached.get(), c -> namespaceState(c.json())));
      }
      // the cache may not have seen a namespace created a moment ago: ask storage
      return nsStore[0].getFromStorage("", ns).thenApply(kv -> kv.isEmpty() ? NamespaceLifecycle.NamespaceState.MISSING
          : namespaceState(kv.get().value()));
    }, new QuotaStatusAccess(() -> stores.get(registry.find("", "v1", "resourcequotas").orElseThrow()), clock),
        io.listwatch.apiserver.admission.webhook.AdmissionWebhooks.plugins(listers));
    for (ResourceDefinition def : registry.all()) {
      if (def.namespaced()) {
        namespacedResources.add(def.group() + "/" + def.plural());
      }
      if (!def.stored()) {
        continue;
      }
      ResourceStore store = new ResourceStore(def, storage, cachers.get(def), defaults, admission);
      stores.put(def, store);
      handlers.put(def, new ResourceHandler(store, this));
    }
    nsStore[0] = stores.get(nsDef);
    this.admission = admission;
    var validations = new io.listwatch.apiserver.openapi.FieldValidation.Catalog(schemas);
    handlers.forEach((def, handler) -> handler.fieldValidation(
        validations.forKind(def.group(), def.version(), def.kind())));
    registerSubresources();
  }

  /** The admission plug-ins every store runs. */
  public AdmissionChain admissionChain() {
    return admission;
  }

  /**
   * Gives the server's authorizer to the admission plug-ins that ask one and to the handlers
   * (an unsafe delete asks it for the verb {@code unsafe-delete-ignore-read-errors}); called
   * once, before the server serves. Until then every question is answered yes.
   */
  public void authorizer(io.listwatch.apiserver.admission.AdmissionAuthorizer authorizer) {
    this.authorizer = authorizer;
    admission.authorizer(authorizer);
  }

  io.listwatch.apiserver.admission.AdmissionAuthorizer authorizer() {
    return authorizer;
  }

  /** Sets the feature gates ({@code --feature-gates}); called before the server serves. */
  public void featureGates(io.listwatch.apiserver.features.FeatureGates gates) {
    this.featureGates = gates;
  }

  io.listwatch.apiserver.features.FeatureGates featureGates() {
    return featureGates;
  }

  /**
   * What the server's own components read of other objects: the watch caches of the built-in
   * resources, and (by definition) of any resource served now, custom resources included.
   */
  public io.listwatch.apiserver.admission.Listers listers() {
    return listers;
  }

  /** The resources served now. */
  public ResourceRegistry registry() {
    return registry;
  }

  /** Whether {@code group}/{@code resource} is namespaced (for parsing a request's path). */
  boolean namespaced(String group, String resource) {
    return namespacedResources.contains(group + "/" + resource);
  }

  private static NamespaceLifecycle.NamespaceState namespaceState(byte[] json) {
    return ResourceStore.parse(json).path("status").path("phase").asText("").equals("Terminating")
        ? NamespaceLifecycle.NamespaceState.TERMINATING : NamespaceLifecycle.NamespaceState.ACTIVE;
  }

  /**
   * The subresources the server serves itself: scale, a pod's binding and eviction, a namespace's
   * finalize. (A pod's {@code ephemeralcontainers}, a write of the pod itself with its own
   * strategy, is served by the pods' {@link ResourceHandler}, as {@code status} is.)
   */
  private void registerSubresources() {
    for (ResourceDefinition def : registry.all()) {
      if (def.subresources().containsKey("scale") && stores.containsKey(def)) {
        boolean rc = def.group().isEmpty() && def.plural().equals("replicationcontrollers");
        register(def, "scale",
            new ScaleHandler(stores.get(def), rc ? ScaleFields.replicationController() : ScaleFields.builtin()));
      }
    }
    ResourceDefinition namespaces = registry.find("", "v1", "namespaces").orElseThrow();
    register(namespaces, "finalize", new FinalizeHandler(stores.get(namespaces)));
    ResourceDefinition pods = registry.find("", "v1", "pods").orElseThrow();
    register(pods, "binding", new BindingHandler(stores.get(pods), false));
    registry.find("", "v1", "bindings").ifPresent(b -> register(b, "", new BindingHandler(stores.get(pods), true)));
    registry.find("", "v1", "componentstatuses").ifPresent(cs -> register(cs, "", new ComponentStatusHandler(cs, storage)));
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
    ResourceHandler handler = new ResourceHandler(store, this);
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
   * The handler of a request's subresource or virtual resource, if one was registered
   * ({@link #register}; a custom resource's scale), else null: its {@link ResourceHandler} serves it.
   */
  RestHandler subresourceHandler(RequestInfo info) {
    RestHandler handler = custom.get(info.group() + "/" + info.resource() + "/" + info.subresource());
    if (handler == null && info.subresource().equals("scale")) {
      handler = registry.find(info.group(), info.version(), info.resource()).map(customScales::get).orElse(null);
    }
    return handler;
  }

  ResourceHandler handlerFor(RequestInfo info) {
    ResourceDefinition def = registry.find(info.group(), info.version(), info.resource())
        .orElseThrow(StatusException::pathNotFound);
    ResourceHandler handler = handlers.get(def);
    if (handler == null) { // a virtual resource without a registered handler
      throw StatusException.pathNotFound();
    }
    return handler;
  }
}
