package io.listwatch.api.patch;

/**
 * A list's {@code +listType} marker (OpenAPI's {@code x-kubernetes-list-type}), which
 * server-side apply uses to decide who owns which element.
 */
public enum ListType {
  /** The list is one value, owned and replaced whole. */
  ATOMIC("atomic"),
  /** A list of unique primitives, each element owned separately. */
  SET("set"),
  /** A list of objects keyed by {@link PatchMeta#listMapKeys()}. */
  MAP("map");

  private final String wireName;

  ListType(String wireName) {
    this.wireName = wireName;
  }

  /** {@code atomic}, {@code set} or {@code map}. */
  public String wireName() {
    return wireName;
  }
}
