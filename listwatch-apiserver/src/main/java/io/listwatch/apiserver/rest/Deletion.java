package io.listwatch.apiserver.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.meta.ObjectMetaRules;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.strategy.RestStrategy;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * What a DELETE does to one object, as kube's registry store decides it for every kind, with
 * the kind's own part asked of its {@link RestStrategy}: remove it now, or mark it
 * ({@code deletionTimestamp}) and let it go later.
 *
 * <ul>
 *   <li><b>Grace period</b> ({@link RestStrategy#gracePeriodSeconds}; pods have one): the object
 *       gets {@code deletionTimestamp = now + grace} and {@code deletionGracePeriodSeconds =
 *       grace} and is removed when the grace ends or when deleted again with a shorter one (a
 *       node agent confirms with 0). A second delete never lengthens the grace.
 *   <li><b>Propagation</b>: {@code Orphan} adds the finalizer {@code orphan}, {@code Foreground}
 *       the finalizer {@code foregroundDeletion} (the garbage collector removes them once the
 *       dependents are orphaned, or the blocking ones are gone); {@code Background} removes the
 *       object and lets the garbage collector delete the dependents afterwards. Without a policy
 *       in the request: Orphan for kinds whose strategy says so (batch/v1 Jobs), else
 *       Background.
 *   <li><b>Finalizers</b>: an object with any finalizer is only marked; it goes once an update
 *       removes the last one, if its grace period has run out ({@link #readyToRemove}).
 *   <li><b>The kind's own delete</b> ({@link RestStrategy#prepareForDelete},
 *       {@link RestStrategy#holdsDeletion}): a namespace becomes Terminating and stays while its
 *       {@code spec.finalizers} is not empty; a CustomResourceDefinition gets its cleanup
 *       finalizer and the Terminating condition.
 * </ul>
 * Stateless.
 */
final class Deletion {

  /** The garbage collector's finalizer for foreground deletion. */
  static final String FOREGROUND = "foregroundDeletion";
  /** The garbage collector's finalizer for orphaning dependents. */
  static final String ORPHAN = "orphan";

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
  static Plan plan(RestStrategy strategy, ObjectNode current, DeleteOptions options, Instant now) {
    DeleteOptions.Propagation propagation = options.propagation() != null ? options.propagation()
        : strategy.orphansDependentsByDefault() ? DeleteOptions.Propagation.Orphan : DeleteOptions.Propagation.Background;
    long grace = strategy.gracePeriodSeconds(current, options.gracePeriodSeconds());
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
    boolean held = strategy.holdsDeletion(current);
    ObjectNode marked = current.deepCopy();
    if (!ObjectMetaRules.isMarkedForDeletion(current)) {
      strategy.prepareForDelete(marked, finalizers, now);
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
      if (grace == 0 && finalizers.isEmpty() && !held) {
        return new Plan(null, 0);
      }
      meta.put("deletionTimestamp", ObjectMetaRules.timestamp(now.plusSeconds(grace)));
      meta.put("deletionGracePeriodSeconds", grace);
      timer = grace;
    }
    if (grace == 0 && finalizers.isEmpty() && !held) {
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
   * ({@code deletionGracePeriodSeconds} 0) and nothing of its kind holding it
   * ({@link RestStrategy#holdsDeletion}).
   */
  static boolean readyToRemove(RestStrategy strategy, ObjectNode obj) {
    return ObjectMetaRules.isMarkedForDeletion(obj)
        && ObjectMetaRules.finalizers(obj).isEmpty()
        && obj.path("metadata").path("deletionGracePeriodSeconds").asLong(0) == 0
        && !strategy.holdsDeletion(obj);
  }
}
