package io.listwatch.apiserver.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * kube's {@code Priority} admission plug-in.
 *
 * <p>Mutating, a new pod: its {@code spec.priority} comes from the PriorityClass that
 * {@code spec.priorityClassName} names (403 {@code no PriorityClass with name <x> was found}),
 * else from the global default class, whose name it then takes, else 0; its
 * {@code preemptionPolicy} likewise (the class's, else {@code PreemptLowerPriority}). A pod
 * that states a different priority or policy itself is refused (403, kube's messages). A pod
 * update keeps the priority and policy the pod has when the new object leaves them out.
 *
 * <p>Validating, a PriorityClass created or updated with {@code globalDefault: true}: refused
 * (403) while another class is the global default. Of several defaults (two written at once),
 * the one of lowest value counts, as in kube.
 *
 * <p>As kube since 1.17, the system classes ({@code system-node-critical},
 * {@code system-cluster-critical}) may be used in any namespace (a ResourceQuota may limit
 * them). Thread-safe: no state beyond its listers.
 */
public final class Priority implements AdmissionPlugin {

  static final String GROUP = "scheduling.k8s.io";
  static final String PREEMPT_LOWER_PRIORITY = "PreemptLowerPriority";

  private final Listers listers;

  public Priority(Listers listers) {
    this.listers = listers;
  }

  @Override
  public void admit(AdmissionAttributes a) {
    if (a.is(AdmissionAttributes.Operation.UPDATE, "", "pods")) {
      keepPriority(AdmittedObjects.object(a.object(), "spec"), a.oldObject().path("spec"));
    } else if (a.is(AdmissionAttributes.Operation.CREATE, "", "pods")) {
      admitNewPod(a, AdmittedObjects.object(a.object(), "spec"));
    }
  }

  private void admitNewPod(AdmissionAttributes a, ObjectNode spec) {
    String className = spec.path("priorityClassName").asText("");
    Optional<ObjectNode> pc;
    if (className.isEmpty()) {
      pc = globalDefault();
      pc.ifPresent(d -> spec.put("priorityClassName", d.path("metadata").path("name").asText()));
    } else {
      pc = listers.get(GROUP, "priorityclasses", "", className);
      if (pc.isEmpty()) {
        throw AdmittedObjects.forbidden(a, "no PriorityClass with name " + className + " was found");
      }
    }
    long priority = pc.map(c -> c.path("value").asLong()).orElse(0L);
    if (AdmittedObjects.isSet(spec, "priority") && spec.get("priority").asLong() != priority) {
      throw AdmittedObjects.forbidden(a, "the integer value of priority (" + spec.get("priority").asLong()
          + ") must not be provided in pod spec; priority admission controller computed " + priority
          + " from the given PriorityClass name");
    }
    spec.put("priority", priority);
    String policy = pc.isEmpty() ? PREEMPT_LOWER_PRIORITY : pc.get().path("preemptionPolicy").asText("");
    if (!policy.isEmpty()) {
      String stated = spec.path("preemptionPolicy").asText("");
      if (AdmittedObjects.isSet(spec, "preemptionPolicy") && !stated.equals(policy)) {
        throw AdmittedObjects.forbidden(a, "the string value of PreemptionPolicy (" + stated
            + ") must not be provided in pod spec; priority admission controller computed " + policy
            + " from the given PriorityClass name");
      }
      spec.put("preemptionPolicy", policy);
    }
  }

  /** What this plug-in set at create stays when an update leaves it out. */
  private static void keepPriority(ObjectNode spec, JsonNode oldSpec) {
    for (String field : new String[] {"priority", "preemptionPolicy"}) {
      if (!AdmittedObjects.isSet(spec, field) && AdmittedObjects.isSet(oldSpec, field)) {
        spec.set(field, oldSpec.get(field).deepCopy());
      }
    }
  }

  @Override
  public CompletableFuture<Void> validate(AdmissionAttributes a) {
    boolean create = a.is(AdmissionAttributes.Operation.CREATE, GROUP, "priorityclasses");
    if ((create || a.is(AdmissionAttributes.Operation.UPDATE, GROUP, "priorityclasses"))
        && a.object().path("globalDefault").asBoolean(false)) {
      Optional<ObjectNode> current = globalDefault();
      String name = a.object().path("metadata").path("name").asText("");
      if (current.isPresent() && (create || !current.get().path("metadata").path("name").asText().equals(name))) {
        return CompletableFuture.failedFuture(AdmittedObjects.forbidden(a, "PriorityClass "
            + current.get().path("metadata").path("name").asText() + " is already marked as default. Only one default can exist"));
      }
    }
    return CompletableFuture.completedFuture(null);
  }

  /** The global default PriorityClass: of several, the one of lowest value. */
  private Optional<ObjectNode> globalDefault() {
    ObjectNode found = null;
    for (ObjectNode pc : listers.list(GROUP, "priorityclasses", "")) {
      if (pc.path("globalDefault").asBoolean(false)
          && (found == null || found.path("value").asLong() > pc.path("value").asLong())) {
        found = pc;
      }
    }
    return Optional.ofNullable(found);
  }
}
