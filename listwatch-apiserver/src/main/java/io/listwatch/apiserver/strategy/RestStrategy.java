package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;

/**
 * What the generic registry store does differently for one built-in kind: kube's
 * {@code pkg/registry/<group>/<kind>/strategy.go}, with the kind's defaults beside it. The
 * store ({@code rest.ResourceStore}) does create, update and delete alike for every kind and
 * calls these hooks at fixed points; a reader who wants to know what the server does to a Pod
 * opens {@code PodStrategy}. {@link BuiltinStrategies} finds a kind's strategy.
 *
 * <p>Every method has a default that does nothing, so a kind without rules needs no class.
 * The hooks work in place on the object about to be stored (plain JSON, metadata included)
 * and may throw a {@link io.listwatch.api.StatusException} to refuse the write, in which case
 * nothing is stored. They see dry runs too.
 *
 * <p>The order of a <b>create</b> (kube's): {@link #defaults} (kube fills them as it decodes),
 * the mutating admission plug-ins, the server's metadata (name, uid, creationTimestamp,
 * generation; {@code ObjectMetaRules.prepareForCreate}), the client's {@code status} dropped
 * for kinds whose definition says {@code clearsStatusOnCreate}, {@link #prepareForCreate},
 * validation, then the validating admission plug-ins.
 *
 * <p>The order of an <b>update</b> (an update, patch or apply, inside the guaranteed update
 * and again on each retry): the request's change is applied to the stored object, then
 * {@link #defaults} runs on the result (for every subresource), then the mutating admission
 * plug-ins, then the metadata rules (the
 * stored status kept on the main resource, the stored spec kept on {@code /status}, the
 * generation bumped; {@code ObjectMetaRules.prepareForUpdate}), then one of
 * {@link #prepareForUpdate} (the main resource, and the server's own whole-object writes such
 * as a pod's binding), {@link #prepareForStatusUpdate} ({@code /status}) or
 * {@link #prepareForFinalize} ({@code /finalize}), then a custom resource's own strategy and
 * validation, then the validating admission plug-ins.
 *
 * <p>A <b>delete</b> (and each delete of a deletecollection) first asks {@link #checkDelete},
 * then the store plans it ({@code rest.Deletion}) with {@link #gracePeriodSeconds},
 * {@link #orphansDependentsByDefault}, {@link #prepareForDelete} and {@link #holdsDeletion}.
 *
 * <p>Implementations are stateless, immutable and thread-safe, and do not block.
 */
public interface RestStrategy {

  /**
   * Fills kube's defaults of the kind into {@code obj}: the fields a client left out, missing
   * or {@code null} (or an empty string where kube defaults a string), get the value
   * kube-apiserver's would have; a field given (even {@code 0} or {@code false}) is kept, and a
   * value of the wrong JSON type is left for validation. kube keeps these in the group's
   * {@code defaults.go} ({@code SetDefaults_*}) and runs them when it decodes a body; we keep
   * them with the kind, so that one file says everything the server does to it.
   *
   * <p>Called first on every create (before admission and {@link #prepareForCreate}) and on
   * every update of any subresource (on the changed object, before admission and the metadata
   * rules). May change any field.
   */
  default void defaults(ObjectNode obj) {
  }

  /**
   * kube's {@code Validate} ({@code old} null, a create) and {@code ValidateUpdate}: adds the
   * kind's field errors to {@code errors}, with kube's paths and messages
   * ({@link io.listwatch.apiserver.validation.FieldErrors}); the store answers them all in one
   * 422 Invalid, after the metadata's. Called for creates and for updates of the main resource
   * (and the server's own whole-object writes, such as a pod's binding, with {@code old} null:
   * they are not held to the user's update rules), after the prepare hooks. Must not change
   * {@code obj}.
   */
  default void validate(ObjectNode obj, ObjectNode old, java.util.List<io.listwatch.api.Status.Cause> errors) {
  }

  /**
   * kube's {@code WarningsOnCreate} ({@code old} null) and {@code WarningsOnUpdate}: what the
   * client is told about an object that passed validation but is likely a mistake (a
   * deprecated label, a duplicate env var), each text given to {@code warn}; they reach the
   * client as {@code Warning} headers. Called after {@link #validate} passed, for creates and
   * updates of the main resource. Must not change {@code obj}.
   */
  default void warnings(ObjectNode obj, ObjectNode old, java.util.function.Consumer<String> warn) {
  }

  /**
   * kube's {@code PrepareForCreate}: what the server sets on a new object of the kind (a
   * namespace starts Active, a pod Pending), whatever the client sent. Called once per create
   * attempt, after {@link #defaults}, the mutating admission plug-ins and the server's metadata
   * (the uid included), and after the status of kinds that clear it is dropped.
   *
   * @param now the server's clock, for timestamps the object gets
   */
  default void prepareForCreate(ObjectNode obj, Instant now) {
  }

  /**
   * {@link #prepareForCreate(ObjectNode, Instant)} for a kind whose new objects record who wrote
   * them (kube reads the user from the request's context: a CertificateSigningRequest's
   * requestor); the store calls this one, and by default it calls the other.
   *
   * @param user who the request acts as
   */
  default void prepareForCreate(ObjectNode obj, Instant now, io.listwatch.apiserver.request.UserInfo user) {
    prepareForCreate(obj, now);
  }

  /**
   * kube's {@code PrepareForUpdate}: what an update of the main resource may not change beyond
   * the metadata rules. Called for updates, patches and applies of the main resource and for
   * the server's own whole-object writes, after the metadata rules (and, for a whole-object
   * write, after the new status is put back).
   *
   * @param obj the object about to be stored (without a resourceVersion); may be changed
   * @param old the stored object (with its resourceVersion); not to be changed
   */
  default void prepareForUpdate(ObjectNode obj, ObjectNode old) {
  }

  /**
   * kube's status strategy {@code PrepareForUpdate}: what a write through {@code /status}
   * resets beyond the spec, which the metadata rules already keep. Called after them.
   *
   * @param obj the object about to be stored (without a resourceVersion); may be changed
   * @param old the stored object (with its resourceVersion); not to be changed
   */
  default void prepareForStatusUpdate(ObjectNode obj, ObjectNode old) {
  }

  /**
   * kube's finalize strategy {@code PrepareForUpdate}: what a write through {@code /finalize}
   * (a namespace's) keeps of {@code old} and takes of {@code obj}. Called after the metadata
   * rules; may replace the whole content of {@code obj}.
   *
   * @param obj the object about to be stored (without a resourceVersion); may be changed
   * @param old the stored object (with its resourceVersion); not to be changed
   */
  default void prepareForFinalize(ObjectNode obj, ObjectNode old) {
  }

  /**
   * The strategy of a subresource through which a client writes part of the object, kube's
   * separate strategy of such a REST (a pod's {@code ephemeralcontainers}); empty for one the
   * kind does not have. Its {@link #prepareForUpdate} takes what the subresource may change
   * from the written object into it and keeps the rest as stored (after the metadata rules of
   * the main resource), and its {@link #validate} is the write's validation; the kind's own
   * {@link #defaults} still apply.
   */
  default java.util.Optional<RestStrategy> subresource(String name) {
    return java.util.Optional.empty();
  }

  /**
   * kube's {@code CheckGracefulDelete}: how many seconds a DELETE leaves the object marked
   * ({@code deletionTimestamp}) before it goes; 0 (the default) removes it at once, unless
   * finalizers hold it.
   *
   * @param current the stored object
   * @param requestedSeconds the request's {@code gracePeriodSeconds}, or null
   */
  default long gracePeriodSeconds(ObjectNode current, Long requestedSeconds) {
    return 0;
  }

  /**
   * kube's {@code DefaultGarbageCollectionPolicy}: whether a DELETE without a propagation policy
   * orphans the object's dependents ({@code OrphanDependents}) rather than letting the garbage
   * collector delete them afterwards ({@code Background}, the default).
   */
  default boolean orphansDependentsByDefault() {
    return false;
  }

  /**
   * What the first DELETE of an object does beyond the grace period and the propagation
   * finalizers (a kind's own REST delete in kube): may add finalizers that hold the object and
   * change what is stored while it is marked. Called only when the object is not yet marked,
   * on the copy that will be stored if anything holds it.
   *
   * @param marked the object as it will be stored while marked; may be changed
   * @param finalizers the finalizers it will have; may be added to
   */
  default void prepareForDelete(ObjectNode marked, java.util.Set<String> finalizers, Instant now) {
  }

  /**
   * Whether a marked object must stay beyond its finalizers and grace period (a namespace, while
   * its {@code spec.finalizers} is not empty).
   */
  default boolean holdsDeletion(ObjectNode obj) {
    return false;
  }

  /**
   * Refuses a delete kube refuses for this kind, by name, before anything is read or changed.
   *
   * @throws io.listwatch.api.StatusException to refuse (403 Forbidden for a protected object)
   */
  default void checkDelete(String name) {
  }
}
