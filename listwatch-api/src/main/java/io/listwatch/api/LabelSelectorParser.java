package io.listwatch.api;

import io.listwatch.api.LabelSelector.Operator;
import io.listwatch.api.LabelSelector.Requirement;
import io.listwatch.api.validation.NameSyntax;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * The lexer and recursive-descent parser behind {@link LabelSelector#parse}, a port of the
 * one in apimachinery's {@code pkg/labels/selector.go}, with its error messages.
 *
 * <p>The lexer splits the input into identifiers (runs of anything but whitespace and the
 * special characters {@code = ! ( ) , > <}), the keywords {@code in} and {@code notin}, and
 * the operators {@code = == != ! ( ) , > <}. The parser reads keywords as plain identifiers
 * wherever a key or value is expected, so {@code in in (in)} is a valid requirement.
 *
 * <p>One instance parses one string, once; confined to the calling thread.
 */
final class LabelSelectorParser {

  private enum Token {
    END(""), IDENTIFIER(""), IN("in"), NOT_IN("notin"), OPEN_PAR("("),
    CLOSED_PAR(")"), COMMA(","), BANG("!"), EQUALS("="), DOUBLE_EQUALS("=="),
    NOT_EQUALS("!="), GREATER_THAN(">"), LESS_THAN("<");

    final String literal;

    Token(String literal) {
      this.literal = literal;
    }
  }

  private record Item(Token token, String literal) {
  }

  /** Whether the parser is after a key (keywords are operators) or elsewhere (identifiers). */
  private enum Context { KEY_AND_OPERATOR, VALUES }

  private static final String BINARY_OPERATORS = "in, notin, =, ==, !=, gt, lt";

  private final List<Item> items;
  private int position;

  LabelSelectorParser(String selector) {
    this.items = scan(selector);
  }

  /** The requirements, sorted by key; throws a 400 StatusException on a syntax error. */
  List<Requirement> parse() {
    List<Requirement> requirements = new ArrayList<>();
    while (true) {
      Item next = lookahead(Context.VALUES);
      switch (next.token()) {
        case IDENTIFIER, BANG -> {
          requirements.add(parseRequirement());
          Item after = consume(Context.VALUES);
          switch (after.token()) {
            case END -> {
              return sorted(requirements);
            }
            case COMMA -> {
              Item t = lookahead(Context.VALUES);
              if (t.token() != Token.IDENTIFIER && t.token() != Token.BANG) {
                throw error("found '" + t.literal() + "', expected: identifier after ','");
              }
            }
            default -> throw error(
                "found '" + after.literal() + "', expected: ',' or 'end of string'");
          }
        }
        case END -> {
          return sorted(requirements);
        }
        default -> throw error(
            "found '" + next.literal() + "', expected: !, identifier, or 'end of string'");
      }
    }
  }

  private static List<Requirement> sorted(List<Requirement> requirements) {
    requirements.sort(Comparator.comparing(Requirement::key));
    return requirements;
  }

  private Requirement parseRequirement() {
    boolean negated = false;
    Item keyItem = consume(Context.VALUES);
    if (keyItem.token() == Token.BANG) {
      negated = true;
      keyItem = consume(Context.VALUES);
    }
    if (keyItem.token() != Token.IDENTIFIER) {
      throw requirementError("found '" + keyItem.literal() + "', expected: identifier");
    }
    String key = keyItem.literal();
    List<String> keyErrors = NameSyntax.isQualifiedName(key);
    if (!keyErrors.isEmpty()) {
      throw requirementError(invalid("key", key, String.join("; ", keyErrors)));
    }
    Token next = lookahead(Context.VALUES).token();
    if (negated) {
      return new Requirement(key, Operator.DOES_NOT_EXIST, List.of(), 0);
    }
    if (next == Token.END || next == Token.COMMA) {
      return new Requirement(key, Operator.EXISTS, List.of(), 0);
    }
    Operator operator = parseOperator();
    List<String> values = switch (operator) {
      case IN, NOT_IN -> parseValues();
      default -> List.of(parseExactValue());
    };
    return newRequirement(key, operator, values);
  }

  private Operator parseOperator() {
    Item item = consume(Context.KEY_AND_OPERATOR);
    return switch (item.token()) {
      case IN -> Operator.IN;
      case NOT_IN -> Operator.NOT_IN;
      case EQUALS -> Operator.EQUALS;
      case DOUBLE_EQUALS -> Operator.DOUBLE_EQUALS;
      case NOT_EQUALS -> Operator.NOT_EQUALS;
      case GREATER_THAN -> Operator.GREATER_THAN;
      case LESS_THAN -> Operator.LESS_THAN;
      default -> throw requirementError(
          "found '" + item.literal() + "', expected: " + BINARY_OPERATORS);
    };
  }

  /** {@code "(" values ")"}: a sorted, duplicate-free list; {@code ()} is the empty value. */
  private List<String> parseValues() {
    Item open = consume(Context.VALUES);
    if (open.token() != Token.OPEN_PAR) {
      throw requirementError("found '" + open.literal() + "' expected: '('");
    }
    Item first = lookahead(Context.VALUES);
    switch (first.token()) {
      case IDENTIFIER, COMMA -> {
        List<String> values = parseIdentifiersList();
        Item close = consume(Context.VALUES);
        if (close.token() != Token.CLOSED_PAR) {
          throw requirementError("found '" + close.literal() + "', expected: ')'");
        }
        return values;
      }
      case CLOSED_PAR -> {
        consume(Context.VALUES);
        return List.of("");
      }
      default -> throw requirementError(
          "found '" + first.literal() + "', expected: ',', ')' or identifier");
    }
  }

  /** Comma-separated, possibly empty identifiers up to (not including) the ')'. */
  private List<String> parseIdentifiersList() {
    TreeSet<String> values = new TreeSet<>();
    while (true) {
      Item item = consume(Context.VALUES);
      switch (item.token()) {
        case IDENTIFIER -> {
          values.add(item.literal());
          Item next = lookahead(Context.VALUES);
          switch (next.token()) {
            case COMMA -> {
              // consumed at the top of the loop
            }
            case CLOSED_PAR -> {
              return new ArrayList<>(values);
            }
            default -> throw requirementError(
                "found '" + next.literal() + "', expected: ',' or ')'");
          }
        }
        case COMMA -> {
          if (values.isEmpty()) {
            values.add(""); // "(,"
          }
          Token next = lookahead(Context.VALUES).token();
          if (next == Token.CLOSED_PAR) {
            values.add(""); // ",)"
            return new ArrayList<>(values);
          }
          if (next == Token.COMMA) {
            consume(Context.VALUES);
            values.add(""); // ",,"
          }
        }
        default -> throw requirementError(
            "found '" + item.literal() + "', expected: ',', or identifier");
      }
    }
  }

  /** The single value after =, ==, !=, &gt; or &lt;; absent means the empty value. */
  private String parseExactValue() {
    Token next = lookahead(Context.VALUES).token();
    if (next == Token.END || next == Token.COMMA) {
      return "";
    }
    Item item = consume(Context.VALUES);
    if (item.token() == Token.IDENTIFIER) {
      return item.literal();
    }
    throw requirementError("found '" + item.literal() + "', expected: identifier");
  }

  /** kube's {@code NewRequirement} checks on the values, with its aggregated message. */
  private static Requirement newRequirement(String key, Operator operator, List<String> values) {
    List<String> errors = new ArrayList<>();
    long bound = 0;
    if (operator == Operator.GREATER_THAN || operator == Operator.LESS_THAN) {
      try {
        bound = Strconv.parseInt(values.get(0));
      } catch (NumberFormatException e) {
        errors.add(invalid("values[0]", values.get(0),
            "for 'Gt', 'Lt' operators, the value must be an integer"));
      }
    }
    for (int i = 0; i < values.size(); i++) {
      List<String> valueErrors = NameSyntax.isValidLabelValue(values.get(i));
      if (!valueErrors.isEmpty()) {
        errors.add(invalid("values[" + i + "][" + key + "]", values.get(i),
            String.join("; ", valueErrors)));
      }
    }
    if (errors.size() == 1) {
      throw requirementError(errors.get(0));
    }
    if (errors.size() > 1) {
      throw requirementError("[" + String.join(", ", errors) + "]");
    }
    return new Requirement(key, operator, values, bound);
  }

  /** kube's {@code field.Invalid(path, value, detail).Error()}. */
  private static String invalid(String path, String value, String detail) {
    return path + ": Invalid value: " + Strconv.quote(value) + ": " + detail;
  }

  private static StatusException requirementError(String message) {
    return error("unable to parse requirement: " + message);
  }

  private static StatusException error(String message) {
    return StatusException.badRequest(message);
  }

  private Item lookahead(Context context) {
    return inContext(items.get(position), context);
  }

  private Item consume(Context context) {
    Item item = items.get(position);
    if (position < items.size() - 1) {
      position++;
    }
    return inContext(item, context);
  }

  private static Item inContext(Item item, Context context) {
    if (context == Context.VALUES && (item.token() == Token.IN || item.token() == Token.NOT_IN)) {
      return new Item(Token.IDENTIFIER, item.literal());
    }
    return item;
  }

  // ---- lexer ----

  private static List<Item> scan(String s) {
    List<Item> out = new ArrayList<>();
    int i = 0;
    int n = s.length();
    while (true) {
      while (i < n && isWhitespace(s.charAt(i))) {
        i++;
      }
      if (i >= n) {
        out.add(new Item(Token.END, ""));
        return out;
      }
      char c = s.charAt(i);
      if (isSpecial(c)) {
        char next = i + 1 < n ? s.charAt(i + 1) : 0;
        if (c == '=' && next == '=') {
          out.add(new Item(Token.DOUBLE_EQUALS, "=="));
          i += 2;
        } else if (c == '!' && next == '=') {
          out.add(new Item(Token.NOT_EQUALS, "!="));
          i += 2;
        } else {
          Token t = switch (c) {
            case '=' -> Token.EQUALS;
            case '!' -> Token.BANG;
            case '(' -> Token.OPEN_PAR;
            case ')' -> Token.CLOSED_PAR;
            case ',' -> Token.COMMA;
            case '>' -> Token.GREATER_THAN;
            default -> Token.LESS_THAN;
          };
          out.add(new Item(t, t.literal));
          i++;
        }
      } else {
        int start = i;
        while (i < n && !isSpecial(s.charAt(i)) && !isWhitespace(s.charAt(i))) {
          i++;
        }
        String word = s.substring(start, i);
        Token t = switch (word) {
          case "in" -> Token.IN;
          case "notin" -> Token.NOT_IN;
          default -> Token.IDENTIFIER;
        };
        out.add(new Item(t, word));
      }
    }
  }

  private static boolean isWhitespace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
  }

  private static boolean isSpecial(char c) {
    return c == '=' || c == '!' || c == '(' || c == ')' || c == ',' || c == '>' || c == '<';
  }
}
