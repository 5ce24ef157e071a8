package io.listwatch.apiserver.openapi;

import java.util.Map;
import java.util.Set;

/**
 * The fields of each built-in definition that kube's Go types declare as scalars (strings and
 * named string types, booleans, integers, floats, {@code []byte}) that are not pointers and are
 * tagged {@code omitempty}: kube's encoding leaves them out when they hold their zero value
 * ({@code ""}, {@code false}, {@code 0}), where a pointer field keeps an explicit zero and a
 * field without {@code omitempty} is always written. The protobuf descriptors the schemas are
 * derived from cannot tell pointers, so the fields are read from {@code zero-omitted-fields.txt}
 * beside this class ({@code definition=field,field}; the fields of an inline struct listed under
 * the embedding definition, as kube's OpenAPI flattens them). Immutable and thread-safe.
 */
final class ZeroOmittedFields {

  private static final Map<String, Set<String>> BY_DEFINITION = FieldListFile.read("zero-omitted-fields.txt");

  private ZeroOmittedFields() {
  }

  /** The zero-omitted fields of {@code definition}; empty for one without any, or unknown. */
  static Set<String> of(String definition) {
    return BY_DEFINITION.getOrDefault(definition, Set.of());
  }

  /** Every definition the file names, with its fields. */
  static Map<String, Set<String>> all() {
    return BY_DEFINITION;
  }
}
