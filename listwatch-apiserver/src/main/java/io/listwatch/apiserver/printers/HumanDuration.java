package io.listwatch.apiserver.printers;

import java.time.Duration;
import java.time.Instant;

/**
 * kube's human-readable durations ({@code HumanDuration}), as kubectl shows ages: seconds up
 * to 2 minutes ({@code 95s}), then minutes with seconds under 10 minutes ({@code 3m20s}),
 * minutes under 3 hours, hours with minutes under 8 hours ({@code 5h10m}), hours under 2 days,
 * days with hours under 8 days ({@code 3d4h}), days under 2 years, years with days under 8
 * years, then years. A time up to a second in the future reads {@code 0s} (clock skew);
 * further is {@code <invalid>}. Stateless.
 */
public final class HumanDuration {

  private HumanDuration() {
  }

  /** The age of something created at {@code then}, or {@code <unknown>} when {@code then} is null. */
  public static String since(Instant then, Instant now) {
    return then == null ? "<unknown>" : format(Duration.between(then, now));
  }

  /** {@code d} in kube's short form. */
  public static String format(Duration d) {
    long seconds = d.getSeconds(); // floor, like Go's int(d.Seconds()) for whole seconds
    if (d.isNegative() && d.getNano() != 0) {
      seconds++; // Go truncates toward zero
    }
    if (seconds < -1) {
      return "<invalid>";
    } else if (seconds < 0) {
      return "0s";
    } else if (seconds < 60 * 2) {
      return seconds + "s";
    }
    long minutes = seconds / 60;
    if (minutes < 10) {
      return twoUnits(minutes, "m", seconds % 60, "s");
    } else if (minutes < 60 * 3) {
      return minutes + "m";
    }
    long hours = seconds / 3600;
    if (hours < 8) {
      return twoUnits(hours, "h", minutes % 60, "m");
    } else if (hours < 48) {
      return hours + "h";
    } else if (hours < 24 * 8) {
      return twoUnits(hours / 24, "d", hours % 24, "h");
    } else if (hours < 24 * 365 * 2) {
      return hours / 24 + "d";
    } else if (hours < 24 * 365 * 8) {
      return twoUnits(hours / 24 / 365, "y", (hours / 24) % 365, "d");
    }
    return hours / 24 / 365 + "y";
  }

  /** {@code major} of the larger unit, then {@code minor} of the smaller unless 0: {@code 3m20s}, {@code 3m}. */
  private static String twoUnits(long major, String majorUnit, long minor, String minorUnit) {
    return minor == 0 ? major + majorUnit : major + majorUnit + minor + minorUnit;
  }
}
