package io.listwatch.apiserver.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.apply.FieldManager;
import io.listwatch.apiserver.openapi.FieldValidation;
import java.util.List;

/**
 * A resource's handling of written objects beyond metadata, as kube's registry strategy of a
 * type and its decoder hold it. Custom resources have one per served version
 * ({@code apiextensions.CustomResourceStrategy}: pruning, defaults and validation by the
 * version's schema); built-in kinds have none (their unknown fields are {@link FieldValidation}'s).
 *
 * <p>The server calls, on every create, update, patch and apply (dry runs included):
 * {@link #decode} on the object the request makes, before admission; then, inside the store's
 * write, {@link #prepareForUpdate} after the metadata rules, and {@link #validate} last, on
 * the object about to be stored. A failed check throws a StatusException and nothing is stored.
 *
 * <p>Implementations are immutable and thread-safe, and do not block.
 */
public interface WriteStrategy {

  /**
   * kube's decoding of a written object: unknown fields removed from {@code object} and
   * reported as the directive says, then the defaults set.
   *
   * @param json the request's body when it is the object itself (a create, an update, a merge
   *     patch), to look for repeated keys; null otherwise
   * @param patch whether {@code object} is the result of a patch or apply (the Strict error is
   *     then worded without the kind, as kube words it)
   * @return the warnings to send (empty unless {@code Warn})
   * @throws io.listwatch.api.StatusException 400 under {@code Strict} when a field is unknown
   *     or repeated
   */
  List<String> decode(FieldValidation.Directive directive, byte[] json, ObjectNode object, boolean patch);

  /**
   * The type's own rules of an update, after the metadata rules have run on {@code updated}
   * (the stored status kept for the main resource, the generation, ...).
   *
   * @param current the stored object (with its resourceVersion)
   * @param status whether the update came through {@code /status}
   */
  void prepareForUpdate(ObjectNode updated, ObjectNode current, boolean status);

  /**
   * Validates the object about to be stored.
   *
   * @param old the stored object for an update, null for a create
   * @param status whether the update came through {@code /status}
   * @throws io.listwatch.api.StatusException 422 Invalid listing every problem
   */
  void validate(ObjectNode object, ObjectNode old, boolean status);

  /** The field manager of server-side apply for these objects. */
  FieldManager fieldManager();
}
