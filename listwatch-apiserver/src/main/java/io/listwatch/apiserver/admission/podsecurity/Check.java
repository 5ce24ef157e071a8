package io.listwatch.apiserver.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;

/**
 * One rule of the Pod Security Standards (kube's {@code policy.Check}): its id, the level it
 * belongs to, and its revisions by policy version.
 *
 * @param id kube's id ({@code hostNamespaces}, {@code seccompProfile_restricted}, ...); the
 *     checks of a level run in the order of their ids
 * @param level {@link Level#BASELINE} (run for baseline and restricted) or
 *     {@link Level#RESTRICTED} (restricted only)
 * @param versions the revisions, by strictly increasing minimum version
 *
 * <p>Immutable.
 */
public record Check(String id, Level level, List<Versioned> versions) {

  public Check {
    versions = List.copyOf(versions);
  }

  /** Checks one pod: its {@code metadata} and {@code spec} (missing nodes for none). */
  @FunctionalInterface
  public interface PodCheck {
    CheckResult check(JsonNode metadata, JsonNode spec);
  }

  /**
   * One revision of a check (kube's {@code VersionedCheck}).
   *
   * @param minimumVersion the first policy version it applies to
   * @param check the rule
   * @param overrides ids of baseline checks a restricted check replaces from this version on
   */
  public record Versioned(Version minimumVersion, PodCheck check, List<String> overrides) {
  }

  /** A check with one revision from {@code v1.<minor>} on. */
  static Check of(String id, Level level, int minor, PodCheck check, String... overrides) {
    return new Check(id, level, List.of(new Versioned(Version.of(minor), check, List.of(overrides))));
  }

  /** The revision that applies at {@code version}, if any does. */
  Optional<Versioned> at(Version version) {
    Versioned applies = null;
    for (Versioned v : versions) {
      if (v.minimumVersion().compareTo(version) <= 0) {
        applies = v;
      }
    }
    return Optional.ofNullable(applies);
  }
}
