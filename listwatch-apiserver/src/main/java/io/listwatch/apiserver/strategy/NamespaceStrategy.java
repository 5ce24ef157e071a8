package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.api.meta.ObjectMetaRules;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Namespaces (core/v1), kube's namespace strategies: a new namespace is Active with the
 * namespace controller's finalizer ({@value #FINALIZER}) added to {@code spec.finalizers};
 * {@code spec.finalizers} changes only through {@code /finalize}, which changes nothing else
 * (an ordinary update, patch or {@code /status} write keeps the stored finalizers); the
 * namespaces kube creates at start may not be deleted. kube's {@code ValidateNamespace}: each
 * of {@code spec.finalizers} is a qualified name and, without a domain, a standard finalizer
 * ({@code kubernetes}, {@code orphan}, {@code foregroundDeletion}); the errors are at
 * {@code spec.finalizers} (kube's path, without an index) on create and update and at
 * {@code spec.finalizers[i]} on {@code /finalize}. A {@code /status} write must leave the phase
 * {@code Active} while the namespace is not being deleted and {@code Terminating} once it is
 * ({@code status.Phase}, kube's path).
 */
final class NamespaceStrategy implements RestStrategy {

  /** The namespace finalizer kube puts in every namespace's {@code spec.finalizers}. */
  static final String FINALIZER = "kubernetes";

  /** Namespaces kube creates at start and refuses to delete. */
  static final Set<String> PROTECTED = Set.of("default", "kube-system", "kube-public");

  /** kube's {@code IsStandardFinalizerName}: the finalizers that need no domain. */
  private static final Set<String> STANDARD_FINALIZERS = Set.of(FINALIZER, "orphan", "foregroundDeletion");

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
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    for (JsonNode f : obj.path("spec").path("finalizers")) {
      finalizerName(f.asText(""), "spec.finalizers", errors);
    }
  }

  /** kube's status strategy: {@code ValidateNamespaceStatusUpdate}'s phase rule, refused with a 422. */
  @Override
  public void prepareForStatusUpdate(ObjectNode obj, ObjectNode old) {
    keepStoredFinalizers(obj, old);
    String phase = obj.path("status").path("phase").asText("");
    boolean deleting = obj.path("metadata").hasNonNull("deletionTimestamp");
    List<Status.Cause> errors = new ArrayList<>();
    if (!deleting && !phase.equals("Active")) {
      errors.add(FieldErrors.invalid("status.Phase", phase, "may only be 'Active' if `deletionTimestamp` is empty"));
    } else if (deleting && !phase.equals("Terminating")) {
      errors.add(FieldErrors.invalid("status.Phase", phase, "may only be 'Terminating' if `deletionTimestamp` is not empty"));
    }
    StatusValidation.refuse("", "Namespace", obj, errors);
  }

  /**
   * The stored namespace with the finalizers {@code obj} asks for, and nothing else of
   * {@code obj}; kube's {@code ValidateNamespaceFinalizeUpdate} refuses bad names with a 422.
   */
  @Override
  public void prepareForFinalize(ObjectNode obj, ObjectNode old) {
    JsonNode wanted = obj.path("spec").path("finalizers");
    List<Status.Cause> errors = new ArrayList<>();
    for (int i = 0; i < wanted.size(); i++) {
      finalizerName(wanted.get(i).asText(""), "spec.finalizers[" + i + "]", errors);
    }
    StatusValidation.refuse("", "Namespace", obj, errors);
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

  /** kube's {@code validateFinalizerName}: a qualified name, and a standard one if it has no domain. */
  private static void finalizerName(String name, String path, List<Status.Cause> errors) {
    for (String msg : NameSyntax.isQualifiedName(name)) {
      errors.add(FieldErrors.invalid(path, name, msg));
    }
    if (!name.contains("/") && !STANDARD_FINALIZERS.contains(name)) {
      errors.add(FieldErrors.invalid(path, name, "name is neither a standard finalizer name nor is it fully qualified"));
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
