package io.listwatch.api.patch;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What kube's Go type declares about one field for patching: its patch strategies, the merge
 * key of a merged list of objects, and its list type and list-map keys. A field that is not
 * in a kind's {@link PatchSchema} has {@link #NONE}: objects merge key by key, lists are
 * replaced whole.
 *
 * <p>Immutable.
 *
 * @param strategies the field's patch strategies; empty for none
 * @param mergeKey the merge key of a list of objects merged by {@link PatchStrategy#MERGE}
 *     ({@code patchMergeKey}), or "" (lists of primitives merge as sets)
 * @param listType the {@code +listType}, or null when the Go type gives none (or it is no list)
 * @param listMapKeys the {@code +listMapKey}s of a {@link ListType#MAP} list, in order; may
 *     name more keys than {@code mergeKey} (container ports: containerPort and protocol)
 * @param atomicStruct whether the field is an object owned and replaced whole by server-side
 *     apply ({@code +structType=atomic}, OpenAPI's {@code x-kubernetes-map-type: atomic});
 *     strategic merge still merges it key by key, as kube does
 */
public record PatchMeta(Set<PatchStrategy> strategies, String mergeKey, ListType listType, List<String> listMapKeys,
    boolean atomicStruct) {

  /** No strategy, no merge key, no list type. */
  public static final PatchMeta NONE = new PatchMeta(Set.of(), "", null, List.of());

  public PatchMeta {
    strategies = Set.copyOf(strategies);
    Objects.requireNonNull(mergeKey, "mergeKey");
    listMapKeys = List.copyOf(listMapKeys);
  }

  /** A field that is not an atomic struct. */
  public PatchMeta(Set<PatchStrategy> strategies, String mergeKey, ListType listType, List<String> listMapKeys) {
    this(strategies, mergeKey, listType, listMapKeys, false);
  }

  /** An object owned whole by server-side apply ({@code +structType=atomic}, e.g. a LabelSelector). */
  public static PatchMeta structTypeAtomic() {
    return new PatchMeta(Set.of(), "", null, List.of(), true);
  }

  /** A list of objects merged by {@code key} ({@code +listType=map}, {@code +listMapKey=key}). */
  public static PatchMeta mergeByKey(String key) {
    return new PatchMeta(Set.of(PatchStrategy.MERGE), key, ListType.MAP, List.of(key));
  }

  /** A list of primitives merged as a set ({@code patchStrategy=merge}, {@code +listType=set}). */
  public static PatchMeta mergeSet() {
    return new PatchMeta(Set.of(PatchStrategy.MERGE), "", ListType.SET, List.of());
  }

  /** A list replaced whole ({@code +listType=atomic}, no patch strategy). */
  public static PatchMeta atomic() {
    return new PatchMeta(Set.of(), "", ListType.ATOMIC, List.of());
  }

  /** An object with {@code patchStrategy=retainKeys}. */
  public static PatchMeta retainKeys() {
    return new PatchMeta(Set.of(PatchStrategy.RETAIN_KEYS), "", null, List.of());
  }

  /** This meta with more strategies, e.g. {@code merge,retainKeys} for pod volumes. */
  public PatchMeta with(PatchStrategy strategy) {
    java.util.EnumSet<PatchStrategy> s = java.util.EnumSet.of(strategy);
    s.addAll(strategies);
    return new PatchMeta(s, mergeKey, listType, listMapKeys, atomicStruct);
  }

  /** This meta with other list-map keys (e.g. a merge by one key of a map keyed by two). */
  public PatchMeta withListMapKeys(String... keys) {
    return new PatchMeta(strategies, mergeKey, listType, List.of(keys), atomicStruct);
  }

  /** This meta with another list type (kube has merged lists marked atomic, e.g. hostIPs). */
  public PatchMeta withListType(ListType type) {
    return new PatchMeta(strategies, mergeKey, type, listMapKeys, atomicStruct);
  }

  /** Whether strategic merge merges this list (rather than replacing it). */
  public boolean merges() {
    return strategies.contains(PatchStrategy.MERGE);
  }

  /** Whether strategic merge replaces this object whole. */
  public boolean replaces() {
    return strategies.contains(PatchStrategy.REPLACE);
  }

  /**
   * The strategy as kube writes it in its tags and OpenAPI: {@code merge},
   * {@code merge,retainKeys}, {@code retainKeys}, {@code replace}, or "" for none.
   */
  public String strategyTag() {
    StringBuilder sb = new StringBuilder();
    for (PatchStrategy s : PatchStrategy.values()) {
      if (strategies.contains(s)) {
        sb.append(sb.isEmpty() ? "" : ",").append(s.wireName());
      }
    }
    return sb.toString();
  }
}
