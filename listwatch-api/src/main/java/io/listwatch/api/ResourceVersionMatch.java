package io.listwatch.api;

import java.util.Optional;

/**
 * How a list's {@code resourceVersion} is to be read: kube's {@code metav1.ResourceVersionMatch}
 * (the {@code resourceVersionMatch} query parameter). See "Lists" in docs/compatibility.md.
 */
public enum ResourceVersionMatch {
  /** Parameter absent: the legacy rules for {@code resourceVersion} apply. */
  UNSET(""),
  /** Data at least as new as {@code resourceVersion}. */
  NOT_OLDER_THAN("NotOlderThan"),
  /** Data exactly at {@code resourceVersion}; 410 Expired if that is no longer available. */
  EXACT("Exact");

  private final String wireValue;

  ResourceVersionMatch(String wireValue) {
    this.wireValue = wireValue;
  }

  /** The query-parameter spelling: {@code ""}, {@code "NotOlderThan"} or {@code "Exact"}. */
  public String wireValue() {
    return wireValue;
  }

  /** The constant spelled {@code wireValue} (case-sensitive, as kube), or empty. */
  public static Optional<ResourceVersionMatch> fromWireValue(String wireValue) {
    for (ResourceVersionMatch m : values()) {
      if (m.wireValue.equals(wireValue)) {
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }
}
