package io.listwatch.server.rbac;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.listwatch.api.LabelSelector;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.rest.ResourceStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's clusterrole-aggregation controller: keeps the rules of every ClusterRole with an
 * {@code aggregationRule} equal to the union of the rules of the ClusterRoles its selectors
 * match (itself excluded), taken in name order, each distinct rule once. Rules written into an
 * aggregated role by hand are replaced.
 *
 * <p>Any ClusterRole change (seen through the {@link PolicyCache}) marks all aggregated roles
 * for a sync on the controller's own thread, {@code rbac-clusterrole-aggregator}; marks made
 * while a sync is pending fold into it. A sync writes only roles whose rules differ, so its own
 * writes settle after one more pass. Thread-safe; {@link #start()} once, {@link #close()}
 * idempotent.
 */
final class ClusterRoleAggregator implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterRoleAggregator.class);

  private final PolicyCache cache;
  private final ResourceStore clusterRoles;
  private final ExecutorService worker = Executors.newSingleThreadExecutor(
      r -> Thread.ofPlatform().name("rbac-clusterrole-aggregator").daemon(true).unstarted(r));
  /** True while a sync is queued and has not started: further changes need no other sync. */
  private final AtomicBoolean queued = new AtomicBoolean();
  private volatile boolean closed;

  ClusterRoleAggregator(PolicyCache cache, ResourceStore clusterRoles) {
    this.cache = cache;
    this.clusterRoles = clusterRoles;
  }

  void start() {
    cache.onClusterRoleChange(this::enqueue);
    enqueue();
  }

  private void enqueue() {
    if (!closed && queued.compareAndSet(false, true)) {
      try {
        worker.execute(this::syncAll);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        queued.set(false); // closing
      }
    }
  }

  private void syncAll() {
    queued.set(false);
    for (Role role : cache.clusterRoles()) {
      if (closed) {
        return;
      }
      if (role.aggregation().isPresent()) {
        try {
          sync(role);
        } catch (RuntimeException e) {
          LOG.warn("ClusterRoleAggregator: cannot aggregate clusterrole {}", role.name(), e);
        }
      }
    }
  }

  private void sync(Role role) {
    List<PolicyRule> desired = aggregatedRules(role, cache.clusterRoles());
    if (desired.equals(role.rules())) {
      return;
    }
    try {
      clusterRoles.updateInternal("", role.name(), current -> {
        ArrayNode rules = current.putArray("rules");
        desired.forEach(r -> rules.add(r.toJson()));
        return current;
      }).get(30, TimeUnit.SECONDS);
      LOG.info("ClusterRoleAggregator: clusterrole {} now has {} rules", role.name(), desired.size());
    } catch (java.util.concurrent.ExecutionException e) {
      if (!(e.getCause() instanceof StatusException se && se.code() == 404)) {
        throw new CompletionException(e.getCause());
      }
    } catch (java.util.concurrent.TimeoutException e) {
      throw new CompletionException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The rules an aggregated role should have given all ClusterRoles. */
  static List<PolicyRule> aggregatedRules(Role role, List<Role> all) {
    List<Role> sorted = new ArrayList<>(all);
    sorted.sort(Comparator.comparing(Role::name));
    List<PolicyRule> rules = new ArrayList<>();
    for (LabelSelector selector : role.aggregation().orElse(List.of())) {
      for (Role other : sorted) {
        if (other.name().equals(role.name()) || !selector.matches(other.labels())) {
          continue;
        }
        for (PolicyRule r : other.rules()) {
          if (!rules.contains(r)) {
            rules.add(r);
          }
        }
      }
    }
    return rules;
  }

  @Override
  public void close() {
    closed = true;
    worker.shutdownNow();
  }
}
