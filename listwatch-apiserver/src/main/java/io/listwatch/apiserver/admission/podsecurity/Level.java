package io.listwatch.apiserver.admission.podsecurity;

import java.util.Optional;

/**
 * A Pod Security Standards level (kube's {@code api.Level}), from the least strict to the most:
 * {@code privileged} allows everything, {@code baseline} prevents known privilege escalations,
 * {@code restricted} adds the hardening best practices. Stateless.
 */
public enum Level {
  PRIVILEGED("privileged"), BASELINE("baseline"), RESTRICTED("restricted");

  /** What kube's {@code ParseLevel} says of a value that is no level. */
  static final String INVALID = "must be one of privileged, baseline, restricted";

  private final String value;

  Level(String value) {
    this.value = value;
  }

  /** The level a label value names, if it names one (exactly, case-sensitive). */
  static Optional<Level> parse(String value) {
    for (Level l : values()) {
      if (l.value.equals(value)) {
        return Optional.of(l);
      }
    }
    return Optional.empty();
  }

  /** Whether this level is stricter than {@code other} (kube's {@code CompareLevels(a, b) > 0}). */
  public boolean stricterThan(Level other) {
    return compareTo(other) > 0;
  }

  @Override
  public String toString() {
    return value;
  }
}
