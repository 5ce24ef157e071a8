package io.listwatch.server.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.apiserver.cacher.CacheListener;
import io.listwatch.apiserver.cacher.CachedObject;
import io.listwatch.apiserver.cacher.WatchCacheEvent;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RBAC objects the authorizer decides from: every Role, ClusterRole, RoleBinding and
 * ClusterRoleBinding, parsed once, kept current from the server's watch caches (one
 * {@link CacheListener} per resource, see {@link #rolesListener()} and friends). kube's
 * authorizer reads the same objects through informer listers.
 *
 * <p>Thread-safe: each resource's listener writes only its own maps (on that resource's
 * cacher thread); readers on any thread see each object whole, never blocking. A change is
 * visible to readers once the cacher has applied it, so a consistent read of the resource
 * (resourceVersion "") that returns the change proves the authorizer sees it.
 */
public final class PolicyCache {

  private static final Logger LOG = LoggerFactory.getLogger(PolicyCache.class);
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** Roles by namespace, then name. */
  private final Map<String, Map<String, Role>> roles = new ConcurrentHashMap<>();
  private final Map<String, Role> clusterRoles = new ConcurrentHashMap<>();
  /** RoleBindings by namespace, then name. */
  private final Map<String, Map<String, Binding>> roleBindings = new ConcurrentHashMap<>();
  private final Map<String, Binding> clusterRoleBindings = new ConcurrentHashMap<>();
  /** Told after each ClusterRole change, on the clusterroles cacher's thread. */
  private final List<Runnable> clusterRoleObservers = new CopyOnWriteArrayList<>();

  public Optional<Role> role(String namespace, String name) {
    return Optional.ofNullable(roles.getOrDefault(namespace, Map.of()).get(name));
  }

  public Optional<Role> clusterRole(String name) {
    return Optional.ofNullable(clusterRoles.get(name));
  }

  /** A snapshot of the ClusterRoles (weakly consistent). */
  public List<Role> clusterRoles() {
    return List.copyOf(clusterRoles.values());
  }

  public Collection<Binding> clusterRoleBindings() {
    return clusterRoleBindings.values();
  }

  public Collection<Binding> roleBindings(String namespace) {
    return roleBindings.getOrDefault(namespace, Map.of()).values();
  }

  /** Runs {@code observer} after every ClusterRole change; it must not block (see {@link CacheListener}). */
  public void onClusterRoleChange(Runnable observer) {
    clusterRoleObservers.add(observer);
  }

  /** Feeds Roles. */
  public CacheListener rolesListener() {
    return new Feed<>("roles", Role::fromJson, namespaced(roles), () -> { });
  }

  /** Feeds ClusterRoles. */
  public CacheListener clusterRolesListener() {
    return new Feed<>("clusterroles", Role::fromJson, Store.of(clusterRoles),
        () -> clusterRoleObservers.forEach(Runnable::run));
  }

  /** Feeds RoleBindings. */
  public CacheListener roleBindingsListener() {
    return new Feed<>("rolebindings", Binding::fromJson, namespaced(roleBindings), () -> { });
  }

  /** Feeds ClusterRoleBindings. */
  public CacheListener clusterRoleBindingsListener() {
    return new Feed<>("clusterrolebindings", Binding::fromJson, Store.of(clusterRoleBindings), () -> { });
  }

  /** Where one resource's parsed objects go, keyed by namespace ("" if cluster-scoped) and name. */
  private interface Store<T> {
    void put(String namespace, String name, T value);

    void remove(String namespace, String name);

    void clear();

    static <T> Store<T> of(Map<String, T> map) {
      return new Store<>() {
        @Override
        public void put(String namespace, String name, T value) {
          map.put(name, value);
        }

        @Override
        public void remove(String namespace, String name) {
          map.remove(name);
        }

        @Override
        public void clear() {
          map.clear();
        }
      };
    }
  }

  private static <T> Store<T> namespaced(Map<String, Map<String, T>> map) {
    return new Store<>() {
      @Override
      public void put(String namespace, String name, T value) {
        map.computeIfAbsent(namespace, n -> new ConcurrentHashMap<>()).put(name, value);
      }

      @Override
      public void remove(String namespace, String name) {
        Map<String, T> inNamespace = map.get(namespace);
        if (inNamespace != null) {
          inNamespace.remove(name);
        }
      }

      @Override
      public void clear() {
        map.clear();
      }
    };
  }

  /** A listener that parses each object and keeps it in its store. */
  private static final class Feed<T> implements CacheListener {
    private final String resource;
    private final Function<JsonNode, T> parser;
    private final Store<T> store;
    /** Told after each change. */
    private final Runnable changed;

    Feed(String resource, Function<JsonNode, T> parser, Store<T> store, Runnable changed) {
      this.resource = resource;
      this.parser = parser;
      this.store = store;
      this.changed = changed;
    }

    @Override
    public void onReplace(List<CachedObject> objects, long resourceVersion) {
      store.clear();
      objects.forEach(this::put);
      changed.run();
    }

    @Override
    public void onEvent(WatchCacheEvent event) {
      CachedObject o = event.object();
      if (event.type() == WatchCacheEvent.Type.DELETED) {
        store.remove(o.namespace(), o.name());
      } else {
        put(o);
      }
      changed.run();
    }

    private void put(CachedObject o) {
      try {
        store.put(o.namespace(), o.name(), parser.apply(MAPPER.readTree(o.json())));
      } catch (IOException | RuntimeException e) {
        // a stored object the authorizer cannot read grants nothing
        store.remove(o.namespace(), o.name());
        LOG.warn("PolicyCache[{}]: cannot read {}/{}; it grants nothing", resource, o.namespace(), o.name(), e);
      }
    }

    @Override
    public String toString() {
      return "PolicyCache[" + resource + "]";
    }
  }
}
