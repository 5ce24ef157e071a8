package io.listwatch.apiserver.openapi;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Reads a list of fields per definition kept beside this package's classes: one
 * {@code definition=field,field} a line, {@code #} starting a comment line. A definition named
 * on several lines gets the union of their fields (files made of parts concatenated stay valid).
 * Stateless.
 */
final class FieldListFile {

  private FieldListFile() {
  }

  /** The fields of each definition in the resource {@code name}, immutable. */
  static Map<String, Set<String>> read(String name) {
    Map<String, Set<String>> out = new HashMap<>();
    try (InputStream in = FieldListFile.class.getResourceAsStream(name);
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        int eq = line.indexOf('=');
        if (line.startsWith("#") || eq < 0) {
          continue;
        }
        out.computeIfAbsent(line.substring(0, eq), d -> new HashSet<>()).addAll(Set.of(line.substring(eq + 1).split(",")));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, Set<String>> immutable = new HashMap<>();
    out.forEach((definition, fields) -> immutable.put(definition, Set.copyOf(fields)));
    return Map.copyOf(immutable);
  }
}
