package io.listwatch.server.registry;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * One served version of a CustomResourceDefinition, as a custom resource's
 * {@link ResourceDefinition} carries it: the definition's {@code spec} and the entry of
 * {@code spec.versions} this resource serves. The server reads the schema, subresources,
 * printer columns and selectable fields from it.
 *
 * <p>Immutable by convention: the nodes are copies made when the definition was read, and no
 * one may change them. Thread-safe.
 *
 * @param spec the CustomResourceDefinition's {@code spec}
 * @param version the entry of {@code spec.versions} served
 */
public record CustomResourceVersion(JsonNode spec, JsonNode version) {

  public CustomResourceVersion {
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(version, "version");
  }

  /** The version's name, e.g. {@code v1beta1}. */
  public String name() {
    return version.path("name").asText();
  }

  /** The version's {@code schema.openAPIV3Schema}, or a missing node when it declares none. */
  public JsonNode schema() {
    return version.path("schema").path("openAPIV3Schema");
  }

  /** The name of the version objects are stored in. */
  public String storageVersion() {
    for (JsonNode v : spec.path("versions")) {
      if (v.path("storage").asBoolean(false)) {
        return v.path("name").asText();
      }
    }
    return name();
  }
}
