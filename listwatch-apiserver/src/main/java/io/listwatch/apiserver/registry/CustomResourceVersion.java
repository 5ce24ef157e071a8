package io.listwatch.apiserver.registry;

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
 * @param converter how objects move between the definition's versions ({@code spec.conversion})
 */
public record CustomResourceVersion(JsonNode spec, JsonNode version, CustomResourceConverter converter) {

  public CustomResourceVersion {
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(converter, "converter");
  }

  /** A version whose objects convert as strategy {@code None} does. */
  public CustomResourceVersion(JsonNode spec, JsonNode version) {
    this(spec, version, CustomResourceConverter.NONE);
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

  /**
   * The warning a request to a {@code deprecated: true} version gets (kube's Warning header):
   * the version's {@code deprecationWarning}, or
   * {@code <group>/<version> <Kind> is deprecated; use <group>/<version> <Kind>} naming the
   * highest-priority served, not deprecated version above it, if any. Empty when the version is
   * not deprecated.
   */
  public java.util.Optional<String> deprecationWarning() {
    if (!version.path("deprecated").asBoolean(false)) {
      return java.util.Optional.empty();
    }
    if (version.hasNonNull("deprecationWarning")) {
      return java.util.Optional.of(version.path("deprecationWarning").asText());
    }
    String group = spec.path("group").asText();
    String kind = spec.path("names").path("kind").asText();
    String message = group + "/" + name() + " " + kind + " is deprecated";
    String better = null;
    for (JsonNode v : spec.path("versions")) {
      String candidate = v.path("name").asText();
      if (v.path("served").asBoolean(false) && !v.path("deprecated").asBoolean(false)
          && io.listwatch.api.meta.VersionPriority.higher(candidate, name())
          && (better == null || io.listwatch.api.meta.VersionPriority.higher(candidate, better))) {
        better = candidate;
      }
    }
    return java.util.Optional.of(better == null ? message : message + "; use " + group + "/" + better + " " + kind);
  }
}
