package io.listwatch.client.testing;

import io.listwatch.api.StatusException;
import io.listwatch.client.Config;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ObjectCodec;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.WatchStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link KubeClient} for tests, served in memory by an {@link ObjectTracker} with the
 * server's semantics (resourceVersions, conflicts, paging, watch replay, 410s, bookmarks),
 * so informers and controllers run against it unchanged (client-go's fake clientset).
 *
 * <p>Every call is recorded as an {@link Action} ({@link #actions()}), then offered to the
 * {@link Reactor}s in order; the first that handles it answers, otherwise the tracker does.
 *
 * <pre>{@code
 * FakeClient client = FakeClient.withObjects(ResourceType.PODS, podCodec, pod1, pod2);
 * client.failNext(Action.UPDATE, ResourceType.PODS, conflict);   // one 409, then normal
 * runController(client);
 * assertThat(client.actionsFor(Action.CREATE, ResourceType.REPLICASETS)).hasSize(1);
 * client.tracker().compact();            // old resourceVersions now get 410
 * client.tracker().closeAllWatches();    // as if connections dropped
 * }</pre>
 *
 * <p>A namespaced object created or updated without a namespace goes to the default namespace
 * ({@value Config#DEFAULT_NAMESPACE} unless {@link #defaultNamespace(String)} says otherwise), as
 * the HTTP client sends it to its config's namespace and client-go's fake tracker files it
 * under the request's namespace; the recorded {@link Action} names that namespace.
 *
 * <p>Thread-safe. {@link #close()} ends this client's watches; further calls throw
 * {@link IllegalStateException}. The tracker may be shared by several clients.
 */
public final class FakeClient implements KubeClient {

  private final ObjectTracker tracker;
  /** In call order. Guarded by itself. */
  private final List<Action> actions = new ArrayList<>();
  /** Consulted in order, before the tracker. */
  private final List<Registration> reactors = new CopyOnWriteArrayList<>();
  /** This client's open watches, closed with it. */
  private final Set<WatchStream<?>> streams = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;
  private volatile String defaultNamespace = Config.DEFAULT_NAMESPACE;

  private FakeClient(ObjectTracker tracker) {
    this.tracker = Objects.requireNonNull(tracker, "tracker");
  }

  /** A client over a new, empty tracker with the defaults. */
  public static FakeClient create() {
    return new FakeClient(ObjectTracker.create());
  }

  /** A client over {@code tracker} (e.g. one built with a FakeClock or a small history). */
  public static FakeClient create(ObjectTracker tracker) {
    return new FakeClient(tracker);
  }

  /** A client over a new tracker seeded with {@code objects} (see {@link ObjectTracker#add}). */
  @SafeVarargs
  public static <T> FakeClient withObjects(ResourceType type, ObjectCodec<T> codec, T... objects) {
    return create().seed(type, codec, objects);
  }

  /** Seeds more objects (see {@link ObjectTracker#add}); records no actions. Returns this. */
  @SafeVarargs
  public final <T> FakeClient seed(ResourceType type, ObjectCodec<T> codec, T... objects) {
    for (T object : objects) {
      tracker.add(type, codec, object);
    }
    return this;
  }

  /**
   * Sets the namespace that namespaced objects without one are created and updated in (the
   * HTTP client's {@link Config#namespace()}). Returns this.
   */
  public FakeClient defaultNamespace(String namespace) {
    Objects.requireNonNull(namespace, "namespace");
    if (namespace.isEmpty()) {
      throw new IllegalArgumentException("the default namespace must not be empty");
    }
    this.defaultNamespace = namespace;
    return this;
  }

  /** The namespace that namespaced objects without one are written to. */
  public String defaultNamespace() {
    return defaultNamespace;
  }

  /** The store behind this client. */
  public ObjectTracker tracker() {
    return tracker;
  }

  @Override
  public <T> ResourceClient<T> resource(ResourceType type, ObjectCodec<T> codec) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(codec, "codec");
    return new FakeResourceClient<>(this, tracker, type, codec);
  }

  // ---- recorded actions ---------------------------------------------------------------

  /** Every call so far, in order (a copy). */
  public List<Action> actions() {
    synchronized (actions) {
      return List.copyOf(actions);
    }
  }

  /** The calls of {@code verb} ({@link Action#ANY_VERB} for all) on {@code type} (null for all), in order. */
  public List<Action> actionsFor(String verb, ResourceType type) {
    return actions().stream().filter(a -> a.is(verb, type)).toList();
  }

  /** Forgets the recorded calls. */
  public void clearActions() {
    synchronized (actions) {
      actions.clear();
    }
  }

  // ---- reactors -----------------------------------------------------------------------

  /**
   * Puts {@code reactor} first, for calls of {@code verb} ({@link Action#ANY_VERB} for all)
   * on {@code type} (null for all).
   */
  public void prependReactor(String verb, ResourceType type, Reactor reactor) {
    reactors.addFirst(new Registration(Objects.requireNonNull(verb, "verb"), type,
        Objects.requireNonNull(reactor, "reactor")));
  }

  /** Puts {@code reactor} last (still before the tracker); arguments as {@link #prependReactor}. */
  public void addReactor(String verb, ResourceType type, Reactor reactor) {
    reactors.addLast(new Registration(Objects.requireNonNull(verb, "verb"), type,
        Objects.requireNonNull(reactor, "reactor")));
  }

  /**
   * Fails the next call of {@code verb} on {@code type} (null for any) with {@code error},
   * once; later calls go on as before. Failures queued for the same calls fire in turn, the
   * most recent first.
   */
  public void failNext(String verb, ResourceType type, StatusException error) {
    Objects.requireNonNull(error, "error");
    Registration[] self = new Registration[1];
    self[0] = new Registration(Objects.requireNonNull(verb, "verb"), type, action -> {
      if (reactors.remove(self[0])) { // only the first of concurrent callers removes it
        throw error;
      }
      return Reaction.passThrough();
    });
    reactors.addFirst(self[0]);
  }

  /** Ends this client's open watches (their next() returns empty). Idempotent. */
  @Override
  public void close() {
    closed = true;
    for (WatchStream<?> s : List.copyOf(streams)) {
      s.close();
    }
  }

  // ---- for FakeResourceClient ---------------------------------------------------------

  /** Records {@code action} and runs the reactors; passThrough means the tracker serves it. */
  Reaction react(Action action) {
    if (closed) {
      throw new IllegalStateException("FakeClient is closed");
    }
    synchronized (actions) {
      actions.add(action);
    }
    for (Registration r : reactors) {
      if (r.matches(action)) {
        Reaction reaction = r.reactor.react(action);
        if (reaction != null && reaction.handled()) {
          return reaction;
        }
      }
    }
    return Reaction.passThrough();
  }

  /** Wraps a tracker watch as this client's stream, closed with the client. */
  <T> WatchStream<T> register(TrackerWatch watch, ObjectCodec<T> codec) {
    FakeWatchStream<T> stream = new FakeWatchStream<>(watch, codec, streams::remove);
    streams.add(stream);
    if (closed) {
      stream.close();
    }
    return stream;
  }

  /** A registered reactor; compared by identity, so a one-shot one removes only itself. */
  private static final class Registration {
    private final String verb;
    private final ResourceType type;
    private final Reactor reactor;

    Registration(String verb, ResourceType type, Reactor reactor) {
      this.verb = verb;
      this.type = type;
      this.reactor = reactor;
    }

    boolean matches(Action action) {
      return action.is(verb, type);
    }
  }
}
