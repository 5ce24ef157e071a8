package io.listwatch.apiserver.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * How a built-in kind served in more than one version over one storage moves its objects
 * between the version a {@link ResourceDefinition} serves and the version they are stored in:
 * kube's scheme conversion through the internal type, done here on JSON. Objects are stored in
 * one version (kube's storage version); each served version converts on the way in
 * ({@link #toStorage}) and on the way out ({@link #toServed}). Custom resources convert through
 * {@link CustomResourceConversion} instead.
 *
 * <p>Implementations are stateless and thread-safe; the objects belong to the caller.
 */
public interface VersionConversion {

  /** A kind served in one version: objects are stored as served. */
  VersionConversion NONE = new VersionConversion() {
    @Override
    public ObjectNode toServed(ObjectNode stored) {
      return stored;
    }

    @Override
    public ObjectNode toStorage(ObjectNode served) {
      return served;
    }
  };

  /**
   * An object read from storage (in the storage version), or one already in the served version,
   * in the served version, with the defaults that version applies as kube decodes it. May
   * change {@code stored} and return it; idempotent.
   */
  ObjectNode toServed(ObjectNode stored);

  /**
   * The object as it is stored (in the storage version): {@code served} itself when it is in
   * that version already, else a new object; {@code served} is not changed.
   */
  ObjectNode toStorage(ObjectNode served);
}
