package io.listwatch.apiserver.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.meta.ObjectMetaRules;
import io.listwatch.apiserver.registry.ResourceDefinition;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * What a DELETE does to one object, as kube's registry store and the types' strategies decide
 * it: remove it now, or mark it ({@code deletionTimestamp}) and let it go later.
 *
 * <ul>
 *   <li><b>Grace period</b> (pods only, kube's pod strategy): {@code gracePeriodSeconds} from the
 *       request, else {@code spec.terminationGracePeriodSeconds}, else 30; 0 for a pod not bound
 *       to a node or already Succeeded/Failed. A pod with a grace period gets
 *       {@code deletionTimestamp = now + grace} and {@code deletionGracePeriodSeconds = grace}
 *       and is removed when the grace ends or when deleted again with a shorter one (a node
 *       agent confirms with 0). A second delete never lengthens the grace.
 *   <li><b>Propagation</b>: {@code Orphan} adds the finalizer {@code orphan}, {@code Foreground}
 *       the finalizer {@code foregroundDeletion} (the garbage collector removes them once the
 *       dependents are orphaned, or the blocking ones are gone); {@code Background} (the default
 *       of every served type but batch/v1 jobs, whose default is Orphan) removes the object and
 *       lets the garbage collector delete the dependents afterwards.
 *   <li><b>Finalizers</b>: an object with any finalizer is only marked; it goes once an update
 *       removes the last one, if its grace period has run out ({@link #readyToRemove}).
 *   <li><b>Namespaces</b>: a namespace with {@code spec.finalizers} (kube sets
 *       {@code ["kubernetes"]} at creation) is marked and its {@code status.phase} becomes
 *       {@code Terminating}; the namespace controller empties it and removes the finalizer.
 *   <li><b>CustomResourceDefinitions</b>: the first delete adds the finalizer
 *       {@code customresourcecleanup.apiextensions.k8s.io} and the condition {@code Terminating}
 *       ({@code InstanceDeletionPending}); the CRD controller deletes the custom resources,
 *       then removes the finalizer.
 * </ul>
 * Stateless.
 */
final class Deletion {

  /** The garbage collector's finalizer for foreground deletion. */
  static final String FOREGROUND = "foregroundDeletion";
  /** The garbage collector's finalizer for orphaning dependents. */
  static final String ORPHAN = "orphan";
  /** The finalizer kube puts on a CustomResourceDefinition when it is first deleted. */
  static final String CRD_CLEANUP_FINALIZER = "customresourcecleanup.apiextensions.k8s.io";
  /** kube's default {@code terminationGracePeriodSeconds}. */
  static final long DEFAULT_POD_GRACE_SECONDS = 30;

  private Deletion() {
  }

  /**
   * What to do.
   *
   * @param marked the object to store instead of removing it, or null to remove it now
   * @param graceSeconds when {@code marked} is stored: seconds after which the server removes
   *     it (0: no timer)
   */
  record Plan(ObjectNode marked, long graceSeconds) {
  }

  /** Checks the request's uid and resourceVersion preconditions (409 Conflict when they do not hold). */
  static void checkPreconditions(ResourceDefinition def, String name, ObjectNode current, DeleteOptions options) {
    ObjectNode meta = ObjectMetaRules.metadata(current);
    if (!options.uid().isEmpty() && !options.uid().equals(meta.path("uid").asText())) {
      throw StatusException.conflict(def.group(), def.plural(), name, "Precondition failed: UID in "
          + "precondition: " + options.uid() + ", UID in object meta: " + meta.path("uid").asText());
    }
    if (!options.resourceVersion().isEmpty() && !options.resourceVersion().equals(meta.path("resourceVersion").asText())) {
      throw StatusException.conflict(def.group(), def.plural(), name, "Precondition failed: "
          + "ResourceVersion in precondition: " + options.resourceVersion() + ", ResourceVersion in object meta: "
          + meta.path("resourceVersion").asText());
    }
  }

  /** Decides how {@code current} is deleted with {@code options} at {@code now}. */
  static Plan plan(ResourceDefinition def, ObjectNode current, DeleteOptions options, Instant now) {
    DeleteOptions.Propagation propagation = options.propagation() != null ? options.propagation()
        : defaultPropagation(def);
    long grace = gracePeriod(def, current, options);
    Set<String> finalizers = new LinkedHashSet<>(ObjectMetaRules.finalizers(current));
    switch (propagation) {
      case Orphan -> {
        finalizers.remove(FOREGROUND);
        finalizers.add(ORPHAN);
      }
      case Foreground -> {
        finalizers.remove(ORPHAN);
        finalizers.add(FOREGROUND);
      }
      case Background -> {
        finalizers.remove(ORPHAN);
        finalizers.remove(FOREGROUND);
      }
      default -> throw new IllegalStateException();
    }
    boolean namespaceFinalizers = isNamespace(def) && !current.path("spec").path("finalizers").isEmpty();
    ObjectNode marked = current.deepCopy();
    if (isCustomResourceDefinition(def) && !ObjectMetaRules.isMarkedForDeletion(current)) {
      finalizers.add(CRD_CLEANUP_FINALIZER);
      markCrdTerminating(marked, now);
    }
    ObjectNode meta = ObjectMetaRules.metadata(marked);
    long timer = 0;
    if (ObjectMetaRules.isMarkedForDeletion(current)) {
      long currentGrace = meta.path("deletionGracePeriodSeconds").asLong(0);
      if (grace < currentGrace) { // a second delete may shorten the grace, never lengthen it
        meta.put("deletionTimestamp", ObjectMetaRules.timestamp(now.plusSeconds(grace)));
        meta.put("deletionGracePeriodSeconds", grace);
        timer = grace;
      } else {
        grace = currentGrace;
      }
    } else {
      if (grace == 0 && finalizers.isEmpty() && !namespaceFinalizers) {
        return new Plan(null, 0);
      }
      meta.put("deletionTimestamp", ObjectMetaRules.timestamp(now.plusSeconds(grace)));
      meta.put("deletionGracePeriodSeconds", grace);
      timer = grace;
      if (isNamespace(def)) {
        (marked.get("status") instanceof ObjectNode s ? s : marked.putObject("status")).put("phase", "Terminating");
      }
    }
    if (grace == 0 && finalizers.isEmpty() && !namespaceFinalizers) {
      return new Plan(null, 0);
    }
    if (finalizers.isEmpty()) {
      meta.remove("finalizers");
    } else {
      ArrayNode f = meta.putArray("finalizers");
      finalizers.forEach(f::add);
    }
    return new Plan(marked, timer);
  }

  /**
   * Whether an object being deleted may now be removed: marked, no finalizers, no grace left
   * ({@code deletionGracePeriodSeconds} 0) and, for a namespace, no {@code spec.finalizers}.
   */
  static boolean readyToRemove(ResourceDefinition def, ObjectNode obj) {
    return ObjectMetaRules.isMarkedForDeletion(obj)
        && ObjectMetaRules.finalizers(obj).isEmpty()
        && obj.path("metadata").path("deletionGracePeriodSeconds").asLong(0) == 0
        && !(isNamespace(def) && !obj.path("spec").path("finalizers").isEmpty());
  }

  /** kube's default propagation: Orphan for batch/v1 jobs (for old clients), Background otherwise. */
  static DeleteOptions.Propagation defaultPropagation(ResourceDefinition def) {
    return def.group().equals("batch") && def.plural().equals("jobs")
        ? DeleteOptions.Propagation.Orphan : DeleteOptions.Propagation.Background;
  }

  /** kube's pod strategy {@code CheckGracefulDelete}; 0 for every other type. */
  static long gracePeriod(ResourceDefinition def, ObjectNode current, DeleteOptions options) {
    if (!(def.group().isEmpty() && def.plural().equals("pods"))) {
      return 0;
    }
    long grace = options.gracePeriodSeconds() != null ? options.gracePeriodSeconds()
        : current.path("spec").path("terminationGracePeriodSeconds").asLong(DEFAULT_POD_GRACE_SECONDS);
    if (current.path("spec").path("nodeName").asText("").isEmpty()) {
      return 0; // never scheduled: nothing runs that needs time to stop
    }
    String phase = current.path("status").path("phase").asText("");
    if (phase.equals("Succeeded") || phase.equals("Failed")) {
      return 0;
    }
    return Math.max(0, grace);
  }

  static boolean isCustomResourceDefinition(ResourceDefinition def) {
    return def.group().equals("apiextensions.k8s.io") && def.plural().equals("customresourcedefinitions");
  }

  /** kube's CRD REST Delete: the Terminating condition, before the controller starts deleting. */
  private static void markCrdTerminating(ObjectNode crd, Instant now) {
    ObjectNode status = crd.get("status") instanceof ObjectNode s ? s : crd.putObject("status");
    ArrayNode conditions = status.get("conditions") instanceof ArrayNode c ? c : status.putArray("conditions");
    for (int i = conditions.size() - 1; i >= 0; i--) {
      if (conditions.get(i).path("type").asText().equals("Terminating")) {
        conditions.remove(i);
      }
    }
    conditions.addObject().put("type", "Terminating").put("status", "True")
        .put("lastTransitionTime", ObjectMetaRules.timestamp(now)).put("reason", "InstanceDeletionPending")
        .put("message", "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon");
  }

  static boolean isNamespace(ResourceDefinition def) {
    return def.group().isEmpty() && def.plural().equals("namespaces");
  }
}
