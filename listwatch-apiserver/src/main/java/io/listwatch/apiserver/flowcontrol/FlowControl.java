package io.listwatch.apiserver.flowcontrol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.api.clock.Clock;
import io.listwatch.apiserver.cacher.CacheListener;
import io.listwatch.apiserver.cacher.CachedObject;
import io.listwatch.apiserver.controller.ControllerQueue;
import io.listwatch.apiserver.rest.ResourceStore;
import io.listwatch.apiserver.cacher.WatchCacheEvent;
import io.listwatch.apiserver.request.RequestInfo;
import io.listwatch.apiserver.request.UserInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * API Priority and Fairness (kube's {@code apf_controller.go}, KEP-1040): classifies each
 * request by the stored FlowSchemas into a priority level and a flow, estimates its seats
 * ({@link WorkEstimator}) and passes it through that level's queues ({@link QueueSet}).
 *
 * <h2>Configuration</h2>
 * Read from the stored FlowSchemas and PriorityLevelConfigurations, and read again on every
 * change to either ({@link #start} listens to their watch caches). A FlowSchema whose level
 * does not exist is dangling and skipped, as kube. Each Limited level gets
 * {@code ceil(serverConcurrencyLimit * nominalConcurrencyShares / sum of every level's shares)}
 * seats, the server's limit being {@code --max-requests-inflight +
 * --max-mutating-requests-inflight} (600 by default): its nominal limit.
 *
 * <h2>Borrowing</h2>
 * Levels lend and borrow seats as kube's (KEP-1040): a level may go down to its nominal limit
 * less {@code lendablePercent} of it and up to its nominal limit plus
 * {@code borrowingLimitPercent} of it (without one, plus the server's whole limit). A new level
 * starts at its nominal limit less half of what it may lend. Every {@link #BORROWING_PERIOD}, and
 * on every change of configuration, each level's seat demand over the period (seats executing
 * plus seats waiting, {@link SeatDemand}) gives it a target: its average plus one standard
 * deviation, smoothed so that a burst is remembered with a half-life of about five minutes, and
 * never below the period's peak demand (up to the nominal limit) or the lower bound. The sum of
 * the nominal limits is then shared out in proportion to the targets, each level held within its
 * bounds ({@link ConcurrencyAllocation}), and each level's queues run at the share rounded. So a
 * level that floods while the others are idle runs several times its nominal seats, and the
 * idle ones keep what they may not lend.
 *
 * <h2>A request</h2>
 * {@link #admit} returns a {@link Ticket} at once; the request executes when
 * {@link Ticket#dispatched()} completes and frees its seats with {@link Ticket#finish()}. A
 * request that matches no FlowSchema (none is left after the mandatory catch-all was deleted and
 * before it is made again) is not limited.
 *
 * <p>Thread-safe: the configuration is an immutable snapshot replaced whole; each level's
 * {@link QueueSet} guards its own state; levels are kept by name across reconfigurations so
 * their queues, seats and borrowing state carry over; the borrowing state and the adjustments
 * are guarded by this object's monitor, which is taken before a QueueSet's, never after.
 */
public final class FlowControl implements AutoCloseable {

  /** The stored objects of a resource, or a negative number when unknown (for list estimates). */
  @FunctionalInterface
  public interface ObjectCounter {
    long count(String group, String resource);
  }

  /** kube's default queue wait limit: a quarter of the 60 s request timeout. */
  public static final Duration DEFAULT_QUEUE_WAIT_LIMIT = Duration.ofSeconds(15);

  private static final Logger LOG = LoggerFactory.getLogger(FlowControl.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final int serverConcurrencyLimit;
  private final Duration queueWaitLimit;
  private final Clock clock;
  private final ObjectCounter objects;
  private final FlowControlObserver observer;
  /** Levels by name; only the configuring thread adds and removes (under {@code this}). */
  private final Map<String, Level> levels = new ConcurrentHashMap<>();
  private volatile List<FlowSchema> schemas = List.of();
  /** The stored objects by name, as last seen; guarded by {@code this}. */
  private final Map<String, JsonNode> storedSchemas = new HashMap<>();
  private final Map<String, JsonNode> storedLevels = new HashMap<>();
  /** Where FlowSchemas whose Dangling condition is out of date are queued; null until started. Guarded by {@code this}. */
  private ControllerQueue statusQueue;
  /** The next adjustment of the levels' limits; null until started and after close. Guarded by {@code this}. */
  private Clock.Cancellable borrowing;
  /** Guarded by {@code this}. */
  private boolean closed;
  /** The fair fraction of the last adjustment; guarded by {@code this}. */
  private double fairFraction;

  /** kube's period between two adjustments of the levels' current limits. */
  public static final Duration BORROWING_PERIOD = Duration.ofSeconds(10);
  /** kube's smoothing of a level's seat demand from one period to the next (a half-life of about 5 minutes). */
  static final double DEMAND_SMOOTHING = 0.977;

  /**
   * A priority level: its stored identity, its queues (run at {@link Limits#current}) and its
   * limits at the nominal seats.
   */
  private record Level(String name, String uid, QueueSet queues, QueueSet.Config nominal, Limits limits) {
  }

  /** A level's bounds and borrowing state, kept by name across reconfigurations; guarded by the FlowControl. */
  private static final class Limits {
    int nominal;
    int lower;
    int upper;
    int current;
    double smoothedDemand;
  }

  /**
   * @param serverConcurrencyLimit the seats shared by all levels (kube: the sum of the two in-flight limits)
   * @param queueWaitLimit how long a request may wait in a queue before it is refused
   * @param objects the stored objects of a resource, for lists' estimates
   */
  public FlowControl(int serverConcurrencyLimit, Duration queueWaitLimit, Clock clock, ObjectCounter objects,
      FlowControlObserver observer) {
    if (serverConcurrencyLimit < 1) {
      throw new IllegalArgumentException("the server's concurrency limit must be at least 1");
    }
    this.serverConcurrencyLimit = serverConcurrencyLimit;
    this.queueWaitLimit = Objects.requireNonNull(queueWaitLimit);
    this.clock = Objects.requireNonNull(clock);
    this.objects = Objects.requireNonNull(objects);
    this.observer = Objects.requireNonNull(observer);
  }

  /**
   * Reads the configuration from the two resources' watch caches, and again on each of their
   * changes, and keeps each FlowSchema's {@link DanglingCondition} in its status (on the
   * {@code flowschema-status} thread).
   */
  public void start(ResourceStore flowSchemas, ResourceStore priorityLevels) {
    ControllerQueue queue = new ControllerQueue("flowschema-status", name -> syncStatus(flowSchemas, name),
        ControllerQueue.Gate.ALWAYS, clock);
    synchronized (this) {
      statusQueue = queue;
      scheduleBorrowing();
    }
    // the levels first, and the status worker only once both are read: a schema read before its
    // level would look dangling, and the worker would write Dangling=True and back on every start
    priorityLevels.cacher().addListener(listener(storedLevels));
    flowSchemas.cacher().addListener(listener(storedSchemas));
    queue.start();
  }

  /** Writes the Dangling condition of the FlowSchema {@code name} unless it already says what is so. */
  private void syncStatus(ResourceStore flowSchemas, String name) {
    Optional<com.fasterxml.jackson.databind.node.ObjectNode> stored = flowSchemas.getInternal("", name).join();
    if (stored.isEmpty() || DanglingCondition.carries(stored.get(), dangling(stored.get()))) {
      return;
    }
    flowSchemas.updateStatusInternal("", name, fs -> {
      DanglingCondition.set(fs, dangling(fs), clock.now());
      return fs;
    }).join();
  }

  private synchronized boolean dangling(JsonNode schema) {
    return !storedLevels.containsKey(schema.path("spec").path("priorityLevelConfiguration").path("name").asText());
  }

  /** Stops keeping the FlowSchemas' status. Requests keep being admitted. Idempotent. */
  @Override
  public void close() {
    ControllerQueue queue;
    synchronized (this) {
      queue = statusQueue;
      closed = true;
      if (borrowing != null) {
        borrowing.cancel();
        borrowing = null;
      }
    }
    if (queue != null) {
      queue.close();
    }
  }

  private CacheListener listener(Map<String, JsonNode> stored) {
    return CacheListener.of(all -> {
      synchronized (this) {
        stored.clear();
        all.forEach(o -> stored.put(o.name(), parse(o)));
        reconfigure();
      }
    }, event -> {
      synchronized (this) {
        if (event.type() == WatchCacheEvent.Type.DELETED) {
          stored.remove(event.object().name());
        } else {
          stored.put(event.object().name(), parse(event.object()));
        }
        reconfigure();
      }
    });
  }

  private static JsonNode parse(CachedObject o) {
    try {
      return JSON.readTree(o.json());
    } catch (IOException e) {
      throw new IllegalStateException("stored flowcontrol object " + o.key() + " is not JSON", e);
    }
  }

  /** Replaces the configuration with these objects (the caches' listeners call it; so do tests). */
  public synchronized void configure(List<? extends JsonNode> flowSchemas, List<? extends JsonNode> priorityLevels) {
    storedSchemas.clear();
    flowSchemas.forEach(o -> storedSchemas.put(o.path("metadata").path("name").asText(), o));
    storedLevels.clear();
    priorityLevels.forEach(o -> storedLevels.put(o.path("metadata").path("name").asText(), o));
    reconfigure();
  }

  private synchronized void reconfigure() {
    long shares = 0;
    for (JsonNode pl : storedLevels.values()) {
      shares += shares(pl.path("spec"));
    }
    Map<String, Level> next = new LinkedHashMap<>();
    for (JsonNode pl : storedLevels.values()) {
      String name = pl.path("metadata").path("name").asText();
      JsonNode spec = pl.path("spec");
      QueueSet.Config nominal = config(spec, shares);
      Level old = levels.get(name);
      Limits limits = old == null ? new Limits() : old.limits();
      limits.nominal = nominal.concurrencyLimit();
      JsonNode bounds = spec.path(spec.path("type").asText().equals("Exempt") ? "exempt" : "limited");
      int lendable = (int) Math.round(limits.nominal * bounds.path("lendablePercent").asDouble(0) / 100);
      int borrowable = bounds.hasNonNull("borrowingLimitPercent") && !spec.path("type").asText().equals("Exempt")
          ? (int) Math.round(limits.nominal * bounds.path("borrowingLimitPercent").asDouble() / 100)
          : serverConcurrencyLimit;
      limits.lower = limits.nominal - lendable;
      limits.upper = limits.nominal + borrowable;
      QueueSet queues;
      if (old == null) {
        limits.current = limits.nominal - lendable / 2;
        queues = new QueueSet(nominal.withLimit(limits.current), clock, queueWaitLimit, observer);
      } else {
        queues = old.queues();
        if (!old.nominal().equals(nominal)) {
          queues.reconfigure(nominal.withLimit(limits.current));
        }
      }
      next.put(name, new Level(name, pl.path("metadata").path("uid").asText(""), queues, nominal, limits));
    }
    List<FlowSchema> sorted = new ArrayList<>();
    for (JsonNode fs : storedSchemas.values()) {
      FlowSchema schema = FlowSchema.from(fs);
      if (next.containsKey(schema.priorityLevel())) {
        sorted.add(schema);
      } else {
        LOG.debug("FlowSchema {} is dangling: no PriorityLevelConfiguration {}", schema.name(), schema.priorityLevel());
      }
    }
    sorted.sort(FlowSchema.ORDER);
    if (statusQueue != null) {
      for (JsonNode fs : storedSchemas.values()) {
        if (!DanglingCondition.carries(fs, dangling(fs))) {
          statusQueue.add(fs.path("metadata").path("name").asText());
        }
      }
    }
    levels.keySet().retainAll(next.keySet()); // requests of a removed level still drain through their QueueSet
    levels.putAll(next);
    adjustLimits(); // kube re-shares the seats on every change of configuration too
    schemas = List.copyOf(sorted);
  }

  private synchronized void scheduleBorrowing() {
    if (closed) {
      return;
    }
    borrowing = clock.schedule(BORROWING_PERIOD, () -> {
      synchronized (this) {
        adjustLimits();
        scheduleBorrowing();
      }
    });
  }

  /**
   * Shares the server's seats out among the levels by their seat demand since the last call,
   * kube's {@code updateBorrowingLocked}; keeps the current limits when the bounds cannot be met.
   */
  private synchronized void adjustLimits() {
    List<Level> all = List.copyOf(levels.values());
    List<ConcurrencyAllocation.Item> items = new ArrayList<>(all.size());
    int nominalSum = 0;
    for (Level l : all) {
      Limits m = l.limits();
      SeatDemand.Period demand = l.queues().resetDemand();
      if (demand.seconds() > 0) {
        double envelope = demand.average() + demand.deviation();
        m.smoothedDemand = Math.max(envelope, DEMAND_SMOOTHING * m.smoothedDemand + (1 - DEMAND_SMOOTHING) * envelope);
      }
      double lower = Math.max(m.lower, Math.min(m.nominal, demand.max()));
      items.add(new ConcurrencyAllocation.Item(Math.max(lower, m.smoothedDemand), lower, m.upper));
      nominalSum += m.nominal;
    }
    ConcurrencyAllocation.Result shares;
    try {
      shares = ConcurrencyAllocation.allocate(nominalSum, items);
    } catch (IllegalArgumentException e) {
      LOG.warn("priority levels keep their current limits: {}", e.getMessage());
      return;
    }
    fairFraction = shares.fairFraction();
    for (int i = 0; i < all.size(); i++) {
      Level l = all.get(i);
      int current = (int) Math.round(shares.allocations()[i]);
      if (current != l.limits().current) {
        LOG.debug("priority level {}: current limit {} -> {} seats", l.name(), l.limits().current, current);
        l.limits().current = current;
        l.queues().reconfigure(l.nominal().withLimit(current));
      }
    }
  }

  private static long shares(JsonNode spec) {
    return spec.path("type").asText().equals("Exempt")
        ? spec.path("exempt").path("nominalConcurrencyShares").asLong(0)
        : spec.path("limited").path("nominalConcurrencyShares").asLong(30);
  }

  private QueueSet.Config config(JsonNode spec, long totalShares) {
    int limit = totalShares == 0 ? 0
        : (int) Math.ceil((double) serverConcurrencyLimit * shares(spec) / totalShares);
    if (spec.path("type").asText().equals("Exempt")) {
      return new QueueSet.Config(true, limit, 0, 0, 0);
    }
    JsonNode response = spec.path("limited").path("limitResponse");
    if (!response.path("type").asText("Reject").equals("Queue")) {
      return new QueueSet.Config(false, limit, 0, 0, 0);
    }
    JsonNode q = response.path("queuing");
    int queues = q.path("queues").asInt(64);
    return new QueueSet.Config(false, limit, queues, Math.min(queues, q.path("handSize").asInt(8)),
        q.path("queueLengthLimit").asInt(50));
  }

  /**
   * Classifies the request of {@code user} described by {@code info} (its {@code query} for a
   * list's estimate) and enters it into its level: the ticket says when it may execute.
   */
  public Ticket admit(UserInfo user, RequestInfo info, Map<String, List<String>> query) {
    for (FlowSchema fs : schemas) {
      if (!fs.matches(user, info)) {
        continue;
      }
      Level level = levels.get(fs.priorityLevel());
      if (level == null) {
        continue; // removed since this snapshot
      }
      String distinguisher = fs.flowDistinguisher(user, info);
      int seats = WorkEstimator.seats(info, query, objects, WorkEstimator.maxSeats(level.nominal()));
      Classification c = new Classification(fs.name(), fs.uid(), level.name(), level.uid(), distinguisher, seats);
      return level.queues().start(c, flowHash(fs.name(), distinguisher));
    }
    return UNLIMITED;
  }

  /** kube's flow identity: a hash of the FlowSchema's name and the distinguisher. */
  static long flowHash(String flowSchema, String distinguisher) {
    MessageDigest sha = SHA256.get(); // reset by digest
    sha.update(flowSchema.getBytes(StandardCharsets.UTF_8));
    sha.update((byte) 0);
    byte[] d = sha.digest(distinguisher.getBytes(StandardCharsets.UTF_8));
    long h = 0;
    for (int i = 0; i < 8; i++) {
      h = (h << 8) | (d[i] & 0xff);
    }
    return h;
  }

  /** A digest per thread (the event loops): looking one up from the providers costs more than the hash. */
  private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  });

  /** One priority level's state, for metrics. */
  public record LevelSnapshot(String priorityLevel, int nominalLimitSeats, int lowerLimitSeats, int upperLimitSeats,
      int currentLimitSeats, int waiting, int executing, int seatsInUse, List<SchemaSnapshot> flowSchemas) {
  }

  /** One FlowSchema's requests in one level, for metrics. */
  public record SchemaSnapshot(String flowSchema, int waiting, int executing, int seats) {
  }

  /** The fair fraction of the last sharing out of seats among the levels (kube's {@code seat_fair_frac}). */
  public synchronized double fairFraction() {
    return fairFraction;
  }

  /** Every level's state now (each level read on its own). */
  public synchronized List<LevelSnapshot> snapshot() {
    List<LevelSnapshot> out = new ArrayList<>();
    for (Level l : levels.values()) {
      QueueSet.Counts c = l.queues().counts();
      Limits m = l.limits();
      out.add(new LevelSnapshot(l.name(), m.nominal, m.lower, m.upper, c.concurrencyLimit(), c.waiting(), c.executing(),
          c.seatsInUse(),
          c.bySchema().stream().map(s -> new SchemaSnapshot(s.flowSchema(), s.waiting(), s.executing(), s.seats()))
              .toList()));
    }
    out.sort(java.util.Comparator.comparing(LevelSnapshot::priorityLevel));
    return out;
  }

  /** The ticket of a request no FlowSchema matched: executes at once, holds nothing. */
  private static final Ticket UNLIMITED = new Ticket() {
    @Override
    public Optional<Classification> classification() {
      return Optional.empty();
    }

    @Override
    public CompletableFuture<Void> dispatched() {
      return CompletableFuture.completedFuture(null);
    }

    @Override
    public void finish() {
    }

    @Override
    public void cancel() {
    }
  };
}
