package io.listwatch.api.meta;

import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * kube's version priority ({@code CompareKubeAwareVersionStrings}): the order in which the
 * versions of an API group are listed in discovery, the first being the preferred one.
 *
 * <p>Versions shaped like {@code v<major>}, {@code v<major>beta<minor>} or
 * {@code v<major>alpha<minor>} come first: GA before beta before alpha, then the higher major,
 * then the higher minor. Other names follow, in ascending string order. So:
 * {@code v10, v2, v1, v11beta2, v10beta3, v3beta1, v12alpha1, v11alpha2, foo1, foo10}.
 *
 * <p>Stateless; thread-safe.
 */
public final class VersionPriority {

  private static final Pattern KUBE_VERSION = Pattern.compile("^v(\\d+)(?:(alpha|beta)(\\d+))?$");

  /** Sorts the highest priority first. */
  public static final Comparator<String> HIGHEST_FIRST = VersionPriority::compareHighestFirst;

  private VersionPriority() {
  }

  /**
   * Negative when {@code a} has the higher priority (so sorting with it lists the preferred
   * version first), positive when {@code b} has, zero when they are equal.
   */
  private static int compareHighestFirst(String a, String b) {
    Matcher ma = KUBE_VERSION.matcher(a);
    Matcher mb = KUBE_VERSION.matcher(b);
    boolean kubeA = ma.matches();
    boolean kubeB = mb.matches();
    if (!kubeA || !kubeB) {
      if (kubeA) {
        return -1;
      }
      if (kubeB) {
        return 1;
      }
      return a.compareTo(b);
    }
    int byStage = Integer.compare(stage(mb.group(2)), stage(ma.group(2)));
    if (byStage != 0) {
      return byStage;
    }
    int byMajor = compareNumbers(mb.group(1), ma.group(1));
    if (byMajor != 0) {
      return byMajor;
    }
    return ma.group(3) == null ? 0 : compareNumbers(mb.group(3), ma.group(3));
  }

  /** Whether {@code a} has a strictly higher priority than {@code b}. */
  public static boolean higher(String a, String b) {
    return compareHighestFirst(a, b) < 0;
  }

  private static int stage(String qualifier) {
    return qualifier == null ? 3 : qualifier.equals("beta") ? 2 : 1;
  }

  /** Compares decimal digit strings of any length by value. */
  private static int compareNumbers(String x, String y) {
    String a = x.replaceFirst("^0+(?=.)", "");
    String b = y.replaceFirst("^0+(?=.)", "");
    return a.length() != b.length() ? Integer.compare(a.length(), b.length()) : a.compareTo(b);
  }
}
