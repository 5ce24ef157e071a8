package io.listwatch.apiserver;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.apiserver.allocation.NodePortRange;
import io.listwatch.apiserver.allocation.Repair;
import io.listwatch.apiserver.allocation.ServiceAllocator;
import io.listwatch.apiserver.allocation.ServiceIpRange;
import io.listwatch.apiserver.apiextensions.CustomResourceDefinitionController;
import io.listwatch.apiserver.controlplane.KubernetesServiceReconciler;
import io.listwatch.apiserver.apiextensions.CustomResourceDefinitionValidation;
import io.listwatch.apiserver.apiextensions.CustomResourceServing;
import io.listwatch.apiserver.apiextensions.CustomResourceStrategy;
import io.listwatch.apiserver.cacher.Cacher;
import io.listwatch.apiserver.cacher.CacherConfig;
import io.listwatch.apiserver.controller.ControllerQueue;
import io.listwatch.apiserver.controller.ServiceAccountsController;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.registry.ResourceRegistry;
import io.listwatch.apiserver.rest.ApiRoutes;
import io.listwatch.apiserver.rest.ResourceStore;
import io.listwatch.apiserver.strategy.MandatoryFlowcontrolConfiguration;
import io.listwatch.storage.Storage;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * kube-apiserver's API machinery assembled over one {@link Storage}, without any transport
 * (kube's {@code GenericAPIServer} before it is run on a socket): the catalogue of built-in
 * resources, a watch cache per stored resource, the routes that answer an
 * {@link io.listwatch.apiserver.request.ApiRequest}, the admission of custom resource
 * definitions, and, once started, the custom resources they declare.
 *
 * <p>The network server wraps one with its transports and security; a test can drive one
 * in memory (a {@code MemoryStorage} and a {@code FakeClock}).
 *
 * <h2>Lifecycle</h2>
 * {@link Builder#build()} fills every watch cache from storage (blocking) and builds the routes:
 * requests can be answered from then on, and a front door may add its own routes and
 * admission. {@link #start} then creates the namespaces kube always has (each with its default
 * ServiceAccount), repairs the Service ranges, starts the service accounts controller, starts
 * serving custom resources, starts the resource quota controller (which keeps ResourceQuotas'
 * status, see {@code controller.ResourceQuotaController}) and resumes the grace periods of
 * objects being deleted. {@link #close()} ends every watch, stops those controllers and closes
 * the caches; the storage stays open (its owner closes it).
 *
 * <p>Thread-safe after {@code build}; {@code start} and {@code close} are called once each.
 */
public final class GenericApiServer implements AutoCloseable {

  /** kube's system namespaces; kube-node-lease holds the nodes' heartbeat Leases. */
  public static final List<String> INITIAL_NAMESPACES =
      List.of("default", "kube-system", "kube-public", "kube-node-lease");

  private final ResourceRegistry registry;
  private final Storage storage;
  private final CacherConfig cacherConfig;
  private final Clock clock;
  private final Map<ResourceDefinition, Cacher> cachers = new LinkedHashMap<>();
  private final ApiRoutes routes;
  private volatile CustomResourceServing customResources;
  private volatile CustomResourceDefinitionController crdController;
  private volatile io.listwatch.apiserver.controller.ResourceQuotaController quotaController;
  /** The services store's cluster IP and node port allocation; null when Services are not served. */
  private final ServiceAllocator serviceAllocator;
  private volatile io.listwatch.api.clock.Clock.Cancellable repairTimer;
  private volatile KubernetesServiceReconciler kubernetesService;
  private volatile boolean closed;
  private volatile ServiceAccountsController serviceAccounts;
  private volatile io.listwatch.apiserver.aggregator.APIServiceRegistration apiServiceRegistration;
  private volatile io.listwatch.apiserver.aggregator.AvailableConditionController apiServiceAvailability;

  private GenericApiServer(Builder b) {
    this.registry = b.registry;
    this.storage = b.storage;
    this.cacherConfig = b.cacherConfig;
    this.clock = b.clock;
    try {
      for (ResourceDefinition def : registry.all()) {
        if (def.stored()) {
          Cacher cacher = new Cacher(def, storage, cacherConfig, clock);
          cachers.put(def, cacher);
          cacher.start();
        }
      }
      routes = new ApiRoutes(registry, b.writes.apply(storage), cachers, clock);
    } catch (RuntimeException e) {
      cachers.values().forEach(Cacher::close);
      throw e;
    }
    serviceAllocator = registry.find("", "v1", "services").map(def -> {
      ServiceAllocator allocator = new ServiceAllocator(storage, b.serviceIpRange, b.nodePortRange);
      routes.resources().store(def).hooks(allocator);
      return allocator;
    }).orElse(null);
    routes.resources().customResourceStrategies(CustomResourceStrategy::forDefinition);
    registry.find("apiextensions.k8s.io", "v1", "customresourcedefinitions")
        .ifPresent(crds -> routes.resources().admission(crds, new CustomResourceDefinitionValidation()));
  }

  /** A builder over {@code storage}, which the server reads and writes but does not close. */
  public static Builder builder(Storage storage) {
    return new Builder(storage);
  }

  /** The routes that answer requests. */
  public ApiRoutes routes() {
    return routes;
  }

  /** The catalogue of built-in resources. */
  public ResourceRegistry registry() {
    return registry;
  }

  /** The watch cache of each stored built-in resource, in the catalogue's order. */
  public Map<ResourceDefinition, Cacher> cachers() {
    return java.util.Collections.unmodifiableMap(cachers);
  }

  /** The watch cache of a built-in resource. */
  public Cacher cacher(String group, String plural) {
    return cachers.entrySet().stream()
        .filter(e -> e.getKey().group().equals(group) && e.getKey().plural().equals(plural))
        .map(Map.Entry::getValue).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no resource " + plural + "." + group));
  }

  /** The store of a built-in resource (the server's own controllers write through it). */
  public ResourceStore store(String group, String version, String plural) {
    return routes.resources().store(registry.find(group, version, plural)
        .orElseThrow(() -> new IllegalArgumentException("no resource " + plural + "." + group)));
  }

  /**
   * Creates the namespaces kube always has (unless they exist), starts serving the custom
   * resources of every definition, telling {@code listeners} as each is served, and resumes
   * the grace periods running when the server last stopped. Returns this.
   */
  public GenericApiServer start(List<CustomResourceServing.Listener> listeners) {
    return start(listeners, ControllerQueue.Gate.ALWAYS);
  }

  /**
   * {@link #start(List)}, and the core's own controllers (the service accounts controller) act
   * while {@code controllers} is open: a server sharing its store with others opens it while
   * it leads.
   */
  public GenericApiServer start(List<CustomResourceServing.Listener> listeners, ControllerQueue.Gate controllers) {
    repairServiceRanges();
    createInitialNamespaces();
    serviceAccounts = new ServiceAccountsController(store("", "v1", "namespaces"), store("", "v1", "serviceaccounts"),
        controllers, clock);
    serviceAccounts.start();
    createSystemPriorityClasses();
    createMandatoryFlowcontrolConfiguration();
    customResources = new CustomResourceServing(routes.resources(), storage, cacherConfig, clock, listeners);
    crdController = new CustomResourceDefinitionController(
        store("apiextensions.k8s.io", "v1", "customresourcedefinitions"), customResources, clock, registry.all(),
        new io.listwatch.apiserver.webhook.WebhookClient(new io.listwatch.apiserver.webhook.ServiceResolver(
            new io.listwatch.apiserver.rest.CacheListers(cachers))));
    crdController.start();
    startAggregator(controllers);
    startQuotaController();
    store("", "v1", "pods").resumeGracePeriods();
    return this;
  }

  /**
   * kube's aggregator, when APIServices are served: the local APIServices
   * ({@link io.listwatch.apiserver.aggregator.APIServiceRegistration}), the Available condition of
   * the others, and the routes' knowledge of what is proxied where.
   */
  private void startAggregator(ControllerQueue.Gate controllers) {
    if (registry.find("apiregistration.k8s.io", "v1", "apiservices").isEmpty()) {
      return;
    }
    ResourceStore apiServices = store("apiregistration.k8s.io", "v1", "apiservices");
    var listers = routes.resources().listers();
    Cacher crds = registry.find("apiextensions.k8s.io", "v1", "customresourcedefinitions").map(cachers::get).orElse(null);
    apiServiceRegistration = new io.listwatch.apiserver.aggregator.APIServiceRegistration(apiServices, registry.all(),
        crds, listers, controllers, clock);
    apiServiceRegistration.start();
    apiServiceAvailability = new io.listwatch.apiserver.aggregator.AvailableConditionController(apiServices,
        cacher("", "services"), cacher("", "endpoints"), listers, new io.listwatch.apiserver.webhook.TlsClients(),
        controllers, clock);
    apiServiceAvailability.start();
    routes.aggregatedApis(new io.listwatch.apiserver.aggregator.APIServiceProxying(apiServiceAvailability, listers));
  }

  /** The ResourceQuotas' status keeper (kube-controller-manager's), when quotas are served. */
  private void startQuotaController() {
    if (registry.find("", "v1", "resourcequotas").isPresent()) {
      quotaController = new io.listwatch.apiserver.controller.ResourceQuotaController(routes.resources(),
          store("", "v1", "resourcequotas"), cachers, clock);
      quotaController.start();
    }
  }

  /** kube's repair interval of the Service ranges. */
  private static final java.time.Duration REPAIR_INTERVAL = java.time.Duration.ofMinutes(3);

  /**
   * Rebuilds the Service ranges from the stored Services (kube's repair controllers), now and
   * every three minutes after.
   */
  private void repairServiceRanges() {
    if (serviceAllocator == null) {
      return;
    }
    Repair repair = new Repair(storage, store("", "v1", "services").resource().storagePrefix(), serviceAllocator);
    repair.runOnce().join();
    scheduleRepair(repair);
  }

  private void scheduleRepair(Repair repair) {
    if (!closed) {
      repairTimer = clock.schedule(REPAIR_INTERVAL, () -> repair.runOnce().whenComplete((v, e) -> scheduleRepair(repair)));
    }
  }

  /** The Service cluster IP range (kube's {@code --service-cluster-ip-range}). */
  public ServiceIpRange serviceIpRange() {
    return serviceAllocator == null ? null : serviceAllocator.ipRange();
  }

  /**
   * Starts keeping the {@code default/kubernetes} Service, its Endpoints and EndpointSlice with
   * this server's address among them (kube's bootstrap controller with the lease endpoint
   * reconciler; see {@link KubernetesServiceReconciler}). The front door calls it once it
   * serves on {@code address}:{@code port}; {@link #close()} stops it and takes the address out.
   * Without {@code leaseEndpoints} (kube's {@code --endpoint-reconciler-type=none}) only the
   * Service is kept.
   */
  public void startKubernetesService(String address, int port, boolean leaseEndpoints) {
    if (serviceAllocator == null) {
      return;
    }
    ResourceStore slices = registry.find("discovery.k8s.io", "v1", "endpointslices")
        .map(def -> routes.resources().store(def)).orElse(null);
    KubernetesServiceReconciler reconciler = new KubernetesServiceReconciler(store("", "v1", "services"),
        store("", "v1", "endpoints"), slices, storage, clock, serviceAllocator.ipRange(), address, port,
        leaseEndpoints);
    kubernetesService = reconciler;
    reconciler.start();
  }

  /**
   * Creates the namespaces kube always has ({@link #INITIAL_NAMESPACES}) unless they exist, each
   * with its {@code default} ServiceAccount (as the service accounts controller does for every
   * namespace later); a front door that installs objects into them (RBAC's bootstrap roles)
   * calls it before {@link #start}. Idempotent.
   */
  public void createInitialNamespaces() {
    for (String ns : INITIAL_NAMESPACES) {
      createIfAbsent(ns);
      ServiceAccountsController.createDefault(store("", "v1", "serviceaccounts"), ns);
    }
  }

  private void createIfAbsent(String namespace) {
    ObjectNode obj = JsonNodeFactory.instance.objectNode();
    obj.put("apiVersion", "v1").put("kind", "Namespace").putObject("metadata").put("name", namespace);
    createIfAbsent(store("", "v1", "namespaces"), obj);
  }

  /**
   * kube's two system PriorityClasses, which kube-apiserver creates at start (its
   * {@code scheduling/bootstrap-system-priority-classes} hook) unless they exist.
   */
  private void createSystemPriorityClasses() {
    if (registry.find("scheduling.k8s.io", "v1", "priorityclasses").isEmpty()) {
      return;
    }
    ResourceStore classes = store("scheduling.k8s.io", "v1", "priorityclasses");
    createIfAbsent(classes, priorityClass("system-node-critical", 2_000_001_000L,
        "Used for system critical pods that must not be moved from their current node."));
    createIfAbsent(classes, priorityClass("system-cluster-critical", 2_000_000_000L,
        "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary."));
  }

  /**
   * kube's mandatory API Priority and Fairness objects (the {@code exempt} and {@code catch-all}
   * PriorityLevelConfigurations and FlowSchemas) and its suggested ones
   * ({@link io.listwatch.apiserver.flowcontrol.SuggestedConfiguration}), which kube-apiserver's
   * APF configuration controller creates at start unless they exist
   * ({@link io.listwatch.apiserver.strategy.MandatoryFlowcontrolConfiguration}).
   */
  private void createMandatoryFlowcontrolConfiguration() {
    String group = "flowcontrol.apiserver.k8s.io";
    if (registry.find(group, "v1", "prioritylevelconfigurations").isEmpty()
        || registry.find(group, "v1", "flowschemas").isEmpty()) {
      return;
    }
    ResourceStore levels = store(group, "v1", "prioritylevelconfigurations");
    MandatoryFlowcontrolConfiguration.priorityLevelConfigurations().forEach(pl -> createIfAbsent(levels, pl));
    ResourceStore schemas = store(group, "v1", "flowschemas");
    MandatoryFlowcontrolConfiguration.flowSchemas().forEach(fs -> createIfAbsent(schemas, fs));
    io.listwatch.apiserver.flowcontrol.SuggestedConfiguration.priorityLevelConfigurations()
        .forEach(pl -> createIfAbsent(levels, pl));
    io.listwatch.apiserver.flowcontrol.SuggestedConfiguration.flowSchemas().forEach(fs -> createIfAbsent(schemas, fs));
  }

  /**
   * The objects stored of the resource {@code resource} in {@code group} as its watch cache
   * holds them (built-in or custom), or -1 when it has none: API Priority and Fairness
   * estimates a list's work from it.
   */
  public long objectCount(String group, String resource) {
    for (Map.Entry<ResourceDefinition, Cacher> e : cachers.entrySet()) {
      if (e.getKey().plural().equals(resource) && e.getKey().group().equals(group)) {
        return e.getValue().objectCount();
      }
    }
    CustomResourceServing custom = customResources;
    if (custom != null) {
      for (Cacher c : custom.cachers()) {
        if (c.resource().plural().equals(resource) && c.resource().group().equals(group)) {
          return c.objectCount();
        }
      }
    }
    return -1;
  }

  private static ObjectNode priorityClass(String name, long value, String description) {
    ObjectNode obj = JsonNodeFactory.instance.objectNode();
    obj.put("apiVersion", "scheduling.k8s.io/v1").put("kind", "PriorityClass").putObject("metadata").put("name", name);
    obj.put("value", value).put("description", description);
    return obj;
  }

  private static void createIfAbsent(ResourceStore store, ObjectNode obj) {
    try {
      store.createInternal("", obj).join();
    } catch (CompletionException e) {
      if (!(e.getCause() instanceof StatusException se && se.code() == 409)) {
        throw e;
      }
    }
  }

  /**
   * Stops accepting watches and ends every watch, of built-in and custom resources, after what
   * is queued; completes when each has written its end.
   */
  public CompletableFuture<Void> endWatches() {
    CustomResourceServing custom = customResources;
    List<Cacher> all = Stream.concat(cachers.values().stream(),
        custom == null ? Stream.<Cacher>empty() : custom.cachers().stream()).toList();
    return CompletableFuture.allOf(all.stream().map(Cacher::endWatches).toArray(CompletableFuture[]::new));
  }

  /** Stops serving custom resources and closes every cache; the storage stays open. Idempotent. */
  @Override
  public void close() {
    closed = true;
    var timer = repairTimer;
    if (timer != null) {
      timer.cancel();
    }
    KubernetesServiceReconciler reconciler = kubernetesService;
    if (reconciler != null) {
      reconciler.close();
    }
    CustomResourceDefinitionController crds = crdController;
    if (crds != null) {
      crds.close();
    }
    io.listwatch.apiserver.controller.ResourceQuotaController quota = quotaController;
    if (quota != null) {
      quota.close();
    }
    ServiceAccountsController accounts = serviceAccounts;
    if (accounts != null) {
      accounts.close();
    }
    var registration = apiServiceRegistration;
    if (registration != null) {
      registration.close();
    }
    var availability = apiServiceAvailability;
    if (availability != null) {
      availability.close();
    }
    cachers.values().forEach(Cacher::close);
    CustomResourceServing custom = customResources;
    if (custom != null) {
      custom.closeAll();
    }
  }

  /** Configures a {@link GenericApiServer}. Not thread-safe. */
  public static final class Builder {
    private final Storage storage;
    private ResourceRegistry registry = ResourceRegistry.builtins();
    private CacherConfig cacherConfig = CacherConfig.DEFAULTS;
    private Clock clock = Clock.system();
    private UnaryOperator<Storage> writes = UnaryOperator.identity();
    private ServiceIpRange serviceIpRange = ServiceIpRange.parse(ServiceIpRange.DEFAULT);
    private NodePortRange nodePortRange = NodePortRange.parse(NodePortRange.DEFAULT);

    private Builder(Storage storage) {
      this.storage = Objects.requireNonNull(storage, "storage");
    }

    /** The built-in resources served (default: every kind this server knows). */
    public Builder registry(ResourceRegistry registry) {
      this.registry = Objects.requireNonNull(registry);
      return this;
    }

    /** Sizes and timeouts of the watch caches. */
    public Builder cacherConfig(CacherConfig config) {
      this.cacherConfig = Objects.requireNonNull(config);
      return this;
    }

    /** The time and timers of everything in the core (default: the system clock). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock);
      return this;
    }

    /**
     * Wraps the storage the routes read and write through (the caches read it directly), e.g.
     * to measure each request to storage.
     */
    public Builder wrapRequests(UnaryOperator<Storage> wrap) {
      this.writes = Objects.requireNonNull(wrap);
      return this;
    }

    /** The Services' cluster IP range (kube's {@code --service-cluster-ip-range}, default {@code 10.96.0.0/12}). */
    public Builder serviceIpRange(String cidr) {
      this.serviceIpRange = ServiceIpRange.parse(cidr);
      return this;
    }

    /** The Services' node port range (kube's {@code --service-node-port-range}, default {@code 30000-32767}). */
    public Builder nodePortRange(String range) {
      this.nodePortRange = NodePortRange.parse(range);
      return this;
    }

    /** Fills the caches and builds the routes; see the class's lifecycle. */
    public GenericApiServer build() {
      return new GenericApiServer(this);
    }
  }
}
