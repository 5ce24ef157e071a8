package io.listwatch.apiserver.request;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A request's headers as received, in order: names compare without regard to case (HTTP's
 * rule, and HTTP/2 sends them lower-case), a name may repeat. Immutable and thread-safe; the
 * transport builds one per request.
 */
public final class Headers implements Iterable<Map.Entry<String, String>> {

  private static final Headers EMPTY = new Headers(List.of());

  private final List<Map.Entry<String, String>> entries;

  private Headers(List<Map.Entry<String, String>> entries) {
    this.entries = entries;
  }

  /** No headers. */
  public static Headers empty() {
    return EMPTY;
  }

  /** Headers from name-value pairs, in order. */
  public static Headers of(Iterable<? extends Map.Entry<? extends CharSequence, ? extends CharSequence>> pairs) {
    List<Map.Entry<String, String>> copy = new ArrayList<>();
    for (Map.Entry<? extends CharSequence, ? extends CharSequence> e : pairs) {
      copy.add(new AbstractMap.SimpleImmutableEntry<>(e.getKey().toString(), e.getValue().toString()));
    }
    return new Headers(List.copyOf(copy));
  }

  /** Headers from alternating names and values: {@code of("Accept", "application/json")}. */
  public static Headers of(String... namesAndValues) {
    if (namesAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("names and values come in pairs");
    }
    List<Map.Entry<String, String>> pairs = new ArrayList<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      pairs.add(new AbstractMap.SimpleImmutableEntry<>(namesAndValues[i], namesAndValues[i + 1]));
    }
    return new Headers(List.copyOf(pairs));
  }

  /** The first value of {@code name}, or {@code defaultValue}. */
  public String get(CharSequence name, String defaultValue) {
    String n = name.toString();
    for (Map.Entry<String, String> e : entries) {
      if (e.getKey().equalsIgnoreCase(n)) {
        return e.getValue();
      }
    }
    return defaultValue;
  }

  /** The first value of {@code name}, or null. */
  public String get(CharSequence name) {
    return get(name, null);
  }

  /** True when {@code name} is present. */
  public boolean contains(CharSequence name) {
    return get(name) != null;
  }

  /** Every value of {@code name}, in order. */
  public List<String> getAll(CharSequence name) {
    String n = name.toString();
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, String> e : entries) {
      if (e.getKey().equalsIgnoreCase(n)) {
        out.add(e.getValue());
      }
    }
    return out;
  }

  /**
   * True when a value of {@code name}, or one of its comma-separated tokens, is {@code value}
   * ({@code Connection: keep-alive, Upgrade} contains {@code upgrade} ignoring case).
   */
  public boolean containsValue(CharSequence name, String value, boolean ignoreCase) {
    for (String v : getAll(name)) {
      for (String token : v.split(",")) {
        String t = token.trim();
        if (ignoreCase ? t.equalsIgnoreCase(value) : t.equals(value)) {
          return true;
        }
      }
    }
    return false;
  }

  /** These headers without those whose name {@code drop} matches (given in lower case). */
  public Headers without(Predicate<String> drop) {
    List<Map.Entry<String, String>> kept = new ArrayList<>();
    for (Map.Entry<String, String> e : entries) {
      if (!drop.test(e.getKey().toLowerCase(Locale.ROOT))) {
        kept.add(e);
      }
    }
    return new Headers(List.copyOf(kept));
  }

  @Override
  public Iterator<Map.Entry<String, String>> iterator() {
    return entries.iterator();
  }

  @Override
  public String toString() {
    return "Headers" + entries;
  }
}
