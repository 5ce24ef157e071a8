package io.listwatch.api.apply;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.listwatch.api.patch.ListType;
import io.listwatch.api.patch.PatchMeta;
import io.listwatch.api.patch.PatchSchema;
import io.listwatch.api.patch.PatchSchemas;
import java.util.List;
import java.util.Optional;

/**
 * The {@link ApplySchema} of a built-in kind, read from its {@link PatchSchema} (the one table
 * of kube's markers that strategic merge reads too), the way kube turns its OpenAPI into
 * structured-merge-diff's schema: an explicit {@code +listType} wins; otherwise a list merged
 * by {@code patchStrategy=merge} is a map keyed by its {@code patchMergeKey}, or a set when it
 * has none; every other list is atomic. An object marked {@link PatchMeta#structTypeAtomic()} (a
 * label selector) is owned whole.
 *
 * <p>The list-map key {@code protocol} of ports defaults to {@code TCP}, as kube's
 * {@code +default="TCP"} on ContainerPort, ServicePort and EndpointPort declares.
 *
 * <p>Immutable and thread-safe.
 */
public final class BuiltinApplySchema implements ApplySchema {

  private final PatchSchema table;
  private final String path;

  private BuiltinApplySchema(PatchSchema table, String path) {
    this.table = table;
    this.path = path;
  }

  /** The root of {@code table}'s kind. */
  public static ApplySchema of(PatchSchema table) {
    return new BuiltinApplySchema(table, "");
  }

  /** The schema of a built-in kind; {@link ApplySchema#DEDUCED} for any other kind. */
  public static ApplySchema forKind(String group, String version, String kind) {
    return PatchSchemas.forKind(group, version, kind).map(BuiltinApplySchema::of).orElse(DEDUCED);
  }

  @Override
  public ApplySchema field(String name) {
    return new BuiltinApplySchema(table, path.isEmpty() ? name : path + "." + name);
  }

  @Override
  public ApplySchema items() {
    // paths in the table name list items by their list's path
    return this;
  }

  private PatchMeta meta() {
    return table.at(path);
  }

  @Override
  public ListType listType() {
    PatchMeta m = meta();
    if (m.listType() != null) {
      return m.listType();
    }
    if (m.merges()) {
      return m.mergeKey().isEmpty() ? ListType.SET : ListType.MAP;
    }
    return ListType.ATOMIC;
  }

  @Override
  public List<String> listMapKeys() {
    PatchMeta m = meta();
    if (listType() != ListType.MAP) {
      return List.of();
    }
    if (!m.listMapKeys().isEmpty()) {
      return m.listMapKeys();
    }
    return m.mergeKey().isEmpty() ? List.of() : List.of(m.mergeKey());
  }

  @Override
  public boolean atomicMap() {
    return meta().atomicStruct();
  }

  @Override
  public Optional<JsonNode> keyDefault(String key) {
    if (key.equals("protocol") && (path.equals("ports") || path.endsWith(".ports"))) {
      return Optional.of(TextNode.valueOf("TCP"));
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return table.kind() + (path.isEmpty() ? "" : "." + path);
  }
}
