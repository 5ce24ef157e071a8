package io.listwatch.api.patch;

/**
 * A field's patch strategy, kube's {@code patchStrategy} struct tag (OpenAPI's
 * {@code x-kubernetes-patch-strategy}). A field may carry two: kube writes
 * {@code "merge,retainKeys"}.
 */
public enum PatchStrategy {
  /** A list merged element by element (by its merge key, or as a set of primitives). */
  MERGE("merge"),
  /** A field replaced whole (the default for lists without a strategy). */
  REPLACE("replace"),
  /** An object whose keys absent from a patch's {@code $retainKeys} list are cleared. */
  RETAIN_KEYS("retainKeys");

  private final String wireName;

  PatchStrategy(String wireName) {
    this.wireName = wireName;
  }

  /** The name in kube's tags and OpenAPI: {@code merge}, {@code replace}, {@code retainKeys}. */
  public String wireName() {
    return wireName;
  }
}
