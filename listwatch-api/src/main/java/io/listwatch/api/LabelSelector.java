package io.listwatch.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A label selector: apimachinery's {@code labels.Selector}, parsed from the
 * {@code labelSelector} query parameter with {@code labels.Parse}'s grammar.
 *
 * <pre>
 *   selector    ::= requirement ( "," requirement )*        (all requirements must hold)
 *   requirement ::= KEY                                       key exists
 *                 | "!" KEY                                   key absent
 *                 | KEY ( "=" | "==" ) VALUE                  key present with that value
 *                 | KEY "!=" VALUE                            key absent, or another value
 *                 | KEY "in" "(" VALUE ( "," VALUE )* ")"     key present with one of the values
 *                 | KEY "notin" "(" VALUE ( "," VALUE )* ")"  key absent, or none of the values
 *                 | KEY ( "&gt;" | "&lt;" ) INTEGER           key present, its value an integer
 *                                                             greater (less) than INTEGER
 *   KEY         ::= [ DNS-1123 subdomain (&lt;= 253) "/" ] name (&lt;= 63,
 *                   [A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)
 *   VALUE       ::= "" | up to 63 characters of the name character set
 * </pre>
 *
 * Whitespace (space, tab, CR, LF) may surround operators, commas and parentheses; {@code in}
 * and {@code notin} are keywords only where an operator is expected, so they are valid keys
 * and values. Values of {@code in}/{@code notin} form a set: duplicates fold, and empty
 * entries ({@code "x in (a,,b)"}, {@code "x in ()"}) mean the empty value.
 *
 * <p>A parse error is a 400 {@code BadRequest} {@link StatusException} whose message is the
 * one {@code labels.Parse} gives, e.g. {@code unable to parse requirement: found '(',
 * expected: in, notin, =, ==, !=, gt, lt}. Errors inside one requirement start with
 * {@code "unable to parse requirement: "}; errors between requirements (a missing comma, a
 * trailing comma) do not, as in kube.
 *
 * <p>The requirements are kept sorted by key, so {@link #toString()} is canonical: two
 * selectors that differ only in requirement order, whitespace or value order print the same
 * and are {@link #equals equal}. The canonical form parses back to an equal selector.
 *
 * <p>Immutable and thread-safe.
 */
public final class LabelSelector {

  private static final LabelSelector EVERYTHING = new LabelSelector(List.of());

  /** Sorted by key (stable); never mutated. */
  private final List<Requirement> requirements;

  LabelSelector(List<Requirement> requirements) {
    this.requirements = List.copyOf(requirements);
  }

  /** The selector that matches every label set (the empty selector). */
  public static LabelSelector everything() {
    return EVERYTHING;
  }

  /**
   * Converts a metav1 {@code LabelSelector} object ({@code matchLabels}, {@code matchExpressions})
   * as kube's {@code LabelSelectorAsSelector} does: an empty or missing object selects everything.
   * Its {@link #toString()} is the string kube puts in, e.g., a Scale's {@code status.selector}.
   *
   * @throws StatusException 400 BadRequest for an unknown operator or a term that does not parse
   */
  public static LabelSelector fromObject(JsonNode selector) {
    List<String> terms = new ArrayList<>();
    if (selector == null) {
      return EVERYTHING;
    }
    selector.path("matchLabels").properties().forEach(e -> terms.add(e.getKey() + "=" + e.getValue().asText()));
    for (JsonNode expr : selector.path("matchExpressions")) {
      String key = expr.path("key").asText("");
      List<String> values = new ArrayList<>();
      expr.path("values").forEach(v -> values.add(v.asText()));
      String set = "(" + String.join(",", values) + ")";
      switch (expr.path("operator").asText("")) {
        case "In" -> terms.add(key + " in " + set);
        case "NotIn" -> terms.add(key + " notin " + set);
        case "Exists" -> terms.add(key);
        case "DoesNotExist" -> terms.add("!" + key);
        default -> throw StatusException.badRequest("\"" + expr.path("operator").asText("")
            + "\" is not a valid label selector operator");
      }
    }
    return parse(String.join(",", terms));
  }

  /**
   * Parses a label selector. Null, empty and all-whitespace strings give
   * {@link #everything()}.
   *
   * @throws StatusException 400 BadRequest when {@code selector} does not parse
   */
  public static LabelSelector parse(String selector) {
    if (selector == null || selector.isBlank()) {
      return EVERYTHING;
    }
    List<Requirement> parsed = new LabelSelectorParser(selector).parse();
    return parsed.isEmpty() ? EVERYTHING : new LabelSelector(parsed);
  }

  /**
   * Whether every requirement holds for {@code labels}. A null map counts as no labels.
   */
  public boolean matches(Map<String, String> labels) {
    Map<String, String> ls = labels == null ? Map.of() : labels;
    for (int i = 0; i < requirements.size(); i++) {
      if (!requirements.get(i).matches(ls)) {
        return false;
      }
    }
    return true;
  }

  /** Whether this selector has no requirements, i.e. matches everything. */
  public boolean isEverything() {
    return requirements.isEmpty();
  }

  /**
   * The value {@code key} must have for this selector to match, when a requirement pins it to
   * exactly one value ({@code key=v}, {@code key==v} or {@code key in (v)}); empty otherwise.
   * Like kube's {@code RequiresExactMatch}, an index may use it to narrow candidates; the
   * whole selector must still be applied to them.
   */
  public Optional<String> requiredValue(String key) {
    for (Requirement r : requirements) {
      if (r.key().equals(key) && r.values().size() == 1
          && (r.operator() == Operator.EQUALS || r.operator() == Operator.DOUBLE_EQUALS
              || r.operator() == Operator.IN)) {
        return Optional.of(r.values().get(0));
      }
    }
    return Optional.empty();
  }

  /** Requirements sorted by key; for this package's tests and callers. */
  List<Requirement> requirements() {
    return requirements;
  }

  /**
   * The canonical form, as kube's {@code Selector.String()}: requirements sorted by key and
   * joined with commas, set values sorted, e.g. {@code !b,a in (x,y),c!=z,d}. The empty
   * selector prints as {@code ""}.
   */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < requirements.size(); i++) {
      if (i > 0) {
        sb.append(',');
      }
      requirements.get(i).appendTo(sb);
    }
    return sb.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LabelSelector other && requirements.equals(other.requirements);
  }

  @Override
  public int hashCode() {
    return requirements.hashCode();
  }

  /** The operators of a requirement, with their spelling in the canonical form. */
  enum Operator {
    EXISTS(""),
    DOES_NOT_EXIST(""),
    EQUALS("="),
    DOUBLE_EQUALS("=="),
    NOT_EQUALS("!="),
    IN(" in "),
    NOT_IN(" notin "),
    GREATER_THAN(">"),
    LESS_THAN("<");

    final String spelling;

    Operator(String spelling) {
      this.spelling = spelling;
    }
  }

  /**
   * One requirement: kube's {@code labels.Requirement}. {@code values} is sorted and
   * duplicate-free; empty for EXISTS and DOES_NOT_EXIST, one element for the equality and
   * comparison operators, one or more for IN and NOT_IN. For GREATER_THAN and LESS_THAN
   * {@code bound} holds the parsed integer.
   */
  record Requirement(String key, Operator operator, List<String> values, long bound) {

    Requirement {
      values = List.copyOf(values);
    }

    boolean matches(Map<String, String> labels) {
      String actual = labels.get(key);
      return switch (operator) {
        case EXISTS -> actual != null;
        case DOES_NOT_EXIST -> actual == null;
        case EQUALS, DOUBLE_EQUALS, IN -> actual != null && values.contains(actual);
        case NOT_EQUALS, NOT_IN -> actual == null || !values.contains(actual);
        case GREATER_THAN, LESS_THAN -> {
          if (actual == null) {
            yield false;
          }
          long n;
          try {
            n = Strconv.parseInt(actual);
          } catch (NumberFormatException e) {
            yield false;
          }
          yield operator == Operator.GREATER_THAN ? n > bound : n < bound;
        }
      };
    }

    void appendTo(StringBuilder sb) {
      if (operator == Operator.DOES_NOT_EXIST) {
        sb.append('!');
      }
      sb.append(key);
      if (operator == Operator.EXISTS || operator == Operator.DOES_NOT_EXIST) {
        return;
      }
      sb.append(operator.spelling);
      boolean set = operator == Operator.IN || operator == Operator.NOT_IN;
      if (set) {
        sb.append('(');
      }
      sb.append(String.join(",", values));
      if (set) {
        sb.append(')');
      }
    }
  }
}
