package io.listwatch.apiserver.strategy;

import io.listwatch.apiserver.validation.FieldErrors;
import java.util.Optional;

/**
 * kube's syntax of a set of an Indexed Job's indexes ({@code validateIndexesFormat} and
 * {@code parseIndexInterval} of {@code pkg/apis/batch/validation}), as a success policy's
 * {@code succeededIndexes} and a job status's {@code completedIndexes} and {@code failedIndexes}
 * write it: comma-separated intervals {@code x} or {@code x-y} ({@code x < y}), each index below
 * {@code completions}, in increasing order and not overlapping ({@code "1,3-5,7"}). The
 * problems are kube's error texts. Stateless.
 */
final class JobIndexes {

  private JobIndexes() {
  }

  /** How many indexes {@code indexes} holds, or kube's reason why it is not a valid set (a {@link Count}). */
  record Count(long total, Optional<String> problem) {
  }

  /** kube's {@code validateIndexesFormat}: the empty string is the empty set. */
  static Count parse(String indexes, long completions) {
    if (indexes.isEmpty()) {
      return new Count(0, Optional.empty());
    }
    long total = 0;
    Long last = null;
    for (String interval : indexes.split(",", -1)) {
      String[] limits = interval.split("-", -1);
      if (limits.length > 2) {
        return failed("the fragment " + FieldErrors.goValue(interval)
            + " violates the requirement that an index interval can have at most two parts separated by '-'");
      }
      long[] xy = new long[limits.length];
      for (int i = 0; i < limits.length; i++) {
        Optional<Long> index = atoi(limits[i]);
        if (index.isEmpty()) {
          return failed("cannot convert string to integer for index: " + FieldErrors.goValue(limits[i]));
        }
        if (index.get() >= completions) {
          return failed("too large index: " + FieldErrors.goValue(limits[i]));
        }
        xy[i] = index.get();
      }
      long x = xy[0];
      long y = xy[xy.length - 1];
      if (xy.length == 2 && x >= y) {
        return failed("non-increasing order, previous: " + x + ", current: " + y);
      }
      if (last != null && last >= x) {
        return failed("non-increasing order, previous: " + last + ", current: " + x);
      }
      total += y - x + 1;
      last = y;
    }
    return new Count(total, Optional.empty());
  }

  private static Count failed(String problem) {
    return new Count(0, Optional.of(problem));
  }

  /** Go's {@code strconv.Atoi}: an optional sign and decimal digits that fit in 64 bits. */
  private static Optional<Long> atoi(String s) {
    int start = !s.isEmpty() && (s.charAt(0) == '+' || s.charAt(0) == '-') ? 1 : 0;
    if (start == s.length()) {
      return Optional.empty();
    }
    for (int i = start; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return Optional.empty();
      }
    }
    try {
      return Optional.of(Long.parseLong(s));
    } catch (NumberFormatException e) {
      return Optional.empty(); // out of range
    }
  }
}
