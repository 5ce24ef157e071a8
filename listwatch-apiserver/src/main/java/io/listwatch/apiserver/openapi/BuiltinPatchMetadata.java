package io.listwatch.apiserver.openapi;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import io.listwatch.api.patch.PatchMeta;
import io.listwatch.api.patch.PatchSchema;
import io.listwatch.api.patch.PatchSchemas;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The {@link PatchMetadata} of the built-in kinds, read from listwatch-api's one table of merge
 * keys and strategies ({@link PatchSchemas}), which strategic merge uses too. That table is
 * keyed by kind and field path ({@code spec.template.spec.containers} of a Deployment); the
 * OpenAPI schemas are keyed by definition and field ({@code PodSpec.containers}): each path is
 * walked through the generated messages to the definition that holds its last field. A path
 * that crosses a struct Go embeds inline (no field of that name in the message) is left out.
 *
 * <p>Thread-safe: the index is built once, on first use, and never changes.
 */
final class BuiltinPatchMetadata implements PatchMetadata {

  static final BuiltinPatchMetadata INSTANCE = new BuiltinPatchMetadata();

  private BuiltinPatchMetadata() {
  }

  @Override
  public Optional<FieldPatch> field(String definition, String field) {
    return Optional.ofNullable(Index.BY_FIELD.get(definition + "#" + field));
  }

  @Override
  public boolean strategicMergePatch() {
    return true;
  }

  private static final class Index {
    static final Map<String, FieldPatch> BY_FIELD = build();

    private static Map<String, FieldPatch> build() {
      Map<String, FieldPatch> byField = new HashMap<>();
      for (PatchSchema kind : PatchSchemas.all().values()) {
        String root = ProtoSchemas.definitionName(kind.group(), kind.version(), kind.kind());
        ProtoSchemas.message(root).ifPresent(message -> kind.fields().forEach((path, meta) ->
            holder(message, path).ifPresent(h -> byField.putIfAbsent(h, patch(meta)))));
      }
      return Map.copyOf(byField);
    }

    /** {@code definition#field} of the last segment of {@code path}, walked from {@code root}. */
    private static Optional<String> holder(Descriptor root, String path) {
      String[] segments = path.split("\\.");
      Descriptor current = root;
      for (int i = 0; i < segments.length - 1; i++) {
        FieldDescriptor f = current.findFieldByName(segments[i]);
        if (f == null || f.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
          return Optional.empty();
        }
        current = f.getMessageType();
      }
      String last = segments[segments.length - 1];
      return current.findFieldByName(last) == null ? Optional.empty()
          : Optional.of(ProtoSchemas.definitionName(current) + "#" + last);
    }

    private static FieldPatch patch(PatchMeta meta) {
      String strategy = meta.strategyTag();
      return new FieldPatch(strategy.isEmpty() ? null : strategy,
          meta.mergeKey() == null || meta.mergeKey().isEmpty() ? null : meta.mergeKey(),
          meta.listType() == null ? null : meta.listType().wireName(), meta.listMapKeys());
    }
  }
}
