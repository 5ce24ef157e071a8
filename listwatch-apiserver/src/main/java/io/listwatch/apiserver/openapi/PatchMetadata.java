package io.listwatch.apiserver.openapi;

import java.util.List;
import java.util.Optional;

/**
 * How a list or map field of a built-in kind is patched: kube's {@code patchStrategy} and
 * {@code patchMergeKey} struct tags and its {@code listType}/{@code listMapKeys} markers, which the
 * protobuf descriptors do not carry. {@link OpenApiDocuments} writes them into the schemas as
 * {@code x-kubernetes-patch-strategy}, {@code x-kubernetes-patch-merge-key},
 * {@code x-kubernetes-list-type} and {@code x-kubernetes-list-map-keys}, which kubectl reads to
 * compute strategic merge patches.
 *
 * <p>Implementations must be thread-safe and return the same answer for the same question; the
 * documents are built once. {@link #NONE} knows no field: documents then carry no patch
 * extensions and do not offer {@code application/strategic-merge-patch+json} on their patch
 * operations (kubectl then builds its patches from its own compiled-in types).
 */
public interface PatchMetadata {

  /** No patch metadata. */
  PatchMetadata NONE = (definition, field) -> Optional.empty();

  /** The built-in kinds' merge keys and strategies, from listwatch-api's table (what strategic merge reads). */
  static PatchMetadata builtins() {
    return BuiltinPatchMetadata.INSTANCE;
  }

  /**
   * How a field is patched.
   *
   * @param definition kube's definition name of the type holding the field, e.g.
   *     {@code io.k8s.api.core.v1.PodSpec}
   * @param field the field's JSON name, e.g. {@code containers}
   * @return empty when the field has no patch metadata
   */
  Optional<FieldPatch> field(String definition, String field);

  /** Whether this knows any field; documents offer strategic merge patches only if so. */
  default boolean strategicMergePatch() {
    return this != NONE;
  }

  /**
   * One field's patch metadata; each part is null or empty when kube sets none.
   *
   * @param strategy {@code merge}, {@code replace}, {@code retainKeys} or {@code merge,retainKeys}
   * @param mergeKey the key identifying list items, e.g. {@code name}
   * @param listType {@code atomic}, {@code set} or {@code map}
   * @param listMapKeys the keys of a {@code map} list
   */
  record FieldPatch(String strategy, String mergeKey, String listType, List<String> listMapKeys) {
    public FieldPatch {
      listMapKeys = listMapKeys == null ? List.of() : List.copyOf(listMapKeys);
    }
  }
}
