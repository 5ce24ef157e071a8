package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.meta.ObjectMetaRules;
import java.time.Instant;
import java.util.Set;

/**
 * Namespaces (core/v1), kube's namespace strategies: a new namespace is Active with the
 * namespace controller's finalizer ({@value #FINALIZER}) added to {@code spec.finalizers};
 * {@code spec.finalizers} changes only through {@code /finalize}, which changes nothing else
 * (an ordinary update, patch or {@code /status} write keeps the stored finalizers); the
 * namespaces kube creates at start may not be deleted.
 */
final class NamespaceStrategy implements RestStrategy {

  /** The namespace finalizer kube puts in every namespace's {@code spec.finalizers}. */
  static final String FINALIZER = "kubernetes";

  /** Namespaces kube creates at start and refuses to delete. */
  static final Set<String> PROTECTED = Set.of("default", "kube-system", "kube-public");

  @Override
  public void prepareForCreate(ObjectNode obj, Instant now) {
    obj.putObject("status").put("phase", "Active");
    // kube's namespace strategy: the namespace controller's finalizer is added to the client's
    ObjectNode spec = obj.get("spec") instanceof ObjectNode s ? s : obj.putObject("spec");
    ArrayNode finalizers = spec.get("finalizers") instanceof ArrayNode a ? a : spec.putArray("finalizers");
    boolean present = false;
    for (JsonNode f : finalizers) {
      present |= f.asText().equals(FINALIZER);
    }
    if (!present) {
      finalizers.add(FINALIZER);
    }
  }

  @Override
  public void prepareForUpdate(ObjectNode obj, ObjectNode old) {
    keepStoredFinalizers(obj, old);
  }

  @Override
  public void prepareForStatusUpdate(ObjectNode obj, ObjectNode old) {
    keepStoredFinalizers(obj, old);
  }

  /** The stored namespace with the finalizers {@code obj} asks for, and nothing else of {@code obj}. */
  @Override
  public void prepareForFinalize(ObjectNode obj, ObjectNode old) {
    JsonNode wanted = obj.path("spec").path("finalizers");
    ObjectNode result = old.deepCopy();
    ObjectMetaRules.metadata(result).remove("resourceVersion"); // stored without it, as every update
    ObjectNode spec = result.get("spec") instanceof ObjectNode sp ? sp : result.putObject("spec");
    if (wanted.isMissingNode() || wanted.isNull()) {
      spec.remove("finalizers");
    } else {
      spec.set("finalizers", wanted.deepCopy());
    }
    obj.removeAll();
    obj.setAll(result);
  }

  /** A deleted namespace is Terminating while the namespace controller empties it. */
  @Override
  public void prepareForDelete(ObjectNode marked, java.util.Set<String> finalizers, Instant now) {
    (marked.get("status") instanceof ObjectNode s ? s : marked.putObject("status")).put("phase", "Terminating");
  }

  /** A namespace stays, marked, until its {@code spec.finalizers} is empty (the controller's {@code /finalize}). */
  @Override
  public boolean holdsDeletion(ObjectNode obj) {
    return !obj.path("spec").path("finalizers").isEmpty();
  }

  /** Refuses to delete the built-in namespaces (403 Forbidden). */
  @Override
  public void checkDelete(String name) {
    if (PROTECTED.contains(name)) {
      throw StatusException.forbidden("", "namespaces", name, "this namespace may not be deleted");
    }
  }

  private static void keepStoredFinalizers(ObjectNode obj, ObjectNode old) {
    JsonNode stored = old.path("spec").path("finalizers");
    ObjectNode spec = obj.get("spec") instanceof ObjectNode sp ? sp : obj.putObject("spec");
    if (stored.isMissingNode()) {
      spec.remove("finalizers");
    } else {
      spec.set("finalizers", stored.deepCopy());
    }
    if (spec.isEmpty() && !old.has("spec")) {
      obj.remove("spec");
    }
  }
}
