package io.listwatch.apiserver.admission.podsecurity;

/**
 * A level at a version, what one mode of a namespace's policy evaluates a pod against; printed
 * as kube prints it in its messages: {@code restricted:latest}, {@code baseline:v1.25}.
 *
 * <p>Immutable.
 */
public record LevelVersion(Level level, Version version) {

  @Override
  public String toString() {
    return level + ":" + version;
  }
}
