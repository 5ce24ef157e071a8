package io.listwatch.controllers.events;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.api.meta.ObjectMetaRules;
import io.listwatch.api.patch.PatchType;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link EventRecorder} that writes core/v1 Events through a {@link KubeClient}, as
 * client-go's {@code record} package (broadcaster, recorder and event sink) does.
 *
 * <h2>Design</h2>
 * <ul>
 *   <li><b>Never blocks the caller.</b> {@link #event} builds the Event and offers it to a
 *       bounded queue of {@value #QUEUE_CAPACITY} (client-go's broadcaster holds as many);
 *       when the queue is full the event is dropped and counted ({@link #dropped()}), never
 *       waited for.
 *   <li><b>One writer thread</b> ({@code event-recorder-<component>}) takes events in order,
 *       correlates them ({@link EventCorrelator}: similar events beyond ten are combined, a
 *       repeat PATCHes the first event's {@code count}, {@code lastTimestamp} and
 *       {@code message}, and more than 25 events about one object within minutes are
 *       dropped by the spam filter) and writes them. A patch that
 *       finds the event gone creates it again. A write that fails for a connection error,
 *       a 429 or a 5xx is retried up to {@value #MAX_TRIES} times, {@link #RETRY_INTERVAL}
 *       apart (client-go's numbers); any other refusal drops the event.
 *   <li><b>The Event</b> is kube's: named {@code <involved-name>.<hex of the Unix nanoseconds>}
 *       (one nanosecond later than the previous event's when the clock has not moved, so two
 *       events recorded at once never collide),
 *       in the involved object's namespace ({@code default} for a cluster-scoped one), with
 *       {@code involvedObject} (kind, namespace, name, uid, apiVersion, resourceVersion),
 *       {@code source.component} and {@code reportingComponent} set to the component name,
 *       {@code firstTimestamp} = {@code lastTimestamp} = now, {@code count} 1.
 * </ul>
 *
 * <p>Thread-safe: {@link #event} may be called from any thread; everything else the writer
 * thread does is confined to it. {@link #close()} writes what is queued (bounded) and stops.
 */
public final class ClientEventRecorder implements EventRecorder, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ClientEventRecorder.class);
  private static final ObjectMapper MAPPER = new ObjectMapper();

  static final int QUEUE_CAPACITY = 1000;
  static final int MAX_TRIES = 12;
  static final Duration RETRY_INTERVAL = Duration.ofSeconds(10);
  /** How long {@link #close()} waits for the queued events to be written. */
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);
  /** Tells the writer to stop; never handed to the correlator. */
  private static final ObjectNode STOP = MAPPER.createObjectNode();

  private final String component;
  private final Clock clock;
  private final ResourceClient<DynamicObject> events;
  private final BlockingQueue<ObjectNode> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
  /** Confined to the writer thread. */
  private final EventCorrelator correlator;
  private final AtomicLong dropped = new AtomicLong();
  /** The timestamp of the last event name handed out: names stay unique within a nanosecond. */
  private final AtomicLong lastNameNanos = new AtomicLong(Long.MIN_VALUE);
  private final Thread writer;
  private volatile boolean closed;

  /**
   * A recorder writing with {@code client} as {@code component} (e.g.
   * {@code replicaset-controller}, {@code default-scheduler}), timestamps from {@code clock};
   * its writer thread starts at once.
   */
  public ClientEventRecorder(KubeClient client, String component, Clock clock) {
    Objects.requireNonNull(client, "client");
    this.component = Objects.requireNonNull(component, "component");
    if (component.isEmpty()) {
      throw new IllegalArgumentException("component must not be empty");
    }
    this.clock = Objects.requireNonNull(clock, "clock");
    this.events = client.dynamic(ResourceType.EVENTS);
    this.correlator = new EventCorrelator(EventCorrelator.DEFAULT_CAPACITY, clock::nanoTime);
    this.writer = Thread.ofPlatform().daemon().name("event-recorder-" + component).unstarted(this::writeLoop);
    writer.start();
  }

  /** The component name events are recorded as. */
  public String component() {
    return component;
  }

  /**
   * How many events were dropped: the queue was full, the recorder closed, or the spam filter
   * held them back.
   */
  public long dropped() {
    return dropped.get();
  }

  @Override
  public void event(DynamicObject involved, String type, String reason, String message) {
    Objects.requireNonNull(involved, "involved");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
    if (!NORMAL.equals(type) && !WARNING.equals(type)) {
      LOG.warn("EventRecorder[{}]: unsupported event type {} for {}; dropped", component, type, involved);
      dropped.incrementAndGet();
      return;
    }
    if (closed || !queue.offer(makeEvent(involved, type, reason, message))) {
      long n = dropped.incrementAndGet();
      LOG.warn("EventRecorder[{}]: dropped event {} {} about {} ({} dropped so far)", component, type, reason,
          involved, n);
    }
  }

  /** Builds the core/v1 Event (count 1) as client-go's {@code makeEvent} does. */
  ObjectNode makeEvent(DynamicObject involved, String type, String reason, String message) {
    Instant now = clock.now();
    String namespace = involved.namespace().isEmpty() ? "default" : involved.namespace();
    long clockNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
    long nanos = lastNameNanos.accumulateAndGet(clockNanos, (last, t) -> Math.max(last + 1, t));
    ObjectNode e = MAPPER.createObjectNode();
    e.put("apiVersion", "v1");
    e.put("kind", "Event");
    ObjectNode meta = e.putObject("metadata");
    meta.put("name", involved.name() + "." + Long.toHexString(nanos));
    meta.put("namespace", namespace);
    ObjectNode ref = e.putObject("involvedObject");
    ref.put("kind", involved.kind());
    if (!involved.namespace().isEmpty()) {
      ref.put("namespace", involved.namespace());
    }
    ref.put("name", involved.name());
    ref.put("uid", involved.uid());
    ref.put("apiVersion", involved.apiVersion());
    ref.put("resourceVersion", involved.resourceVersion());
    e.put("reason", reason);
    e.put("message", message);
    e.putObject("source").put("component", component);
    String ts = ObjectMetaRules.timestamp(now);
    e.put("firstTimestamp", ts);
    e.put("lastTimestamp", ts);
    e.put("count", 1);
    e.put("type", type);
    e.put("reportingComponent", component);
    e.put("reportingInstance", "");
    return e;
  }

  private void writeLoop() {
    try {
      while (true) {
        ObjectNode event = queue.take();
        if (event == STOP) {
          return;
        }
        Optional<EventCorrelator.Correlation> c = correlator.correlate(event);
        if (c.isPresent()) {
          write(c.get());
        } else {
          dropped.incrementAndGet(); // the spam filter's
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Writes one correlated event, with retries; remembers what was stored. */
  private void write(EventCorrelator.Correlation c) throws InterruptedException {
    for (int attempt = 1; ; attempt++) {
      try {
        DynamicObject stored = switch (c) {
          case EventCorrelator.Create create -> events.create(DynamicObject.of(create.event()));
          case EventCorrelator.Patch patch -> patchOrCreate(patch);
        };
        correlator.written(c.key(), stored.toTree());
        return;
      } catch (StatusException e) {
        if (!retriable(e.code()) || attempt >= MAX_TRIES) {
          LOG.warn("EventRecorder[{}]: server rejected event (will not retry): {}", component, e.getMessage());
          return;
        }
        LOG.debug("EventRecorder[{}]: writing an event failed, retrying: {}", component, e.getMessage());
      } catch (UncheckedIOException e) {
        if (attempt >= MAX_TRIES) {
          LOG.warn("EventRecorder[{}]: cannot write event after {} tries: {}", component, attempt, e.getMessage());
          return;
        }
      }
      clock.sleep(RETRY_INTERVAL);
    }
  }

  private DynamicObject patchOrCreate(EventCorrelator.Patch p) {
    try {
      return events.patch(p.namespace(), p.name(), PatchType.STRATEGIC_MERGE_PATCH, p.patch());
    } catch (StatusException e) {
      if (e.code() != 404) {
        throw e;
      }
      return events.create(DynamicObject.of(p.event())); // deleted meanwhile: written afresh, count kept
    }
  }

  private static boolean retriable(int code) {
    return code == 429 || code >= 500;
  }

  /**
   * Stops accepting events, lets the writer write what is queued (at most 5 seconds), then
   * stops it. Idempotent.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (!queue.offer(STOP, CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        writer.interrupt();
      }
      writer.join(CLOSE_WAIT.toMillis());
      if (writer.isAlive()) {
        writer.interrupt();
        writer.join(CLOSE_WAIT.toMillis());
      }
    } catch (InterruptedException e) {
      writer.interrupt();
      Thread.currentThread().interrupt();
    }
  }
}
