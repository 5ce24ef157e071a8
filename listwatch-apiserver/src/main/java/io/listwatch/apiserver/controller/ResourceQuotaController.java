package io.listwatch.apiserver.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.apiserver.cacher.CacheListener;
import io.listwatch.apiserver.cacher.CachedObject;
import io.listwatch.apiserver.cacher.Cacher;
import io.listwatch.apiserver.cacher.WatchCacheEvent;
import io.listwatch.apiserver.quota.QuotaEvaluator;
import io.listwatch.apiserver.quota.QuotaRegistry;
import io.listwatch.apiserver.quota.QuotaUsage;
import io.listwatch.apiserver.quota.ResourceList;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.rest.ResourceStore;
import io.listwatch.apiserver.rest.ServedResources;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps each ResourceQuota's {@code status} (kube-controller-manager's resource quota
 * controller): {@code status.hard} mirrors {@code spec.hard}, and {@code status.used} is measured
 * again ({@link QuotaUsage}) from the objects as stored, so that usage the ResourceQuota
 * admission plug-in charged is released when objects go.
 *
 * <p>A namespace is measured again when one of its quotas is created, its {@code spec.hard}
 * changes or it has no status yet; when an object of a quota'd built-in resource in it is
 * deleted; when one of its pods ends ({@code Succeeded}, {@code Failed}); when one of its
 * Services or PersistentVolumeClaims changes; and every five minutes of the server's clock
 * (kube's full resync, which also catches custom resources, whose deletions this controller does
 * not watch). Each quota's status is written with a compare-and-swap on the resourceVersion it
 * was measured for, and measured again when the admission plug-in charged it meanwhile.
 *
 * <p>Every server runs it (no election): a measure is idempotent, and the writes are
 * compare-and-swap. As in kube, a charge made between the measure's listing and its write can be
 * lost, until the next measure.
 *
 * <p>Thread-safe: cache listeners only note namespaces and queue them; the work runs on the
 * {@code resourcequota-controller} thread.
 */
public final class ResourceQuotaController implements AutoCloseable {

  static final Duration RESYNC = Duration.ofMinutes(5);
  private static final int ATTEMPTS = 16;
  private static final ObjectMapper JSON = io.listwatch.api.JsonLimits.mapper();

  private final ServedResources resources;
  private final ResourceStore quotas;
  private final Map<ResourceDefinition, Cacher> cachers;
  private final Clock clock;
  private final ControllerQueue queue;
  /** The names of the quotas of each namespace that has any, as the quotas' cache says. */
  private final Map<String, Set<String>> quotaNames = new ConcurrentHashMap<>();
  private volatile Clock.Cancellable resync;
  private volatile boolean closed;

  /**
   * @param resources the served resources, whose stores are measured
   * @param quotas the store of ResourceQuotas
   * @param cachers the built-in resources' caches, whose deletions release usage
   */
  public ResourceQuotaController(ServedResources resources, ResourceStore quotas,
      Map<ResourceDefinition, Cacher> cachers, Clock clock) {
    this.resources = resources;
    this.quotas = quotas;
    this.cachers = Map.copyOf(cachers);
    this.clock = clock;
    this.queue = new ControllerQueue("resourcequota-controller", this::sync, ControllerQueue.Gate.ALWAYS, clock);
  }

  /** Registers the cache listeners, starts the worker and the periodic resync. */
  public void start() {
    queue.start();
    quotas.cacher().addListener(new QuotaListener());
    cachers.forEach((def, cacher) -> {
      if (def.namespaced() && !def.plural().equals("resourcequotas")
          && QuotaRegistry.forResource(def.group(), def.plural()).isPresent()) {
        cacher.addListener(new ObjectListener(def.group().isEmpty() ? def.plural() : ""));
      }
    });
    scheduleResync();
  }

  private void scheduleResync() {
    if (!closed) {
      resync = clock.schedule(RESYNC, () -> {
        quotaNames.keySet().forEach(queue::add);
        scheduleResync();
      });
    }
  }

  @Override
  public void close() {
    closed = true;
    Clock.Cancellable r = resync;
    if (r != null) {
      r.cancel();
    }
    queue.close();
  }

  /** Measures every quota of {@code namespace} again and writes the statuses that changed. */
  private void sync(String namespace) {
    List<QuotaEvaluator> evaluators = evaluators();
    for (ObjectNode quota : quotas.listInternal(namespace).join()) {
      syncQuota(quota, evaluators);
    }
  }

  private void syncQuota(ObjectNode quota, List<QuotaEvaluator> evaluators) {
    ObjectNode current = quota;
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      ObjectNode status = QuotaUsage.status(current, evaluators, this::list, clock.now());
      if (!QuotaUsage.differs(current, status)) {
        return;
      }
      String namespace = current.path("metadata").path("namespace").asText();
      String name = current.path("metadata").path("name").asText();
      String version = current.path("metadata").path("resourceVersion").asText();
      try {
        quotas.updateStatusInternal(namespace, name, stored -> {
          if (!stored.path("metadata").path("resourceVersion").asText().equals(version)) {
            throw StatusException.conflictModified("", "resourcequotas", name);
          }
          stored.set("status", status);
          return stored;
        }).join();
        return;
      } catch (CompletionException e) {
        if (!(e.getCause() instanceof StatusException se) || (se.code() != 409 && se.code() != 404)) {
          throw e;
        }
        if (se.code() == 404) {
          return;
        }
        Optional<ObjectNode> fresh = quotas.getInternal(namespace, name).join();
        if (fresh.isEmpty()) {
          return;
        }
        current = fresh.get();
      }
    }
  }

  /** An evaluator for each quota'd resource served now (built-in and custom), by group and plural. */
  private List<QuotaEvaluator> evaluators() {
    Map<String, QuotaEvaluator> out = new LinkedHashMap<>();
    for (ResourceStore store : resources.stores()) {
      ResourceDefinition def = store.resource();
      if (def.namespaced()) {
        out.computeIfAbsent(def.group() + "/" + def.plural(),
            k -> QuotaRegistry.forResource(def.group(), def.plural()).orElse(null));
      }
    }
    out.values().removeIf(java.util.Objects::isNull);
    return new ArrayList<>(out.values());
  }

  /** The objects of {@code evaluator}'s resource in {@code namespace}, as stored now. */
  private List<ObjectNode> list(QuotaEvaluator evaluator, String namespace) {
    for (ResourceStore store : resources.stores()) {
      ResourceDefinition def = store.resource();
      if (def.group().equals(evaluator.group()) && def.plural().equals(evaluator.plural())) {
        return store.listInternal(namespace).join();
      }
    }
    return List.of();
  }

  /** Notes the namespaces that have quotas; queues a namespace whose quota needs measuring. */
  private final class QuotaListener implements CacheListener {
    @Override
    public void onReplace(List<CachedObject> objects, long resourceVersion) {
      quotaNames.clear();
      for (CachedObject o : objects) {
        quotaNames.computeIfAbsent(o.namespace(), k -> ConcurrentHashMap.newKeySet()).add(o.name());
      }
      quotaNames.keySet().forEach(queue::add);
    }

    @Override
    public void onEvent(WatchCacheEvent event) {
      CachedObject o = event.object();
      switch (event.type()) {
        case ADDED -> {
          quotaNames.computeIfAbsent(o.namespace(), k -> ConcurrentHashMap.newKeySet()).add(o.name());
          queue.add(o.namespace());
        }
        case MODIFIED -> {
          if (needsMeasure(read(o), event.prevObject() == null ? null : read(event.prevObject()))) {
            queue.add(o.namespace());
          }
        }
        case DELETED -> quotaNames.computeIfPresent(o.namespace(), (ns, names) -> {
          names.remove(o.name());
          return names.isEmpty() ? null : names;
        });
      }
    }
  }

  /**
   * kube's rule for quota updates: measure when {@code spec.hard} changed, or the status lacks
   * what the spec asks for; not for status writes, which this controller and the plug-in make.
   */
  private static boolean needsMeasure(JsonNode quota, JsonNode previous) {
    ResourceList hard = ResourceList.fromJson(quota.path("spec").path("hard"));
    if (previous != null && !hard.sameAmounts(ResourceList.fromJson(previous.path("spec").path("hard")))) {
      return true;
    }
    JsonNode status = quota.path("status");
    return !hard.sameAmounts(ResourceList.fromJson(status.path("hard")))
        || !ResourceList.fromJson(status.path("used")).names().containsAll(hard.names());
  }

  /** Queues the namespace of a deleted object, or of a change that can lower usage, when it has quotas. */
  private final class ObjectListener implements CacheListener {
    /** The core resource's plural, whose changes (not only deletions) can lower usage; "" for others. */
    private final String corePlural;

    ObjectListener(String corePlural) {
      this.corePlural = corePlural;
    }

    @Override
    public void onReplace(List<CachedObject> objects, long resourceVersion) {
      // a relist: measure every namespace with quotas (harmless at startup, before any quota is known)
      quotaNames.keySet().forEach(queue::add);
    }

    @Override
    public void onEvent(WatchCacheEvent event) {
      String namespace = event.object().namespace();
      if (!quotaNames.containsKey(namespace)) {
        return;
      }
      boolean lowers = switch (event.type()) {
        case DELETED -> true;
        case MODIFIED -> switch (corePlural) {
          case "pods" -> ended(event.object()) && (event.prevObject() == null || !ended(event.prevObject()));
          case "services", "persistentvolumeclaims" -> true;
          default -> false;
        };
        case ADDED -> false;
      };
      if (lowers) {
        queue.add(namespace);
      }
    }

    private static boolean ended(CachedObject pod) {
      String phase = pod.fields().getOrDefault("status.phase", "");
      return phase.equals("Succeeded") || phase.equals("Failed");
    }
  }

  private static JsonNode read(CachedObject o) {
    try {
      return JSON.readTree(o.json());
    } catch (IOException e) {
      return JSON.createObjectNode();
    }
  }
}
