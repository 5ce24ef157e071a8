package io.listwatch.apiserver.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.schema.Defaulter;

/**
 * kube's conversion strategy {@code None} between the versions of a custom resource: objects
 * are stored in the CustomResourceDefinition's storage version, and moving an object to
 * another version only rewrites its {@code apiVersion}. An object read from storage also gets
 * the defaults of the schema of the version it is read through, as kube defaults on read.
 *
 * <p>Built-in kinds pass through unchanged. Stateless; thread-safe (the objects belong to the
 * caller).
 */
public final class CustomResourceConversion {

  private CustomResourceConversion() {
  }

  /**
   * Turns an object read from storage into {@code def}'s version, in place: its
   * {@code apiVersion} and the defaults of that version's schema.
   */
  public static ObjectNode toServed(ResourceDefinition def, ObjectNode stored) {
    def.customResource().ifPresent(crv -> {
      stored.put("apiVersion", def.apiVersion());
      JsonNode schema = crv.schema();
      if (schema.isObject()) {
        Defaulter.apply(schema, stored);
      }
    });
    return stored;
  }

  /**
   * The object as it is stored: a copy in the storage version when {@code def} serves another
   * version, else {@code served} itself.
   */
  public static ObjectNode toStorage(ResourceDefinition def, ObjectNode served) {
    if (def.customResource().isEmpty()) {
      return served;
    }
    CustomResourceVersion crv = def.customResource().get();
    String storageVersion = crv.storageVersion();
    String apiVersion = def.group() + "/" + storageVersion;
    if (apiVersion.equals(served.path("apiVersion").asText())) {
      return served;
    }
    ObjectNode copy = served.deepCopy();
    copy.put("apiVersion", apiVersion);
    return copy;
  }
}
