package io.listwatch.bench.chaos;

/**
 * One version of a ConfigMap as a read, a list or a watch event showed it: its name, its
 * resourceVersion, and the value a write put in {@code data.value} and, in the same request,
 * in a label. The two are equal unless a write was applied by halves.
 *
 * <p>Immutable; thread-safe.
 */
record Version(String key, long rv, String value, String label) {

  boolean whole() {
    return value == null ? label == null : value.equals(label);
  }

  @Override
  public String toString() {
    return key + "@" + rv + "=" + value + (whole() ? "" : " (label " + label + ")");
  }
}
