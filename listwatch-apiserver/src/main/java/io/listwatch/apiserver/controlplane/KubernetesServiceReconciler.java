package io.listwatch.apiserver.controlplane;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.JsonLimits;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.apiserver.allocation.ServiceIpRange;
import io.listwatch.apiserver.rest.ResourceStore;
import io.listwatch.apiserver.validation.IpAddresses;
import io.listwatch.storage.KeyValue;
import io.listwatch.storage.RangeRequest;
import io.listwatch.storage.Storage;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The {@code default/kubernetes} Service and its endpoints, kept as kube-apiserver keeps them
 * (its bootstrap controller, {@code controlplane/controller/kubernetesservice}, with the lease
 * endpoint reconciler, {@code controlplane/reconcilers/lease.go}).
 *
 * <h2>Design</h2>
 * With {@code leaseEndpoints} (kube's {@code --endpoint-reconciler-type=lease}, the default),
 * each server holds a lease in storage, {@code /registry/masterleases/<its address>}, renewed
 * every {@link #INTERVAL} and good for {@link #LEASE_TTL} (kube's etcd lease TTL; here an
 * expiry time in the value, since storage has no TTL: an expired lease is removed by whichever
 * server sees it). Every {@link #INTERVAL} each server: renews its lease; creates the Service
 * if it is missing ({@code type: ClusterIP}, the first address of the Service IP range, port
 * 443 named {@code https}, TCP, {@code targetPort} the server's port) or puts its ports right;
 * and writes the Endpoints and the {@code discovery.k8s.io/v1} EndpointSlice named
 * {@code kubernetes} (label {@code kubernetes.io/service-name: kubernetes}) listing the address
 * of every live lease, when they differ. So several servers on one storage all appear, one
 * address each, and a deleted Service or Endpoints is back within one interval. {@link #close}
 * takes this server's lease and address out.
 *
 * <p>Thread-safe: each pass runs on the reconciler's own thread, scheduled on the
 * {@link Clock}.
 */
public final class KubernetesServiceReconciler implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(KubernetesServiceReconciler.class.getName());
  private static final ObjectMapper MAPPER = JsonLimits.mapper();
  /** kube's {@code EndpointInterval}. */
  public static final Duration INTERVAL = Duration.ofSeconds(10);
  /** kube's {@code MasterEndpointReconcileTTL}. */
  public static final Duration LEASE_TTL = Duration.ofSeconds(15);
  static final String LEASES_PREFIX = "/registry/masterleases/";
  static final String NAMESPACE = "default";
  static final String NAME = "kubernetes";

  private final ResourceStore services;
  private final ResourceStore endpoints;
  /** Null when EndpointSlices are not served. */
  private final ResourceStore endpointSlices;
  private final Storage storage;
  private final Clock clock;
  private final ServiceIpRange range;
  private final String address;
  private final int port;
  /** kube's {@code --endpoint-reconciler-type}: {@code lease} (true) or {@code none} (false, the Service only). */
  private final boolean leaseEndpoints;
  private final ExecutorService thread;
  private volatile Clock.Cancellable timer;
  private volatile boolean closed;

  /**
   * @param address this server's address as the endpoints name it (an IP, not loopback)
   * @param port the port it serves on (the Service's {@code targetPort})
   * @param leaseEndpoints whether to keep the endpoints with a lease per server (kube's
   *     {@code --endpoint-reconciler-type=lease}, its default) or to keep only the Service
   *     ({@code none}: no lease, no endpoints, nothing written at shutdown)
   */
  public KubernetesServiceReconciler(ResourceStore services, ResourceStore endpoints, ResourceStore endpointSlices,
      Storage storage, Clock clock, ServiceIpRange range, String address, int port, boolean leaseEndpoints) {
    this.services = services;
    this.endpoints = endpoints;
    this.endpointSlices = endpointSlices;
    this.storage = storage;
    this.clock = clock;
    this.range = range;
    this.address = address;
    this.port = port;
    this.leaseEndpoints = leaseEndpoints;
    this.thread = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "KubernetesServiceReconciler[" + address + "]");
      t.setDaemon(true);
      return t;
    });
  }

  /** Runs a first pass (and waits for it), then one every {@link #INTERVAL}. */
  public void start() {
    try {
      thread.submit(this::reconcileQuietly).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException e) {
      LOG.log(Level.WARNING, "KubernetesServiceReconciler: first pass failed", e);
    }
    schedule();
  }

  private void schedule() {
    if (!closed) {
      timer = clock.schedule(INTERVAL, () -> thread.execute(() -> {
        reconcileQuietly();
        schedule();
      }));
    }
  }

  private void reconcileQuietly() {
    try {
      reconcile();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "KubernetesServiceReconciler[" + address + "]: pass failed", e);
    }
  }

  /** One pass: lease, Service, Endpoints, EndpointSlice. Blocks; runs on the reconciler's thread. */
  void reconcile() {
    ensureService();
    if (!leaseEndpoints) {
      return;
    }
    renewLease();
    List<String> live = liveAddresses();
    ensure(endpoints, desiredEndpoints(live));
    if (endpointSlices != null) {
      ensure(endpointSlices, desiredSlice(live));
    }
  }

  private void renewLease() {
    String key = LEASES_PREFIX + address;
    ObjectNode lease = MAPPER.createObjectNode();
    lease.put("address", address).put("port", port)
        .put("expires", clock.now().plus(LEASE_TTL).toString());
    byte[] value = bytes(lease);
    Optional<KeyValue> current = storage.get(key).join();
    if (current.isPresent()) {
      storage.update(key, value, current.get().modRevision()).join();
    } else {
      storage.create(key, value).join();
    }
  }

  /** The addresses of the live leases, sorted; expired ones are removed. */
  private List<String> liveAddresses() {
    TreeSet<String> live = new TreeSet<>();
    for (KeyValue kv : storage.range(RangeRequest.prefix(LEASES_PREFIX)).join().kvs()) {
      JsonNode lease = parse(kv.value());
      java.time.Instant expires = java.time.Instant.parse(lease.path("expires").asText("1970-01-01T00:00:00Z"));
      if (expires.isAfter(clock.now()) && !(closed && lease.path("address").asText("").equals(address))) {
        live.add(lease.path("address").asText(""));
      } else {
        storage.delete(kv.key(), kv.modRevision()).exceptionally(e -> null).join();
      }
    }
    return new ArrayList<>(live);
  }

  private ArrayNode httpsPorts(boolean servicePort) {
    ArrayNode ports = MAPPER.createArrayNode();
    ObjectNode p = ports.addObject().put("name", "https");
    if (servicePort) {
      p.put("protocol", "TCP").put("port", 443).put("targetPort", port);
    } else {
      p.put("port", port).put("protocol", "TCP");
    }
    return ports;
  }

  private void ensureService() {
    Optional<ObjectNode> current = services.getInternal(NAMESPACE, NAME).join();
    if (current.isEmpty()) {
      ObjectNode svc = object("v1", "Service", null);
      ObjectNode spec = svc.putObject("spec");
      spec.put("type", "ClusterIP").put("sessionAffinity", "None");
      spec.put("clusterIP", range.firstAddress());
      spec.set("ports", httpsPorts(true));
      createIgnoringConflict(services, svc);
      return;
    }
    JsonNode ports = current.get().path("spec").path("ports");
    boolean right = ports.size() == 1 && ports.get(0).path("name").asText("").equals("https")
        && ports.get(0).path("port").asInt() == 443 && ports.get(0).path("targetPort").asInt() == port
        && ports.get(0).path("protocol").asText("").equals("TCP");
    if (!right) {
      services.updateInternal(NAMESPACE, NAME, svc -> {
        ((ObjectNode) svc.path("spec")).set("ports", httpsPorts(true));
        return svc;
      }).join();
    }
  }

  private ObjectNode object(String apiVersion, String kind, String label) {
    ObjectNode obj = MAPPER.createObjectNode();
    obj.put("apiVersion", apiVersion).put("kind", kind);
    ObjectNode meta = obj.putObject("metadata").put("name", NAME).put("namespace", NAMESPACE);
    if (label != null) {
      meta.putObject("labels").put(label, label.equals("kubernetes.io/service-name") ? NAME : "true");
    }
    return obj;
  }

  private ObjectNode desiredEndpoints(List<String> live) {
    ObjectNode ep = object("v1", "Endpoints", "endpointslice.kubernetes.io/skip-mirror");
    if (!live.isEmpty()) {
      ObjectNode subset = ep.putArray("subsets").addObject();
      ArrayNode addresses = subset.putArray("addresses");
      live.forEach(ip -> addresses.addObject().put("ip", ip));
      subset.set("ports", httpsPorts(false));
    }
    return ep;
  }

  private ObjectNode desiredSlice(List<String> live) {
    ObjectNode slice = object("discovery.k8s.io/v1", "EndpointSlice", "kubernetes.io/service-name");
    slice.put("addressType", live.stream().allMatch(IpAddresses::isIpv4) ? "IPv4" : "IPv6");
    ArrayNode list = slice.putArray("endpoints");
    for (String ip : live) {
      ObjectNode e = list.addObject();
      e.putArray("addresses").add(ip);
      e.putObject("conditions").put("ready", true);
    }
    slice.set("ports", httpsPorts(false));
    return slice;
  }

  /** Creates {@code desired}, or updates the stored object's labels and content when they differ. */
  private static void ensure(ResourceStore store, ObjectNode desired) {
    Optional<ObjectNode> current = store.getInternal(NAMESPACE, NAME).join();
    if (current.isEmpty()) {
      createIgnoringConflict(store, desired);
      return;
    }
    if (sameContent(current.get(), desired)) {
      return;
    }
    store.updateInternal(NAMESPACE, NAME, obj -> {
      ObjectNode meta = (ObjectNode) obj.path("metadata");
      ObjectNode labels = meta.has("labels") && meta.get("labels").isObject() ? (ObjectNode) meta.get("labels")
          : meta.putObject("labels");
      labels.setAll((ObjectNode) desired.path("metadata").path("labels"));
      for (String field : List.of("subsets", "addressType", "endpoints", "ports")) {
        obj.remove(field);
        if (desired.has(field)) {
          obj.set(field, desired.get(field).deepCopy());
        }
      }
      return obj;
    }).join();
  }

  private static boolean sameContent(ObjectNode current, ObjectNode desired) {
    for (var label : desired.path("metadata").path("labels").properties()) {
      if (!label.getValue().equals(current.path("metadata").path("labels").get(label.getKey()))) {
        return false;
      }
    }
    for (String field : List.of("subsets", "addressType", "endpoints", "ports")) {
      JsonNode want = desired.path(field);
      JsonNode have = current.path(field);
      if (!want.isMissingNode() && !contains(have, want)) {
        return false;
      }
      if (want.isMissingNode() && !have.isMissingNode() && !have.isEmpty()) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code have} holds everything {@code want} does (defaults the store added aside). */
  private static boolean contains(JsonNode have, JsonNode want) {
    if (want.isObject()) {
      for (var e : want.properties()) {
        if (!contains(have.path(e.getKey()), e.getValue())) {
          return false;
        }
      }
      return have.isObject();
    }
    if (want.isArray()) {
      if (!have.isArray() || have.size() != want.size()) {
        return false;
      }
      for (int i = 0; i < want.size(); i++) {
        if (!contains(have.get(i), want.get(i))) {
          return false;
        }
      }
      return true;
    }
    return want.equals(have);
  }

  private static void createIgnoringConflict(ResourceStore store, ObjectNode obj) {
    try {
      store.createInternal(NAMESPACE, obj).join();
    } catch (CompletionException e) {
      if (!(e.getCause() instanceof StatusException se && se.code() == 409)) {
        throw e;
      }
    }
  }

  private static JsonNode parse(byte[] value) {
    try {
      return MAPPER.readTree(value);
    } catch (IOException e) {
      return MAPPER.createObjectNode();
    }
  }

  private static byte[] bytes(JsonNode node) {
    try {
      return MAPPER.writeValueAsBytes(node);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Stops the passes, removes this server's lease and writes the endpoints without its address
   * (kube's {@code RemoveEndpoints} on shutdown). Bounded: gives up after a few seconds.
   * Idempotent.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    Clock.Cancellable t = timer;
    if (t != null) {
      t.cancel();
    }
    thread.execute(() -> {
      if (!leaseEndpoints) {
        return;
      }
      try {
        List<String> live = liveAddresses();
        ensure(endpoints, desiredEndpoints(live));
        if (endpointSlices != null) {
          ensure(endpointSlices, desiredSlice(live));
        }
      } catch (RuntimeException e) {
        LOG.log(Level.FINE, "KubernetesServiceReconciler[" + address + "]: could not take the address out", e);
      }
    });
    thread.shutdown();
    try {
      thread.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
