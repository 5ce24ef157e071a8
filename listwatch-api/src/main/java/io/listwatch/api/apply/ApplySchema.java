package io.listwatch.api.apply;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.patch.ListType;
import java.util.List;
import java.util.Optional;

/**
 * What server-side apply needs to know about one node of a kind's type: how its lists and
 * maps are owned and merged (structured-merge-diff's schema, as kube derives it from the
 * {@code x-kubernetes-list-type}, {@code x-kubernetes-list-map-keys} and
 * {@code x-kubernetes-map-type} markers). A schema is navigated from the object's root with
 * {@link #field} and {@link #items}.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>Every node answers, known or not: a node the type does not describe behaves as kube's
 *       default, a granular map whose fields are struct fields and whose lists are atomic.</li>
 *   <li>{@link #listType()} of a {@link ListType#MAP} list has at least one
 *       {@link #listMapKeys()}; a {@link ListType#SET} holds primitives.</li>
 *   <li>Implementations are immutable and thread-safe.</li>
 * </ul>
 *
 * <p>Built-in kinds get theirs from {@link io.listwatch.api.patch.PatchSchemas} through
 * {@link BuiltinApplySchema}; custom resources from their structural schema through
 * {@link StructuralApplySchema}.
 */
public interface ApplySchema {

  /** The schema of the value of field (or map key) {@code name} of this object node. */
  ApplySchema field(String name);

  /** The schema of the items of this list node. */
  ApplySchema items();

  /** The list type of this list node; {@link ListType#ATOMIC} when nothing says otherwise. */
  ListType listType();

  /** The key fields of a {@link ListType#MAP} list, in declaration order; empty otherwise. */
  List<String> listMapKeys();

  /**
   * The default of list-map key field {@code key} of this list's items, used when an item
   * omits it (kube's {@code protocol: TCP} of ports); empty when the key has none.
   */
  default Optional<JsonNode> keyDefault(String key) {
    return Optional.empty();
  }

  /** Whether this object node is owned and replaced whole ({@code x-kubernetes-map-type: atomic}). */
  default boolean atomicMap() {
    return false;
  }

  /**
   * Whether {@code name} is a declared field of this object node (a struct field) rather than a
   * key of a map with free keys; an entry of a free map is owned as a whole even when its
   * value has fields.
   */
  default boolean declaresField(String name) {
    return true;
  }

  /** kube's schema for an unknown type: granular maps, atomic lists, everywhere. */
  ApplySchema DEDUCED = new ApplySchema() {
    @Override
    public ApplySchema field(String name) {
      return this;
    }

    @Override
    public ApplySchema items() {
      return this;
    }

    @Override
    public ListType listType() {
      return ListType.ATOMIC;
    }

    @Override
    public List<String> listMapKeys() {
      return List.of();
    }
  };
}
