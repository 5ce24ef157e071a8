package io.listwatch.apiserver.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.registry.ResourceDefinition;
import java.util.Set;

/**
 * Per-kind rules beyond metadata, as kube's registry strategies hold them: what a new object
 * of a kind starts with (a namespace Active, a pod Pending with its QoS class, a volume
 * Pending, a job's generated selector), what only a subresource may change, and what may not
 * be deleted ({@link Defaulting} holds the defaults of every write). Stateless.
 */
final class Strategies {

  /** Namespaces kube creates at start and refuses to delete. */
  static final Set<String> PROTECTED_NAMESPACES = Set.of("default", "kube-system", "kube-public");

  private static final Set<String> APPS_WORKLOADS = Set.of("deployments", "replicasets", "statefulsets", "daemonsets");

  private Strategies() {
  }

  /** Fills what the server sets on a new object of this kind (a namespace starts Active). */
  static void prepareForCreate(ResourceDefinition def, ObjectNode obj, java.time.Instant now) {
    if (isNamespaces(def)) {
      obj.putObject("status").put("phase", "Active");
      // kube's namespace strategy: the namespace controller's finalizer is added to the client's
      ObjectNode spec = obj.get("spec") instanceof ObjectNode s ? s : obj.putObject("spec");
      com.fasterxml.jackson.databind.node.ArrayNode finalizers = spec.get("finalizers")
          instanceof com.fasterxml.jackson.databind.node.ArrayNode a ? a : spec.putArray("finalizers");
      boolean present = false;
      for (JsonNode f : finalizers) {
        present |= f.asText().equals(Deletion.NAMESPACE_FINALIZER);
      }
      if (!present) {
        finalizers.add(Deletion.NAMESPACE_FINALIZER);
      }
    }
    if (def.clearsStatusOnCreate()) {
      obj.remove("status");
    }
    if (def.group().isEmpty() && def.plural().equals("pods")) {
      // kube's pod strategy: a new pod is Pending with its QoS class, whatever status it came with
      obj.putObject("status").put("phase", "Pending")
          .put("qosClass", io.listwatch.api.core.PodQosClass.of(obj.path("spec")));
    }
    if (def.group().equals("batch") && def.plural().equals("jobs")) {
      generateJobSelector(obj);
    }
    if (def.group().isEmpty() && def.plural().equals("persistentvolumes")) {
      obj.putObject("status").put("phase", "Pending")
          .put("lastPhaseTransitionTime", io.listwatch.api.meta.ObjectMetaRules.timestamp(now));
    }
  }

  /**
   * kube's job strategy: unless {@code spec.manualSelector} is true, the job's pods are labelled
   * with its name and uid ({@code batch.kubernetes.io/job-name}, {@code job-name},
   * {@code batch.kubernetes.io/controller-uid}, {@code controller-uid}; labels the template
   * already has are kept) and the selector matches the uid, which makes the pods this job's
   * alone. A selector sent without {@code manualSelector: true} is refused (422, kube's
   * "`selector` not auto-generated"). Called after the uid is set.
   */
  private static void generateJobSelector(ObjectNode job) {
    ObjectNode spec = job.get("spec") instanceof ObjectNode sp ? sp : job.putObject("spec");
    if (spec.path("manualSelector").asBoolean(false)) {
      return;
    }
    String name = job.path("metadata").path("name").asText();
    String uid = job.path("metadata").path("uid").asText();
    ObjectNode template = spec.get("template") instanceof ObjectNode t ? t : spec.putObject("template");
    ObjectNode meta = template.get("metadata") instanceof ObjectNode m ? m : template.putObject("metadata");
    ObjectNode labels = meta.get("labels") instanceof ObjectNode l ? l : meta.putObject("labels");
    for (String key : new String[] {"job-name", "batch.kubernetes.io/job-name"}) {
      if (!labels.has(key)) {
        labels.put(key, name);
      }
    }
    for (String key : new String[] {"controller-uid", "batch.kubernetes.io/controller-uid"}) {
      if (!labels.has(key)) {
        labels.put(key, uid);
      }
    }
    JsonNode given = spec.get("selector");
    if (given != null && !given.isNull() && !given.isEmpty()) {
      // kube's validation: without manualSelector, the selector is the server's to generate
      throw StatusException.invalid("batch", "Job", job.path("metadata").path("name").asText(),
          java.util.List.of(new io.listwatch.api.Status.Cause(io.listwatch.api.Reasons.FIELD_VALUE_INVALID,
              "Invalid value: " + given + ": `selector` not auto-generated", "spec.selector")));
    }
    spec.putObject("selector").putObject("matchLabels").put("batch.kubernetes.io/controller-uid", uid);
  }

  /**
   * What kube's status strategies reset beyond the spec on {@code /status}: the labels of apps
   * workloads (deployments, replicasets, statefulsets, daemonsets) and a pod's ownerReferences.
   */
  static void prepareForStatusUpdate(ResourceDefinition def, ObjectNode updated, ObjectNode current) {
    ObjectNode meta = ObjectMetaDefaults.metadata(updated);
    JsonNode old = current.path("metadata");
    if (def.group().equals("apps") && APPS_WORKLOADS.contains(def.plural())) {
      copy(old, meta, "labels");
    } else if (def.group().isEmpty() && def.plural().equals("pods")) {
      copy(old, meta, "ownerReferences");
    }
  }

  /**
   * kube's namespace strategies: {@code spec.finalizers} changes only through {@code /finalize},
   * which changes nothing else; an ordinary update or patch keeps the stored finalizers.
   *
   * @param finalize whether {@code updated} came through {@code /finalize}
   */
  static void prepareNamespaceFinalizers(ResourceDefinition def, boolean finalize, ObjectNode updated,
      ObjectNode current) {
    if (!isNamespaces(def)) {
      return;
    }
    JsonNode stored = current.path("spec").path("finalizers");
    if (finalize) {
      JsonNode wanted = updated.path("spec").path("finalizers");
      ObjectNode result = current.deepCopy();
      ObjectMetaDefaults.metadata(result).remove("resourceVersion"); // stored without it, as every update
      ObjectNode spec = result.get("spec") instanceof ObjectNode sp ? sp : result.putObject("spec");
      if (wanted.isMissingNode() || wanted.isNull()) {
        spec.remove("finalizers");
      } else {
        spec.set("finalizers", wanted.deepCopy());
      }
      updated.removeAll();
      updated.setAll(result);
      return;
    }
    ObjectNode spec = updated.get("spec") instanceof ObjectNode sp ? sp : updated.putObject("spec");
    if (stored.isMissingNode()) {
      spec.remove("finalizers");
    } else {
      spec.set("finalizers", stored.deepCopy());
    }
    if (spec.isEmpty() && !current.has("spec")) {
      updated.remove("spec");
    }
  }

  private static void copy(JsonNode from, ObjectNode to, String field) {
    if (from.has(field)) {
      to.set(field, from.get(field).deepCopy());
    } else {
      to.remove(field);
    }
  }

  /** Refuses deletes kube refuses: the built-in namespaces (403 Forbidden). */
  static void checkDelete(ResourceDefinition def, String name) {
    if (isNamespaces(def) && PROTECTED_NAMESPACES.contains(name)) {
      throw StatusException.forbidden("", "namespaces", name, "this namespace may not be deleted");
    }
  }

  private static boolean isNamespaces(ResourceDefinition def) {
    return def.group().isEmpty() && def.plural().equals("namespaces");
  }
}
