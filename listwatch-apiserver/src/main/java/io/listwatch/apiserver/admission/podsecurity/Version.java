package io.listwatch.apiserver.admission.podsecurity;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A policy version (kube's {@code api.Version}): {@code latest}, or {@code v1.<minor>}, the
 * checks as kube {@code 1.<minor>} defined them. {@code latest} is newer than every version.
 *
 * @param minor the minor version (0 for {@code latest})
 * @param latest whether this is {@code latest}
 *
 * <p>Immutable.
 */
public record Version(int minor, boolean latest) implements Comparable<Version> {

  /** The newest checks. */
  public static final Version LATEST = new Version(0, true);

  /** What kube's {@code ParseVersion} says of a value that is no version. */
  static final String INVALID = "must be \"latest\" or \"v1.x\"";

  private static final Pattern V1 = Pattern.compile("v1\\.([0-9]|[1-9][0-9]*)");

  /** {@code v1.<minor>}. */
  public static Version of(int minor) {
    return new Version(minor, false);
  }

  /** The version a label value names, if it names one. */
  static Optional<Version> parse(String value) {
    if ("latest".equals(value)) {
      return Optional.of(LATEST);
    }
    Matcher m = V1.matcher(value);
    if (!m.matches()) {
      return Optional.empty();
    }
    try {
      return Optional.of(of(Integer.parseInt(m.group(1))));
    } catch (NumberFormatException tooBig) {
      return Optional.empty();
    }
  }

  @Override
  public int compareTo(Version o) {
    if (latest || o.latest) {
      return Boolean.compare(latest, o.latest);
    }
    return Integer.compare(minor, o.minor);
  }

  @Override
  public String toString() {
    return latest ? "latest" : "v1." + minor;
  }
}
