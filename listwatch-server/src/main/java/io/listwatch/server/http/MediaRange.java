package io.listwatch.server.http;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One media range of an {@code Accept} header, e.g. {@code application/json;as=Table;v=v1;g=meta.k8s.io}:
 * the type in lower case and its parameters (names in lower case, {@code q} removed). kube
 * asks for conversions through the parameters {@code as} (the kind), {@code g} (its group)
 * and {@code v} (its version). Immutable.
 */
record MediaRange(String type, Map<String, String> params) {

  /**
   * The ranges of {@code accept} in the order a server should try them: by quality, highest
   * first, then as written; ranges of quality 0 are left out. An empty header yields nothing.
   */
  static List<MediaRange> parse(String accept) {
    record Weighted(MediaRange range, double q, int index) {
    }
    List<Weighted> ranges = new ArrayList<>();
    String[] clauses = accept.split(",");
    for (int i = 0; i < clauses.length; i++) {
      String[] parts = clauses[i].split(";");
      String type = parts[0].trim().toLowerCase(Locale.ROOT);
      if (type.isEmpty()) {
        continue;
      }
      Map<String, String> params = new LinkedHashMap<>();
      double q = 1;
      for (int p = 1; p < parts.length; p++) {
        String[] kv = parts[p].split("=", 2);
        String key = kv[0].trim().toLowerCase(Locale.ROOT);
        String value = kv.length > 1 ? kv[1].trim() : "";
        if (key.equals("q")) {
          try {
            q = Double.parseDouble(value);
          } catch (NumberFormatException e) {
            q = 0;
          }
        } else {
          params.put(key, value);
        }
      }
      if (q > 0) {
        ranges.add(new Weighted(new MediaRange(type, Map.copyOf(params)), q, i));
      }
    }
    ranges.sort(Comparator.comparingDouble((Weighted w) -> -w.q()).thenComparingInt(Weighted::index));
    return ranges.stream().map(Weighted::range).toList();
  }

  /** Whether JSON satisfies this range's type: {@code application/json}, {@code application/*} or {@code *}{@code /*}. */
  boolean acceptsJson() {
    return type.equals("application/json") || type.equals("application/*") || type.equals("*/*");
  }

  /** The {@code as} parameter (a conversion kube performs), or "". */
  String as() {
    return params.getOrDefault("as", "");
  }

  /** The {@code g} parameter, or "". */
  String group() {
    return params.getOrDefault("g", "");
  }

  /** The {@code v} parameter, or "". */
  String version() {
    return params.getOrDefault("v", "");
  }

  /**
   * The version of the first range (in preference order) that is either plain JSON or JSON as
   * {@code kind} in {@code group} at one of {@code versions}; empty when plain JSON comes
   * first or nothing matches. Ranges this server does not serve (other types, other
   * conversions) are passed over, as kube's negotiation passes them over.
   */
  static java.util.Optional<String> preferredConversion(String accept, String kind, String group,
      List<String> versions) {
    for (MediaRange r : parse(accept)) {
      if (!r.acceptsJson()) {
        continue;
      }
      if (r.as().isEmpty()) {
        return java.util.Optional.empty();
      }
      if (r.as().equals(kind) && r.group().equals(group) && versions.contains(r.version())) {
        return java.util.Optional.of(r.version());
      }
    }
    return java.util.Optional.empty();
  }
}
