package io.listwatch.apiserver.allocation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.rest.StoreHooks;
import io.listwatch.apiserver.strategy.ServiceSpecs;
import io.listwatch.apiserver.validation.FieldErrors;
import io.listwatch.storage.Storage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A Service's cluster IPs and node ports, as kube's Service REST storage allocates them
 * ({@code pkg/registry/core/service/storage/alloc.go} over the bitmap allocators of
 * {@code ipallocator} and {@code portallocator}): the {@link StoreHooks} of the services
 * resource.
 *
 * <h2>What it does</h2>
 * On create (after validation): the IP families (kube's {@code initIPFamilyFields}: policy
 * {@code SingleStack} and the range's family unless asked otherwise; a headless Service without
 * a selector gets {@code RequireDualStack} and both families; dual-stack requests are refused,
 * as on a single-stack cluster), a cluster IP unless the Service is headless or ExternalName
 * (the one asked for, checked, or the next free one), and for NodePort and LoadBalancer each
 * port's node port (asked for, or the next free one; ports of one number share one) and a
 * health check node port where one is needed. On update it allocates what the new type needs
 * that the old did not, and releases, once the update is stored, what the new object no longer
 * holds (a type change away from NodePort, to ExternalName). On delete it releases everything
 * the Service held. A write that fails after the hook releases what it took; a dry run takes
 * nothing (it reads the ranges and answers what it would take).
 *
 * <h2>Where the state is</h2>
 * Each range is a {@link StoredRange} in storage, changed by compare-and-swap, so servers
 * sharing one storage never give one item twice, and a restart loses nothing. {@link Repair}
 * rebuilds the ranges from the stored Services at start (what a crash between allocation and
 * storage leaked, or a range changed, is put right).
 *
 * <p>Thread-safe.
 */
public final class ServiceAllocator implements StoreHooks {

  private static final Logger LOG = Logger.getLogger(ServiceAllocator.class.getName());

  /** kube's key of the cluster IP range's allocations. */
  public static final String SERVICE_IPS_KEY = "/registry/ranges/serviceips";
  /** kube's key of the node port range's allocations. */
  public static final String NODE_PORTS_KEY = "/registry/ranges/servicenodeports";

  private final ServiceIpRange ipRange;
  private final NodePortRange portRange;
  private final StoredRange ips;
  private final StoredRange ports;

  public ServiceAllocator(Storage storage, ServiceIpRange ipRange, NodePortRange portRange) {
    this.ipRange = ipRange;
    this.portRange = portRange;
    this.ips = new StoredRange(storage, SERVICE_IPS_KEY, ipRange.toString(), ipRange.size(), ipRange.dynamicOffset());
    this.ports = new StoredRange(storage, NODE_PORTS_KEY, portRange.toString(), portRange.size(),
        portRange.dynamicOffset());
  }

  public ServiceIpRange ipRange() {
    return ipRange;
  }

  public NodePortRange portRange() {
    return portRange;
  }

  StoredRange storedIps() {
    return ips;
  }

  StoredRange storedPorts() {
    return ports;
  }

  @Override
  public CompletableFuture<Finish> beginCreate(ObjectNode obj, boolean dryRun) {
    return begin(obj, null, dryRun);
  }

  @Override
  public CompletableFuture<Finish> beginUpdate(ObjectNode obj, ObjectNode old, boolean dryRun) {
    return begin(obj, old, dryRun);
  }

  @Override
  public CompletableFuture<Void> afterDelete(ObjectNode deleted) {
    JsonNode spec = deleted.path("spec");
    return CompletableFuture.allOf(release(ips, ipOffsets(spec), "cluster IPs of " + name(deleted)),
        release(ports, portOffsets(spec), "node ports of " + name(deleted)));
  }

  private static String name(JsonNode obj) {
    return obj.path("metadata").path("namespace").asText("") + "/" + obj.path("metadata").path("name").asText("");
  }

  /** The items of the cluster IPs {@code spec} holds in this range. */
  List<Integer> ipOffsets(JsonNode spec) {
    List<Integer> out = new ArrayList<>();
    for (JsonNode ip : spec.path("clusterIPs")) {
      int off = ipRange.offset(ip.asText(""));
      if (off >= 0) {
        out.add(off);
      }
    }
    if (out.isEmpty() && ipRange.offset(spec.path("clusterIP").asText("")) >= 0) {
      out.add(ipRange.offset(spec.path("clusterIP").asText("")));
    }
    return out;
  }

  /** The items of the node ports (and health check node port) {@code spec} holds in this range. */
  List<Integer> portOffsets(JsonNode spec) {
    Set<Integer> out = new HashSet<>();
    for (JsonNode p : spec.path("ports")) {
      int off = portRange.offset(p.path("nodePort").asLong(0));
      if (off >= 0) {
        out.add(off);
      }
    }
    int hc = portRange.offset(spec.path("healthCheckNodePort").asLong(0));
    if (hc >= 0) {
      out.add(hc);
    }
    return new ArrayList<>(out);
  }

  private CompletableFuture<Finish> begin(ObjectNode obj, ObjectNode old, boolean dryRun) {
    if (!(obj.get("spec") instanceof ObjectNode spec)) {
      return CompletableFuture.completedFuture(Finish.NOTHING);
    }
    String name = obj.path("metadata").path("name").asText("");
    JsonNode oldSpec = old == null ? null : old.path("spec");
    IpFamilies.init(spec, oldSpec, ipRange.family(), name);
    boolean wantIp = ServiceSpecs.needsClusterIp(spec) && !ServiceSpecs.headless(spec)
        && (oldSpec == null || !ServiceSpecs.needsClusterIp(oldSpec));
    List<Integer> oldIps = oldSpec == null ? List.of() : ipOffsets(oldSpec);
    List<Integer> oldPorts = oldSpec == null ? List.of() : portOffsets(oldSpec);
    IpRequest ipRequest = wantIp ? new IpRequest(name, ServiceSpecs.strings(spec.path("clusterIPs"))) : null;
    PortRequest portRequest = new PortRequest(name, spec, new HashSet<>(oldPorts));
    CompletableFuture<List<Integer>> takenIps = ipRequest == null ? CompletableFuture.completedFuture(List.of())
        : apply(ips, dryRun, ipRequest::allocate);
    return takenIps.thenCompose(ipTaken -> {
      CompletableFuture<List<Integer>> takenPorts = portRequest.empty() ? CompletableFuture.completedFuture(List.of())
          : apply(ports, dryRun, portRequest::allocate);
      return takenPorts.handle((portTaken, e) -> {
        if (e != null) {
          if (!dryRun) {
            release(ips, ipTaken, "cluster IPs of failed write " + name);
          }
          throw e instanceof RuntimeException r ? r : new java.util.concurrent.CompletionException(e);
        }
        if (ipRequest != null) {
          String ip = ipRange.address(ipTaken.get(0));
          spec.put("clusterIP", ip);
          spec.putArray("clusterIPs").add(ip);
        }
        portRequest.fill(spec);
        List<Integer> releasedIps = new ArrayList<>(oldIps);
        releasedIps.removeAll(ipOffsets(spec));
        List<Integer> releasedPorts = new ArrayList<>(oldPorts);
        releasedPorts.removeAll(portOffsets(spec));
        return (Finish) success -> {
          if (dryRun) {
            return;
          }
          release(ips, success ? releasedIps : ipTaken, "cluster IPs of " + name);
          release(ports, success ? releasedPorts : portTaken, "node ports of " + name);
        };
      });
    });
  }

  private static <T> CompletableFuture<T> apply(StoredRange range, boolean dryRun,
      java.util.function.Function<AllocationBitmap, T> change) {
    return dryRun ? range.read().thenApply(change) : range.update(change);
  }

  /** Gives {@code offsets} back; the future completes once stored, or once the failure is logged (the repair will). */
  private static CompletableFuture<Void> release(StoredRange range, List<Integer> offsets, String what) {
    if (offsets.isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    return range.update(bitmap -> {
      offsets.forEach(bitmap::release);
      return null;
    }).handle((v, e) -> {
      if (e != null) {
        LOG.log(Level.WARNING, "ServiceAllocator[" + range.key() + "]: could not release " + what
            + " (the repair will): " + e);
      }
      return null;
    });
  }

  private static StatusException invalid(String name, Status.Cause cause) {
    return StatusException.invalid("", "Service", name, List.of(cause));
  }

  /** A cluster IP to take: the one asked for ({@code clusterIPs[0]}), or the next free one. */
  private final class IpRequest {
    private final String name;
    private final List<String> asked;

    IpRequest(String name, List<String> asked) {
      this.name = name;
      this.asked = asked;
    }

    List<Integer> allocate(AllocationBitmap bitmap) {
      if (asked.isEmpty()) {
        int off = bitmap.allocateNext();
        if (off < 0) {
          throw StatusException.internal("failed to allocate a serviceIP: range is full");
        }
        return List.of(off);
      }
      String ip = asked.get(0);
      int off = ipRange.offset(ip);
      if (off < 0) {
        throw invalid(name, FieldErrors.invalid("spec.clusterIPs", asked, "failed to allocate IP " + ip
            + ": the provided IP (" + ip + ") is not in the valid range. The range of valid IPs is " + ipRange));
      }
      if (!bitmap.allocate(off)) {
        throw invalid(name, FieldErrors.invalid("spec.clusterIPs", asked, "failed to allocate IP " + ip
            + ": provided IP is already allocated"));
      }
      return List.of(off);
    }
  }

  /**
   * The node ports to take (kube's {@code initNodePorts} and {@code allocHealthCheckNodePort}):
   * each port's, asked for or the next free one, ports of one number sharing one; those the
   * Service already {@code held} are not taken again.
   */
  private final class PortRequest {
    private final String name;
    private final long[] numbers;
    private final long[] asked;
    private final long[] assigned;
    private final boolean needs;
    private final boolean any;
    private final long askedHealthCheck;
    private final boolean needsHealthCheck;
    private long healthCheck;
    private final Set<Integer> held;

    PortRequest(String name, JsonNode spec, Set<Integer> held) {
      this.name = name;
      this.held = held;
      JsonNode list = spec.path("ports");
      numbers = new long[list.size()];
      asked = new long[list.size()];
      for (int i = 0; i < list.size(); i++) {
        numbers[i] = list.get(i).path("port").asLong(0);
        asked[i] = list.get(i).path("nodePort").asLong(0);
      }
      assigned = asked.clone();
      any = ServiceSpecs.hasNodePorts(spec);
      needs = ServiceSpecs.needsNodePort(spec);
      needsHealthCheck = ServiceSpecs.needsHealthCheck(spec);
      askedHealthCheck = spec.path("healthCheckNodePort").asLong(0);
      healthCheck = askedHealthCheck;
    }

    boolean empty() {
      return !any;
    }

    List<Integer> allocate(AllocationBitmap bitmap) {
      List<Integer> taken = new ArrayList<>();
      System.arraycopy(asked, 0, assigned, 0, asked.length);
      healthCheck = askedHealthCheck;
      Map<Long, Long> byNumber = new HashMap<>();
      for (int i = 0; i < numbers.length; i++) {
        if (asked[i] == 0 && !needs) {
          continue;
        }
        Long shared = byNumber.get(numbers[i]);
        if (shared == null) {
          long np = requested(numbers[i]);
          if (np != 0) {
            take(bitmap, np, "spec.ports[" + i + "].nodePort", taken);
            assigned[i] = np;
          } else {
            int off = bitmap.allocateNext();
            if (off < 0) {
              throw StatusException.internal("failed to allocate a nodePort: range is full");
            }
            taken.add(off);
            assigned[i] = portRange.port(off);
          }
          byNumber.put(numbers[i], assigned[i]);
        } else if (asked[i] != shared) {
          if (asked[i] == 0) {
            assigned[i] = shared;
          } else {
            take(bitmap, asked[i], "spec.ports[" + i + "].nodePort", taken);
          }
        }
      }
      if (needsHealthCheck) {
        if (healthCheck != 0) {
          take(bitmap, healthCheck, "spec.healthCheckNodePort", taken);
        } else {
          int off = bitmap.allocateNext();
          if (off < 0) {
            throw StatusException.internal("failed to allocate a nodePort: range is full");
          }
          taken.add(off);
          healthCheck = portRange.port(off);
        }
      }
      return taken;
    }

    /** kube's {@code findRequestedNodePort}: the first node port asked for a port of this number. */
    private long requested(long number) {
      for (int i = 0; i < numbers.length; i++) {
        if (numbers[i] == number && asked[i] != 0) {
          return asked[i];
        }
      }
      return 0;
    }

    private void take(AllocationBitmap bitmap, long port, String path, List<Integer> taken) {
      int off = portRange.offset(port);
      if (off < 0) {
        throw invalid(name, FieldErrors.invalid(path, port,
            "provided port is not in the valid range. The range of valid ports is " + portRange));
      }
      if (held.contains(off) || taken.contains(off)) {
        return;
      }
      if (!bitmap.allocate(off)) {
        throw invalid(name, FieldErrors.invalid(path, port, "provided port is already allocated"));
      }
      taken.add(off);
    }

    void fill(ObjectNode spec) {
      if (!any) {
        return;
      }
      JsonNode list = spec.path("ports");
      for (int i = 0; i < assigned.length && i < list.size(); i++) {
        if (assigned[i] != 0 && list.get(i) instanceof ObjectNode port) {
          port.put("nodePort", assigned[i]);
        }
      }
      if (needsHealthCheck) {
        spec.put("healthCheckNodePort", healthCheck);
      }
    }
  }
}
