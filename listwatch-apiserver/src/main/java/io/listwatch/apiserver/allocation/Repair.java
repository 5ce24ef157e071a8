package io.listwatch.apiserver.allocation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.api.JsonLimits;
import io.listwatch.storage.KeyValue;
import io.listwatch.storage.RangeRequest;
import io.listwatch.storage.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * kube's repair controllers of the Service ranges ({@code ipallocator/controller/repair.go},
 * {@code portallocator/controller/repair.go}): rebuilds each stored range from the Services in
 * storage. Every cluster IP and node port a stored Service holds is marked taken (one held by
 * two Services, or outside the range, is logged and left as it is). An item taken with no
 * Service holding it is a leak, from a write that failed between allocation and storage or one
 * still under way on another server: it is kept for {@link #LEAK_PASSES} passes before it is
 * given back, as kube does. Run once at start (before requests are served); each later
 * {@link #runOnce} is a further pass.
 *
 * <p>Thread-safe; passes are not meant to overlap (the caller runs them one at a time), and a
 * range changed meanwhile by a create is read again (compare-and-swap).
 */
public final class Repair {

  private static final Logger LOG = Logger.getLogger(Repair.class.getName());
  private static final ObjectMapper MAPPER = JsonLimits.mapper();
  /** kube's {@code numRepairsBeforeLeakCleanup}. */
  static final int LEAK_PASSES = 3;

  private final Storage storage;
  private final String servicesPrefix;
  private final ServiceAllocator allocator;
  /** Passes each leaked item has been seen leaked, per range; guarded by this. */
  private final Map<String, Map<Integer, Integer>> leaks = new HashMap<>();

  /**
   * @param servicesPrefix the storage prefix of the Services ({@code /registry/core/services/})
   */
  public Repair(Storage storage, String servicesPrefix, ServiceAllocator allocator) {
    this.storage = storage;
    this.servicesPrefix = servicesPrefix;
    this.allocator = allocator;
  }

  /** One pass over both ranges; completes when both are stored. */
  public CompletableFuture<Void> runOnce() {
    return storage.range(RangeRequest.prefix(servicesPrefix)).thenCompose(listed -> {
      List<JsonNode> specs = new ArrayList<>();
      for (KeyValue kv : listed.kvs()) {
        try {
          specs.add(MAPPER.readTree(kv.value()).path("spec"));
        } catch (IOException e) {
          LOG.warning("Repair: unreadable Service at " + kv.key() + ": " + e);
        }
      }
      return repair(allocator.storedIps(), specs, allocator::ipOffsets)
          .thenCompose(v -> repair(allocator.storedPorts(), specs, allocator::portOffsets));
    });
  }

  private CompletableFuture<Void> repair(StoredRange range, List<JsonNode> specs,
      Function<JsonNode, List<Integer>> held) {
    BitSet inUse = new BitSet();
    for (JsonNode spec : specs) {
      for (int off : held.apply(spec)) {
        if (inUse.get(off)) {
          LOG.warning("Repair[" + range.key() + "]: item " + off + " is held by more than one Service");
        }
        inUse.set(off);
      }
    }
    return range.update(bitmap -> {
      Map<Integer, Integer> seen = leaksOf(range.key());
      BitSet stored = (BitSet) bitmap.bits().clone();
      Map<Integer, Integer> next = new HashMap<>();
      for (int off = stored.nextSetBit(0); off >= 0; off = stored.nextSetBit(off + 1)) {
        if (inUse.get(off)) {
          continue;
        }
        int passes = seen.getOrDefault(off, 0) + 1;
        if (passes >= LEAK_PASSES) {
          bitmap.release(off);
          LOG.info("Repair[" + range.key() + "]: released leaked item " + off);
        } else {
          next.put(off, passes);
        }
      }
      for (int off = inUse.nextSetBit(0); off >= 0; off = inUse.nextSetBit(off + 1)) {
        bitmap.allocate(off);
      }
      synchronized (this) {
        leaks.put(range.key(), next);
      }
      return null;
    });
  }

  private synchronized Map<Integer, Integer> leaksOf(String key) {
    return new HashMap<>(leaks.getOrDefault(key, Map.of()));
  }
}
