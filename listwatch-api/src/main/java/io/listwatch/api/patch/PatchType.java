package io.listwatch.api.patch;

import java.util.Optional;

/**
 * The patch types a {@code PATCH} request names in its {@code Content-Type}, as kube's
 * {@code types.PatchType}, apart from server-side apply ({@code application/apply-patch+yaml}),
 * which merges by field ownership ({@code io.listwatch.api.apply}) rather than by a patch.
 */
public enum PatchType {
  /** RFC 6902 JSON Patch: a list of operations. */
  JSON_PATCH("application/json-patch+json"),
  /** RFC 7386 JSON Merge Patch: what {@code kubectl label}, {@code annotate}, {@code scale} send. */
  MERGE_PATCH("application/merge-patch+json"),
  /** kube's strategic merge patch; built-in kinds only. */
  STRATEGIC_MERGE_PATCH("application/strategic-merge-patch+json");

  private final String mediaType;

  PatchType(String mediaType) {
    this.mediaType = mediaType;
  }

  /** The media type, e.g. {@code application/json-patch+json}. */
  public String mediaType() {
    return mediaType;
  }

  /**
   * The patch type of a media type (without parameters, lower case), or empty if it is none.
   */
  public static Optional<PatchType> fromMediaType(String mediaType) {
    for (PatchType t : values()) {
      if (t.mediaType.equals(mediaType)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }
}
