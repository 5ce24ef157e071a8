package io.listwatch.client.testing;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.api.StatusException;
import io.listwatch.client.Config;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ObjectCodec;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.internal.RestResourceClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link KubeClient} for tests (client-go's fake clientset), served in memory by a
 * {@link FakeApiServer}: listwatch's own API core, so every rule a call meets (defaults,
 * validation, resourceVersions and conflicts, paging, watch replay, 410s, bookmarks, field
 * managers) is the server's, and informers and controllers run against it unchanged. The
 * requests and their decoding are the HTTP client's own; only the socket is missing.
 *
 * <p>Every call is recorded as an {@link Action} ({@link #actions()}), then offered to the
 * {@link Reactor}s in order; the first that handles it answers, otherwise the server does.
 *
 * <pre>{@code
 * FakeClient client = FakeClient.withObjects(ResourceType.PODS, podCodec, pod1, pod2);
 * client.failNext(Action.UPDATE, ResourceType.PODS, conflict);   // one 409, then normal
 * runController(client);
 * assertThat(client.actionsFor(Action.CREATE, ResourceType.REPLICASETS)).hasSize(1);
 * client.server().compact();             // old resourceVersions now get 410
 * client.server().closeAllWatches();     // as if connections dropped
 * }</pre>
 *
 * <p>As on a real server, a namespace must exist before objects are created in it (the
 * server starts with {@code default}, {@code kube-system}, {@code kube-public} and
 * {@code kube-node-lease}); {@linkplain #seed seeding} creates the namespaces its objects name.
 * A namespaced object created or updated without a namespace goes to the default namespace
 * ({@value Config#DEFAULT_NAMESPACE} unless {@link #defaultNamespace(String)} says otherwise),
 * as the HTTP client sends it to its config's namespace; the recorded {@link Action} names that
 * namespace.
 *
 * <p>Thread-safe. {@link #close()} ends this client's watches; further calls throw
 * {@link IllegalStateException}. The server may be shared by several clients; closing a client
 * does not stop it.
 */
public final class FakeClient implements KubeClient {

  private final FakeApiServer server;
  /** Whether closing this client stops its server (it made the server itself). */
  private final boolean ownsServer;
  private final CoreTransport transport;
  /** In call order. */
  @GuardedBy("actions")
  private final List<Action> actions = new ArrayList<>();
  /** Consulted in order, before the server. */
  private final List<Registration> reactors = new CopyOnWriteArrayList<>();
  private volatile boolean closed;
  private volatile String defaultNamespace = Config.DEFAULT_NAMESPACE;

  private FakeClient(FakeApiServer server, boolean ownsServer) {
    this.server = Objects.requireNonNull(server, "server");
    this.ownsServer = ownsServer;
    this.transport = server.connect(() -> defaultNamespace);
  }

  /** A client of a new, empty server of its own (stopped when the client closes). */
  public static FakeClient create() {
    return new FakeClient(FakeApiServer.create(), true);
  }

  /** A client of {@code server} (e.g. one built with a small watch cache, or shared). */
  public static FakeClient create(FakeApiServer server) {
    return new FakeClient(server, false);
  }

  /** A client of a new server seeded with {@code objects} (see {@link FakeApiServer#add}). */
  @SafeVarargs
  public static <T> FakeClient withObjects(ResourceType type, ObjectCodec<T> codec, T... objects) {
    return create().seed(type, codec, objects);
  }

  /** Seeds more objects (see {@link FakeApiServer#add}); records no actions. Returns this. */
  @SafeVarargs
  public final <T> FakeClient seed(ResourceType type, ObjectCodec<T> codec, T... objects) {
    for (T object : objects) {
      server.add(type, codec, object);
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

  /** The server behind this client. */
  public FakeApiServer server() {
    return server;
  }

  @Override
  public <T> ResourceClient<T> resource(ResourceType type, ObjectCodec<T> codec) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(codec, "codec");
    return new FakeResourceClient<>(this, RestResourceClient.of(transport, type, codec));
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

  /** Puts {@code reactor} last (still before the server); arguments as {@link #prependReactor}. */
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

  /**
   * Ends this client's open watches (their next() returns empty), and stops the server if this
   * client created it. Idempotent.
   */
  @Override
  public void close() {
    closed = true;
    transport.close();
    server.disconnect(transport);
    if (ownsServer) {
      server.close();
    }
  }

  // ---- for FakeResourceClient ---------------------------------------------------------

  /** Records {@code action} and runs the reactors; passThrough means the server serves it. */
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

  /**
   * A registered reactor. Equal only to a registration of the same reactor for the same calls
   * (reactors are compared by identity), so a one-shot one removes only itself.
   */
  private record Registration(String verb, ResourceType type, Reactor reactor) {
    boolean matches(Action action) {
      return action.is(verb, type);
    }
  }
}
