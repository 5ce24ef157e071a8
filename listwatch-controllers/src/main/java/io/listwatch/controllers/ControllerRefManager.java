package io.listwatch.controllers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.LabelSelector;
import io.listwatch.api.StatusException;
import io.listwatch.api.patch.PatchType;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.OwnerReference;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Claims dependents for one controller object, as kube's {@code BaseControllerRefManager} and
 * {@code PodControllerRefManager} do: of the candidates (dependents of the controller's
 * namespace, e.g. every pod of a ReplicaSet's namespace), it keeps those it already controls
 * whose labels still match its selector, <b>adopts</b> orphans that match (a patch adding an
 * ownerReference with {@code controller: true} and {@code blockOwnerDeletion: true}), and
 * <b>releases</b> dependents it controls that no longer match (a patch deleting its
 * ownerReference). Dependents controlled by another object are never touched.
 *
 * <p>Rules (kube's): a controller being deleted adopts nothing and releases nothing; a
 * dependent being deleted is not adopted. Before the first adoption the controller is read
 * again from the server, uncached ({@code canAdopt}): if it is gone, has another uid, or is
 * being deleted, nothing is adopted (the cache may be stale). A dependent gone meanwhile (404)
 * is neither claimed nor an error.
 *
 * <p>Both patches are strategic merge patches keyed by the owner's uid, carrying the
 * dependent's uid as a precondition, as kube sends them. Usable for any controller and
 * dependent kind (ReplicaSets and Pods, Deployments and ReplicaSets).
 *
 * <p>One instance serves one sync of one controller object and is confined to its thread.
 */
public final class ControllerRefManager {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final ResourceClient<DynamicObject> dependents;
  private final ResourceType controllerType;
  private final DynamicObject controller;
  private final LabelSelector selector;
  private final Supplier<Optional<DynamicObject>> freshController;
  /** null until canAdopt was checked; then the answer's error, or "" when adoption is allowed. */
  private String canAdoptError;

  /**
   * @param dependents writes the dependents' patches
   * @param controllerType the controller's resource (its kind and apiVersion go in ownerReferences)
   * @param controller the controller object, as cached
   * @param selector the controller's selector of dependents
   * @param freshController reads the controller from the server, uncached (empty when gone)
   */
  public ControllerRefManager(ResourceClient<DynamicObject> dependents, ResourceType controllerType,
      DynamicObject controller, LabelSelector selector, Supplier<Optional<DynamicObject>> freshController) {
    this.dependents = Objects.requireNonNull(dependents, "dependents");
    this.controllerType = Objects.requireNonNull(controllerType, "controllerType");
    this.controller = Objects.requireNonNull(controller, "controller");
    this.selector = Objects.requireNonNull(selector, "selector");
    this.freshController = Objects.requireNonNull(freshController, "freshController");
  }

  /** The result of a claim: the dependents now controlled, and the errors of failed patches. */
  public record Claimed(List<DynamicObject> owned, List<RuntimeException> errors) {}

  /**
   * Claims among {@code candidates}; see the class comment. Adoption and release failures are
   * collected in {@link Claimed#errors()} (the dependent is then not claimed, so the caller
   * retries later) and do not stop the claim of the others.
   */
  public Claimed claim(List<DynamicObject> candidates) {
    List<DynamicObject> owned = new ArrayList<>();
    List<RuntimeException> errors = new ArrayList<>();
    boolean controllerDeleting = isBeingDeleted(controller);
    for (DynamicObject d : candidates) {
      Optional<OwnerReference> ref = controllerOf(d);
      boolean matches = selector.matches(d.labels());
      try {
        if (ref.isPresent()) {
          if (!ref.get().uid().equals(controller.uid())) {
            continue; // someone else's
          }
          if (matches) {
            owned.add(d);
          } else if (!controllerDeleting) {
            release(d);
          }
        } else if (matches && !controllerDeleting && !isBeingDeleted(d)) {
          adopt(d).ifPresent(owned::add);
        }
      } catch (RuntimeException e) {
        errors.add(e);
      }
    }
    return new Claimed(owned, errors);
  }

  private Optional<DynamicObject> adopt(DynamicObject d) {
    String refused = canAdopt();
    if (!refused.isEmpty()) {
      throw StatusException.conflict(controllerType.group(), controllerType.plural(), controller.name(),
          "cannot adopt " + d.name() + ": " + refused);
    }
    ObjectNode patch = MAPPER.createObjectNode();
    ObjectNode meta = patch.putObject("metadata");
    ArrayNode refs = meta.putArray("ownerReferences");
    refs.add(MAPPER.valueToTree(ownerReference(controllerType, controller)));
    meta.put("uid", d.uid());
    try {
      return Optional.of(dependents.patch(d.namespace(), d.name(), PatchType.STRATEGIC_MERGE_PATCH,
          patch.toString()));
    } catch (StatusException e) {
      if (e.code() == 404) {
        return Optional.empty();
      }
      throw e;
    }
  }

  private void release(DynamicObject d) {
    ObjectNode patch = MAPPER.createObjectNode();
    ObjectNode meta = patch.putObject("metadata");
    ObjectNode delete = meta.putArray("ownerReferences").addObject();
    delete.put("$patch", "delete");
    delete.put("uid", controller.uid());
    meta.put("uid", d.uid());
    try {
      dependents.patch(d.namespace(), d.name(), PatchType.STRATEGIC_MERGE_PATCH, patch.toString());
    } catch (StatusException e) {
      if (e.code() != 404 && e.code() != 422) { // gone, or being deleted: nothing to release
        throw e;
      }
    }
  }

  /** kube's {@code RecheckDeletionTimestamp}, once per claim: "" when adoption is allowed. */
  private String canAdopt() {
    if (canAdoptError == null) {
      Optional<DynamicObject> fresh = freshController.get();
      if (fresh.isEmpty()) {
        canAdoptError = controllerType.kind() + " " + controller.name() + " is gone";
      } else if (!fresh.get().uid().equals(controller.uid())) {
        canAdoptError = "original " + controllerType.kind() + " " + controller.name() + " is gone: got uid "
            + fresh.get().uid() + ", wanted " + controller.uid();
      } else if (isBeingDeleted(fresh.get())) {
        canAdoptError = controllerType.kind() + " " + controller.name() + " has just been deleted";
      } else {
        canAdoptError = "";
      }
    }
    return canAdoptError;
  }

  /**
   * The ownerReference a controller puts on its dependents: its apiVersion, kind, name and
   * uid, {@code controller: true}, {@code blockOwnerDeletion: true} (kube's
   * {@code NewControllerRef}).
   */
  public static OwnerReference ownerReference(ResourceType controllerType, DynamicObject controller) {
    return new OwnerReference(controllerType.apiVersion(), controllerType.kind(), controller.name(),
        controller.uid(), true, true);
  }

  /** The ownerReference of {@code object} with {@code controller: true}, if any (kube's {@code GetControllerOf}). */
  public static Optional<OwnerReference> controllerOf(DynamicObject object) {
    Optional<JsonNode> refs = object.get("metadata", "ownerReferences");
    if (refs.isEmpty()) {
      return Optional.empty();
    }
    for (JsonNode r : refs.get()) {
      if (r.path("controller").asBoolean(false)) {
        return Optional.of(new OwnerReference(r.path("apiVersion").asText(""), r.path("kind").asText(""),
            r.path("name").asText(""), r.path("uid").asText(""), true,
            r.has("blockOwnerDeletion") ? r.path("blockOwnerDeletion").asBoolean() : null));
      }
    }
    return Optional.empty();
  }

  /** Whether {@code object} has a {@code metadata.deletionTimestamp}. */
  public static boolean isBeingDeleted(DynamicObject object) {
    return object.get("metadata", "deletionTimestamp").filter(n -> !n.isNull()).isPresent();
  }
}
