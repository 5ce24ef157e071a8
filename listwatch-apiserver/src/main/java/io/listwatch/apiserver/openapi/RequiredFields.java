package io.listwatch.apiserver.openapi;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
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

  private static final Map<String, Set<String>> BY_DEFINITION = load();

  private RequiredFields() {
  }

  /** The required fields of {@code definition}; empty for one without any, or unknown. */
  static Set<String> of(String definition) {
    return BY_DEFINITION.getOrDefault(definition, Set.of());
  }

  private static Map<String, Set<String>> load() {
    Map<String, Set<String>> out = new HashMap<>();
    try (InputStream in = RequiredFields.class.getResourceAsStream("required-fields.txt");
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        int eq = line.indexOf('=');
        if (line.startsWith("#") || eq < 0) {
          continue;
        }
        out.put(line.substring(0, eq), Set.of(line.substring(eq + 1).split(",")));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Map.copyOf(out);
  }
}
