package io.listwatch.apiserver.openapi;

import java.util.Map;
import java.util.Set;

/**
 * The fields kube's OpenAPI marks {@code required} in each built-in definition: in kube's Go
 * types, the fields without {@code omitempty} (and without {@code +optional}). The protobuf
 * descriptors the schemas are derived from cannot tell them, so they are read from
 * {@code required-fields.txt} beside this class ({@code definition=field,field}), which a test
 * in listwatch-server checks against kube's published schemas. Immutable and thread-safe.
 */
final class RequiredFields {

  private static final Map<String, Set<String>> BY_DEFINITION = FieldListFile.read("required-fields.txt");

  private RequiredFields() {
  }

  /** The required fields of {@code definition}; empty for one without any, or unknown. */
  static Set<String> of(String definition) {
    return BY_DEFINITION.getOrDefault(definition, Set.of());
  }
}
