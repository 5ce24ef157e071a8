package io.listwatch.apiserver.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.quota.QuotaEvaluator;
import io.listwatch.apiserver.quota.QuotaRegistry;
import io.listwatch.apiserver.quota.ResourceList;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube's {@code ResourceQuota} admission plug-in (validating only): a write that would take a
 * namespace's usage over one of its ResourceQuotas is refused, and one that fits is charged to
 * them before it is stored.
 *
 * <h2>What is measured</h2>
 * Each resource's {@link QuotaEvaluator} ({@link QuotaRegistry}) says what an object uses; a
 * create is measured, an update only for the resources whose usage can change (Services,
 * PersistentVolumeClaims), by what it adds to the old object's usage. Subresources, cluster-scoped
 * resources and Events are not measured. A quota applies when its {@code status.hard} names a
 * resource the evaluator tracks and the object is in all of its scopes; a quota the
 * controller has not yet measured ({@code status.hard} empty) applies to nothing, as in kube.
 *
 * <h2>Refusals (403 Forbidden, kube's messages)</h2>
 * <ul>
 *   <li>{@code exceeded quota: <quota>, requested: pods=1, used: pods=2, limited: pods=2}: the
 *       object's usage plus {@code status.used} is above {@code status.hard};</li>
 *   <li>{@code failed quota: <quota>: must specify limits.cpu for: a,b}: the quota tracks CPU or
 *       memory and a container does not state it;</li>
 *   <li>{@code status unknown for quota: <quota>, resources: ...}: a tracked resource has no
 *       {@code status.used} yet;</li>
 *   <li>{@code quota usage is negative for resource(s): ...}.</li>
 * </ul>
 *
 * <h2>Charging</h2>
 * Every quota that applies gets the new usage in {@code status.used}, written with a
 * compare-and-swap on its resourceVersion ({@link QuotaAccessor#updateStatus}) before the object
 * is stored; a quota changed meanwhile is read again and checked again, up to three times (then
 * the write fails with the Conflict), as kube's quota evaluator does. A dry run is checked and not
 * charged. The quotas are read from the watch cache ({@link Listers}); a quota this plug-in
 * wrote is used as written until the cache has caught up (kube's {@code updatedQuotas}). Writes
 * of one namespace are checked one at a time (kube batches them per namespace), so that they do
 * not race for the same quotas. Usage is released by the resource quota controller
 * ({@code controller.ResourceQuotaController}), which measures the namespace again when objects
 * are deleted, as kube-controller-manager's does; as in kube, a write refused after it was charged
 * (by a later plug-in or by storage) stays charged until the controller measures again.
 *
 * <p>Thread-safe.
 */
public final class ResourceQuota implements AdmissionPlugin {

  private static final int RETRIES = 3;

  /**
   * What the plug-in needs of the server beyond {@link Listers} (kube's {@code QuotaAccessor}):
   * quotas as stored now and compare-and-swap writes of their status. Implementations are
   * thread-safe.
   */
  public interface QuotaAccessor {

    /** The quota as storage has it now (with its resourceVersion), or empty when it is gone. */
    CompletableFuture<Optional<ObjectNode>> get(String namespace, String name);

    /**
     * Stores {@code quota}'s {@code status} if the stored quota still has {@code quota}'s
     * resourceVersion; fails with 409 Conflict when it changed, 404 when it is gone. Returns
     * the stored quota.
     */
    CompletableFuture<ObjectNode> updateStatus(ObjectNode quota);

    /** The server's time (a pod stuck being deleted stops being charged). */
    Instant now();
  }

  private final Listers listers;
  private final QuotaAccessor accessor;
  /** Quotas as this plug-in last wrote them, by namespace/name, until the cache has them. */
  private final Map<String, ObjectNode> written = new ConcurrentHashMap<>();
  /** Per namespace, the end of the last check queued: the next one starts after it. */
  private final Map<String, CompletableFuture<Void>> turns = new ConcurrentHashMap<>();

  public ResourceQuota(Listers listers, QuotaAccessor accessor) {
    this.listers = listers;
    this.accessor = accessor;
  }

  @Override
  public CompletableFuture<Void> validate(AdmissionAttributes a) {
    if (!a.subresource().isEmpty() || a.namespace().isEmpty() || !a.resource().namespaced()) {
      return CompletableFuture.completedFuture(null);
    }
    Optional<QuotaEvaluator> found = QuotaRegistry.forResource(a.resource().group(), a.resource().plural());
    if (found.isEmpty() || (a.operation() == AdmissionAttributes.Operation.UPDATE && !found.get().handlesUpdates())) {
      return CompletableFuture.completedFuture(null);
    }
    if (listers.list("", "resourcequotas", a.namespace()).isEmpty()) {
      return CompletableFuture.completedFuture(null); // the common case: nothing to check, nothing to wait for
    }
    QuotaEvaluator evaluator = found.get();
    return inTurn(a.namespace(), () -> admit(a, evaluator, quotas(a.namespace()), RETRIES));
  }

  /** Runs {@code check} after every check of {@code namespace} queued before it has ended. */
  private CompletableFuture<Void> inTurn(String namespace, java.util.function.Supplier<CompletableFuture<Void>> check) {
    CompletableFuture<Void> mine = new CompletableFuture<>();
    CompletableFuture<Void> before = turns.put(namespace, mine);
    CompletableFuture<Void> start = before == null ? CompletableFuture.completedFuture(null) : before;
    return start.thenCompose(v -> check.get()).whenComplete((v, e) -> {
      turns.remove(namespace, mine);
      mine.complete(null);
    });
  }

  /** The namespace's quotas from the cache, each replaced by the one this plug-in wrote when that is newer. */
  private List<ObjectNode> quotas(String namespace) {
    List<ObjectNode> out = new ArrayList<>();
    java.util.Set<String> keys = new java.util.HashSet<>();
    for (ObjectNode cached : listers.list("", "resourcequotas", namespace)) {
      String key = namespace + "/" + cached.path("metadata").path("name").asText();
      keys.add(key);
      ObjectNode mine = written.get(key);
      if (mine != null && version(mine) > version(cached)) {
        out.add(mine.deepCopy());
      } else {
        written.remove(key, mine);
        out.add(cached);
      }
    }
    written.keySet().removeIf(k -> k.startsWith(namespace + "/") && !keys.contains(k)); // quotas deleted since
    return out;
  }

  private static long version(JsonNode obj) {
    try {
      return Long.parseLong(obj.path("metadata").path("resourceVersion").asText("0"));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /**
   * Checks {@code a} against {@code quotas} and charges those that change; quotas whose write
   * conflicts are read again and checked again while {@code retries} last.
   */
  private CompletableFuture<Void> admit(AdmissionAttributes a, QuotaEvaluator evaluator, List<ObjectNode> quotas,
      int retries) {
    List<ObjectNode> charged;
    try {
      charged = check(a, evaluator, quotas);
    } catch (StatusException refused) {
      return CompletableFuture.failedFuture(refused);
    }
    if (charged.isEmpty() || a.dryRun()) {
      return CompletableFuture.completedFuture(null);
    }
    List<CompletableFuture<Optional<ObjectNode>>> writes = new ArrayList<>();
    for (ObjectNode quota : charged) {
      writes.add(accessor.updateStatus(quota).handle((stored, e) -> {
        if (e == null) {
          written.put(a.namespace() + "/" + stored.path("metadata").path("name").asText(), stored);
          return Optional.<ObjectNode>empty();
        }
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        if (cause instanceof StatusException se && (se.code() == 409 || se.code() == 404)) {
          return Optional.of(quota);
        }
        throw cause instanceof RuntimeException r ? r : new CompletionException(cause);
      }));
    }
    return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).thenCompose(v -> {
      List<ObjectNode> failed = writes.stream().map(CompletableFuture::join).flatMap(Optional::stream).toList();
      if (failed.isEmpty()) {
        return CompletableFuture.completedFuture(null);
      }
      ObjectNode last = failed.get(failed.size() - 1);
      if (retries <= 0) {
        return CompletableFuture.failedFuture(StatusException.conflictModified("", "resourcequotas",
            last.path("metadata").path("name").asText()));
      }
      return reread(a.namespace(), failed).thenCompose(fresh -> admit(a, evaluator, fresh, retries - 1));
    });
  }

  /** The quotas of {@code stale} as storage has them now; those gone are left out. */
  private CompletableFuture<List<ObjectNode>> reread(String namespace, List<ObjectNode> stale) {
    List<CompletableFuture<Optional<ObjectNode>>> reads = stale.stream()
        .map(q -> accessor.get(namespace, q.path("metadata").path("name").asText())).toList();
    return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new))
        .thenApply(v -> reads.stream().map(CompletableFuture::join).flatMap(Optional::stream).toList());
  }

  /**
   * kube's {@code CheckRequest}: the quotas that {@code a} changes, each with its new
   * {@code status.used}; empty when it changes none.
   *
   * @throws StatusException 403 when a quota refuses it
   */
  private List<ObjectNode> check(AdmissionAttributes a, QuotaEvaluator evaluator, List<ObjectNode> quotas) {
    ObjectNode object = a.object();
    List<ObjectNode> applying = new ArrayList<>();
    for (ObjectNode quota : quotas) {
      if (!evaluator.matches(quota, object)) {
        continue;
      }
      String name = quota.path("metadata").path("name").asText();
      ResourceList hard = ResourceList.fromJson(quota.path("status").path("hard"));
      List<String> restricted = evaluator.matchingResources(hard.names());
      String missing = evaluator.constraints(restricted, object);
      if (missing != null) {
        throw AdmissionErrors.forbidden(a, "failed quota: " + name + ": " + missing);
      }
      ResourceList used = ResourceList.fromJson(quota.path("status").path("used"));
      if (!restricted.stream().allMatch(used::has)) {
        throw AdmissionErrors.forbidden(a, "status unknown for quota: " + name + ", resources: "
            + String.join(",", new TreeSet<>(restricted)));
      }
      applying.add(quota);
    }
    ResourceList delta = evaluator.usage(object, accessor.now());
    List<String> negative = delta.negatives();
    if (!negative.isEmpty()) {
      throw AdmissionErrors.forbidden(a, "quota usage is negative for resource(s): " + String.join(",", negative));
    }
    if (a.operation() == AdmissionAttributes.Operation.UPDATE && a.oldObject() != null
        && !a.oldObject().path("metadata").path("resourceVersion").asText("").isEmpty()) {
      delta = delta.subtractWithNonNegativeResult(evaluator.usage(a.oldObject(), accessor.now()));
    }
    if (delta.isZero() || applying.isEmpty()) {
      return List.of();
    }
    List<ObjectNode> charged = new ArrayList<>();
    for (ObjectNode quota : applying) {
      ResourceList hard = ResourceList.fromJson(quota.path("status").path("hard"));
      ResourceList used = ResourceList.fromJson(quota.path("status").path("used"));
      ResourceList requested = delta.mask(hard.names());
      ResourceList newUsage = used.add(requested);
      List<String> exceeded = newUsage.mask(requested.names()).exceeding(hard);
      if (!exceeded.isEmpty()) {
        throw AdmissionErrors.forbidden(a, "exceeded quota: " + quota.path("metadata").path("name").asText()
            + ", requested: " + requested.mask(exceeded) + ", used: " + used.mask(exceeded)
            + ", limited: " + hard.mask(exceeded));
      }
      if (!newUsage.sameAmounts(used)) {
        ObjectNode updated = quota.deepCopy();
        ((ObjectNode) updated.get("status")).set("used", usedWithNew(quota.path("status").path("used"), newUsage));
        charged.add(updated);
      }
    }
    return charged;
  }

  /** {@code status.used} with the new amounts, keeping entries that are not quantities as they are. */
  private static ObjectNode usedWithNew(JsonNode used, ResourceList newUsage) {
    ObjectNode out = used.isObject() ? ((ObjectNode) used).deepCopy() : newUsage.toJson();
    newUsage.amounts().forEach((k, v) -> out.put(k, v.toString()));
    return out;
  }
}
