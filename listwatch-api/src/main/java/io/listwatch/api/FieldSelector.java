package io.listwatch.api;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A field selector: apimachinery's {@code fields.Selector}, parsed from the
 * {@code fieldSelector} query parameter with {@code fields.ParseSelector}'s grammar.
 *
 * <pre>
 *   selector ::= term ( "," term )*         (all terms must hold; empty terms are skipped)
 *   term     ::= FIELD ( "=" | "==" ) VALUE  the field's value equals VALUE
 *              | FIELD "!=" VALUE            the field's value differs from VALUE
 * </pre>
 *
 * A term splits at the first {@code !=}, {@code ==} or {@code =}; everything before it is the
 * field name, taken literally (no trimming, no escapes). In the value, {@code \,}, {@code \=}
 * and {@code \\} stand for {@code ,}, {@code =} and {@code \}; an unescaped {@code ,} ends the
 * term, an unescaped {@code =} or any other escape is an error. There are no set operators.
 * An absent field has the value {@code ""}, so {@code spec.nodeName=} selects objects whose
 * {@code spec.nodeName} is empty or unset.
 *
 * <p>Parsing does not check field names: which fields a resource supports is the server's
 * business; it rejects the others with {@link #unsupportedField}. Errors are 400
 * {@code BadRequest} {@link StatusException}s with kube's messages, e.g. {@code invalid
 * selector: 'a'; can't understand 'a'}.
 *
 * <p>{@link #toString()} is canonical: terms sorted, {@code ==} printed as {@code =}, values
 * escaped; it parses back to an equal selector.
 *
 * <p>Immutable and thread-safe.
 */
public final class FieldSelector {

  private static final FieldSelector EVERYTHING = new FieldSelector(List.of());

  /** Sorted by canonical text; never mutated. */
  private final List<Term> terms;

  private FieldSelector(List<Term> terms) {
    this.terms = List.copyOf(terms);
  }

  /** The selector that matches every object (the empty selector). */
  public static FieldSelector everything() {
    return EVERYTHING;
  }

  /**
   * Parses a field selector. Null, empty and comma-only strings give {@link #everything()}.
   *
   * @throws StatusException 400 BadRequest when {@code selector} does not parse
   */
  public static FieldSelector parse(String selector) {
    if (selector == null || selector.isEmpty()) {
      return EVERYTHING;
    }
    List<Term> parsed = new ArrayList<>();
    for (String part : splitTerms(selector)) {
      if (part.isEmpty()) {
        continue;
      }
      parsed.add(parseTerm(selector, part));
    }
    if (parsed.isEmpty()) {
      return EVERYTHING;
    }
    parsed.sort(Comparator.comparing(Term::toString));
    return new FieldSelector(parsed);
  }

  /**
   * Whether every term holds, reading field values from {@code fieldValues}; a field missing
   * from the map has the value {@code ""}. A null map counts as empty.
   */
  public boolean matches(Map<String, String> fieldValues) {
    Map<String, String> fs = fieldValues == null ? Map.of() : fieldValues;
    return matches(fs::get);
  }

  /**
   * Whether every term holds, asking {@code fieldValues} for each referenced field's string
   * value; it may return {@code null} or {@code ""} for an absent field (both mean
   * {@code ""}). Booleans compare as {@code "true"}/{@code "false"}, numbers as their decimal
   * text, as in kube.
   */
  public boolean matches(Function<String, String> fieldValues) {
    for (int i = 0; i < terms.size(); i++) {
      Term t = terms.get(i);
      String actual = fieldValues.apply(t.field());
      boolean equal = t.value().equals(actual == null ? "" : actual);
      if (equal == t.negated()) {
        return false;
      }
    }
    return true;
  }

  /** The field names the terms refer to, in canonical order, without duplicates. */
  public Set<String> fields() {
    Set<String> names = new LinkedHashSet<>();
    for (Term t : terms) {
      names.add(t.field());
    }
    return Collections.unmodifiableSet(names);
  }

  /** Whether this selector has no terms, i.e. matches everything. */
  public boolean isEverything() {
    return terms.isEmpty();
  }

  /**
   * The value {@code field} must have for this selector to match, when an {@code =} or
   * {@code ==} term pins it (kube's {@code RequiresExactMatch}); empty otherwise. The server
   * uses it for {@code metadata.name} and {@code metadata.namespace} lookups; the whole
   * selector must still be applied.
   */
  public Optional<String> requiredValue(String field) {
    for (Term t : terms) {
      if (!t.negated() && t.field().equals(field)) {
        return Optional.of(t.value());
      }
    }
    return Optional.empty();
  }

  /**
   * The 400 BadRequest for a field a resource does not support, in kube's words:
   * {@code "foo.bar" is not a known field selector: only "metadata.name",
   * "metadata.namespace"}. {@code supported} is listed in its iteration order; pass an
   * ordered collection.
   */
  public static StatusException unsupportedField(String field, Collection<String> supported) {
    String message = Strconv.quote(field) + " is not a known field selector";
    if (!supported.isEmpty()) {
      message += ": only "
          + supported.stream().map(Strconv::quote).collect(Collectors.joining(", "));
    }
    return StatusException.badRequest(message);
  }

  /**
   * The canonical form: terms sorted and joined with commas, each {@code field=value} or
   * {@code field!=value} with the value escaped. The empty selector prints as {@code ""}.
   */
  @Override
  public String toString() {
    return terms.stream().map(Term::toString).collect(Collectors.joining(","));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FieldSelector other && terms.equals(other.terms);
  }

  @Override
  public int hashCode() {
    return terms.hashCode();
  }

  /** Escapes a literal value for use in a selector (kube's {@code fields.EscapeValue}). */
  static String escapeValue(String value) {
    StringBuilder sb = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\\' || c == ',' || c == '=') {
        sb.append('\\');
      }
      sb.append(c);
    }
    return sb.toString();
  }

  /** Splits at commas not preceded by a backslash escape; escapes are kept in the parts. */
  private static List<String> splitTerms(String selector) {
    List<String> parts = new ArrayList<>();
    int start = 0;
    boolean inSlash = false;
    for (int i = 0; i < selector.length(); i++) {
      char c = selector.charAt(i);
      if (inSlash) {
        inSlash = false;
      } else if (c == '\\') {
        inSlash = true;
      } else if (c == ',') {
        parts.add(selector.substring(start, i));
        start = i + 1;
      }
    }
    parts.add(selector.substring(start));
    return parts;
  }

  private static Term parseTerm(String selector, String part) {
    for (int i = 0; i < part.length(); i++) {
      if (part.startsWith("!=", i)) {
        return new Term(part.substring(0, i), true, unescapeValue(part.substring(i + 2)));
      }
      if (part.startsWith("==", i)) {
        return new Term(part.substring(0, i), false, unescapeValue(part.substring(i + 2)));
      }
      if (part.charAt(i) == '=') {
        return new Term(part.substring(0, i), false, unescapeValue(part.substring(i + 1)));
      }
    }
    throw StatusException.badRequest(
        "invalid selector: '" + selector + "'; can't understand '" + part + "'");
  }

  /** kube's {@code fields.UnescapeValue}. */
  private static String unescapeValue(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    boolean inSlash = false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (inSlash) {
        if (c != '\\' && c != ',' && c != '=') {
          throw StatusException.badRequest(
              "invalid field selector: invalid escape sequence: \\" + c);
        }
        sb.append(c);
        inSlash = false;
      } else if (c == '\\') {
        inSlash = true;
      } else if (c == ',' || c == '=') {
        throw StatusException.badRequest(
            "invalid field selector: unescaped character in value: " + c);
      } else {
        sb.append(c);
      }
    }
    if (inSlash) {
      throw StatusException.badRequest("invalid field selector: invalid escape sequence: \\");
    }
    return sb.toString();
  }

  /** One term: {@code field=value}, or {@code field!=value} when {@code negated}. */
  private record Term(String field, boolean negated, String value) {
    @Override
    public String toString() {
      return field + (negated ? "!=" : "=") + escapeValue(value);
    }
  }
}
