package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The part of kube's JSONPath (client-go's {@code util/jsonpath}, the language of
 * {@code kubectl -o jsonpath} and of a CustomResourceDefinition's printer columns) that
 * printer columns use, evaluated on a JSON tree with missing keys allowed:
 * <ul>
 *   <li>fields: {@code .spec.replicas}, {@code ['app.kubernetes.io/name']} or
 *       {@code ["x"]}, and the wildcard {@code .*};</li>
 *   <li>array elements: {@code [0]}, {@code [-1]} (from the end) and {@code [*]};</li>
 *   <li>filters: {@code [?(@.type=="Ready")]} with {@code ==}, {@code !=}, {@code <},
 *       {@code <=}, {@code >}, {@code >=} against a quoted string, a number, {@code true} or
 *       {@code false}, and {@code [?(@.field)]} for "has the field".</li>
 * </ul>
 * Anything else (recursive descent, slices, unions) is refused by {@link #parse}.
 *
 * <p>Immutable and thread-safe.
 */
public final class JsonPath {

  private final String expression;
  private final List<Step> steps;

  private JsonPath(String expression, List<Step> steps) {
    this.expression = expression;
    this.steps = List.copyOf(steps);
  }

  /** One step of the path: maps each node to what it selects. */
  private sealed interface Step {
  }

  private record Field(String name) implements Step {
  }

  private record Wildcard() implements Step {
  }

  private record Index(int index) implements Step {
  }

  private record Filter(List<String> path, String op, JsonNode literal) implements Step {
  }

  /**
   * Parses a path such as {@code .status.conditions[?(@.type=="Ready")].status}, with or
   * without the template braces kube puts around it ({@code {.spec.replicas}}).
   *
   * @throws IllegalArgumentException with what is wrong, for a path outside the subset
   */
  public static JsonPath parse(String expression) {
    Objects.requireNonNull(expression, "expression");
    String s = expression.trim();
    if (s.startsWith("{") && s.endsWith("}")) {
      s = s.substring(1, s.length() - 1).trim();
    }
    List<Step> steps = new ArrayList<>();
    int i = 0;
    if (!s.isEmpty() && s.charAt(0) != '.' && s.charAt(0) != '[') {
      s = "." + s; // kube accepts {spec.replicas} as {.spec.replicas}
    }
    while (i < s.length()) {
      char c = s.charAt(i);
      if (c == '.') {
        int end = i + 1;
        if (end < s.length() && s.charAt(end) == '.') {
          throw new IllegalArgumentException("recursive descent (..) is not supported in " + expression);
        }
        while (end < s.length() && s.charAt(end) != '.' && s.charAt(end) != '[') {
          end++;
        }
        String name = s.substring(i + 1, end);
        if (name.equals("*")) {
          steps.add(new Wildcard());
        } else if (!name.isEmpty()) {
          steps.add(new Field(name));
        } else if (end < s.length()) {
          throw new IllegalArgumentException("empty field name in " + expression);
        }
        i = end;
      } else if (c == '[') {
        int close = closingBracket(s, i, expression);
        steps.add(bracket(s.substring(i + 1, close).trim(), expression));
        i = close + 1;
      } else {
        throw new IllegalArgumentException("unexpected '" + c + "' at " + i + " in " + expression);
      }
    }
    return new JsonPath(expression, steps);
  }

  private static int closingBracket(String s, int open, String expression) {
    char quote = 0;
    int depth = 0;
    for (int i = open; i < s.length(); i++) {
      char c = s.charAt(i);
      char before = quote;
      quote = quoteAfter(before, c);
      if (before != 0 || quote != 0) {
        continue; // inside a quoted string, or at its opening quote
      }
      if (c == '[' || c == '(') {
        depth++;
      } else if (c == ']' || c == ')') {
        depth--;
        if (depth == 0 && c == ']') {
          return i;
        }
      }
    }
    throw new IllegalArgumentException("unclosed [ in " + expression);
  }

  private static Step bracket(String inside, String expression) {
    if (inside.equals("*")) {
      return new Wildcard();
    }
    if (isQuoted(inside)) {
      return new Field(inside.substring(1, inside.length() - 1));
    }
    if (inside.startsWith("?(") && inside.endsWith(")")) {
      return filter(inside.substring(2, inside.length() - 1).trim(), expression);
    }
    try {
      return new Index(Integer.parseInt(inside));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("unsupported [" + inside + "] in " + expression);
    }
  }

  private static Step filter(String condition, String expression) {
    String[] ops = {"==", "!=", "<=", ">=", "<", ">"};
    for (String op : ops) {
      int at = indexOutsideQuotes(condition, op);
      if (at > 0) {
        List<String> path = filterPath(condition.substring(0, at).trim(), expression);
        return new Filter(path, op, literal(condition.substring(at + op.length()).trim(), expression));
      }
    }
    return new Filter(filterPath(condition, expression), "exists", null);
  }

  private static int indexOutsideQuotes(String s, String token) {
    char quote = 0;
    for (int i = 0; i + token.length() <= s.length(); i++) {
      char before = quote;
      quote = quoteAfter(before, s.charAt(i));
      if (before == 0 && quote == 0 && s.startsWith(token, i)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The quote open after character {@code c}, given the one open before it ({@code 0}: none):
   * a single or double quote opens a quoted string, which only the same quote closes.
   */
  private static char quoteAfter(char open, char c) {
    if (open != 0) {
      return c == open ? 0 : open;
    }
    return c == '\'' || c == '"' ? c : 0;
  }

  private static List<String> filterPath(String operand, String expression) {
    if (!operand.startsWith("@")) {
      throw new IllegalArgumentException("a filter must test @ in " + expression);
    }
    List<String> names = new ArrayList<>();
    for (Step step : parse(operand.substring(1)).steps) {
      if (!(step instanceof Field f)) {
        throw new IllegalArgumentException("a filter may only name fields of @ in " + expression);
      }
      names.add(f.name());
    }
    return names;
  }

  private static JsonNode literal(String text, String expression) {
    var json = JsonNodeFactory.instance;
    if (isQuoted(text)) {
      return json.textNode(text.substring(1, text.length() - 1));
    }
    if (text.equals("true") || text.equals("false")) {
      return json.booleanNode(Boolean.parseBoolean(text));
    }
    try {
      return json.numberNode(new java.math.BigDecimal(text));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("unsupported filter value " + text + " in " + expression);
    }
  }

  private static boolean isQuoted(String s) {
    return s.length() >= 2 && (s.charAt(0) == '\'' || s.charAt(0) == '"') && s.charAt(s.length() - 1) == s.charAt(0);
  }

  /** The path as written. */
  public String expression() {
    return expression;
  }

  /**
   * Every node the path selects in {@code root}, in document order; empty when a key is
   * missing (kube's {@code AllowMissingKeys(true)}). JSON nulls are selected like any value.
   */
  public List<JsonNode> evaluate(JsonNode root) {
    List<JsonNode> current = List.of(root);
    for (Step step : steps) {
      List<JsonNode> next = new ArrayList<>();
      for (JsonNode node : current) {
        select(step, node, next);
      }
      current = next;
    }
    return current;
  }

  /** The first node the path selects, if any. */
  public Optional<JsonNode> first(JsonNode root) {
    List<JsonNode> all = evaluate(root);
    return all.isEmpty() ? Optional.empty() : Optional.of(all.get(0));
  }

  private static void select(Step step, JsonNode node, List<JsonNode> out) {
    switch (step) {
      case Field f -> {
        if (node.isObject() && node.has(f.name())) {
          out.add(node.get(f.name()));
        }
      }
      case Wildcard w -> {
        if (node.isContainerNode()) {
          node.forEach(out::add);
        }
      }
      case Index ix -> {
        if (node.isArray()) {
          int i = ix.index() < 0 ? node.size() + ix.index() : ix.index();
          if (i >= 0 && i < node.size()) {
            out.add(node.get(i));
          }
        }
      }
      case Filter f -> {
        if (node.isArray()) {
          node.forEach(element -> {
            if (matches(f, element)) {
              out.add(element);
            }
          });
        }
      }
    }
  }

  private static boolean matches(Filter f, JsonNode element) {
    JsonNode value = element;
    for (String name : f.path()) {
      value = value.isObject() ? value.get(name) : null;
      if (value == null) {
        return false;
      }
    }
    if (f.op().equals("exists")) {
      return true;
    }
    JsonNode literal = f.literal();
    int cmp;
    if (literal.isNumber() && value.isNumber()) {
      cmp = value.decimalValue().compareTo(literal.decimalValue());
    } else if (literal.isTextual() && value.isTextual()) {
      cmp = value.textValue().compareTo(literal.textValue());
    } else if (literal.isBoolean() && value.isBoolean()) {
      cmp = Boolean.compare(value.booleanValue(), literal.booleanValue());
    } else {
      return f.op().equals("!=");
    }
    return switch (f.op()) {
      case "==" -> cmp == 0;
      case "!=" -> cmp != 0;
      case "<" -> cmp < 0;
      case "<=" -> cmp <= 0;
      case ">" -> cmp > 0;
      default -> cmp >= 0;
    };
  }

  /**
   * How kube's JSONPath prints a selected value ({@code fmt.Print} of the decoded JSON): a
   * string as is, numbers and booleans as their JSON text, {@code <nil>} for null, an array as
   * {@code [a b]} and an object as {@code map[k:v]} with its keys sorted.
   */
  public static String text(JsonNode value) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      return "<nil>";
    }
    if (value.isTextual()) {
      return value.textValue();
    }
    if (value.isArray()) {
      List<String> parts = new ArrayList<>();
      value.forEach(v -> parts.add(text(v)));
      return "[" + String.join(" ", parts) + "]";
    }
    if (value.isObject()) {
      TreeMap<String, String> sorted = new TreeMap<>();
      value.properties().forEach(e -> sorted.put(e.getKey(), text(e.getValue())));
      List<String> parts = new ArrayList<>();
      sorted.forEach((k, v) -> parts.add(k + ":" + v));
      return "map[" + String.join(" ", parts) + "]";
    }
    return value.asText();
  }

  @Override
  public String toString() {
    return expression;
  }
}
