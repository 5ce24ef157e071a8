package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Field readers and formats the convertors share: tolerant of missing fields and wrong JSON
 * types (they read as the zero value), as kube's printers see defaulted Go structs. Stateless.
 */
public final class Cells {

  private Cells() {
  }

  /** {@code metadata.name}, or "". */
  public static String name(JsonNode object) {
    return text(object.path("metadata").path("name"));
  }

  /** {@code metadata.creationTimestamp}, or null when absent or not a time. */
  public static Instant creationTimestamp(JsonNode object) {
    return time(object.path("metadata").path("creationTimestamp"));
  }

  /** The AGE cell: time since creation, {@code <unknown>} without a creation time. */
  public static String age(JsonNode object, Instant now) {
    return HumanDuration.since(creationTimestamp(object), now);
  }

  /** A text node's value, or "" for anything else. */
  public static String text(JsonNode node) {
    return node.isTextual() ? node.textValue() : "";
  }

  /** A text node's value, or {@code fallback} when it is absent or empty. */
  public static String text(JsonNode node, String fallback) {
    String s = text(node);
    return s.isEmpty() ? fallback : s;
  }

  /** An integral node's value, or {@code fallback} when absent or not an integer. */
  public static long integer(JsonNode node, long fallback) {
    return node.isIntegralNumber() ? node.longValue() : fallback;
  }

  /** An RFC 3339 time, or null when absent or unparseable. */
  public static Instant time(JsonNode node) {
    if (!node.isTextual()) {
      return null;
    }
    try {
      return Instant.parse(node.textValue());
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** The elements of an array node; empty for anything else. */
  public static List<JsonNode> elements(JsonNode node) {
    List<JsonNode> out = new ArrayList<>();
    if (node.isArray()) {
      node.forEach(out::add);
    }
    return out;
  }

  /** A map of strings ({@code labels}, {@code selector}) as kube formats labels: sorted {@code k=v,...}, or {@code <none>}. */
  public static String labels(JsonNode map) {
    TreeMap<String, String> sorted = new TreeMap<>();
    if (map.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = map.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        sorted.put(e.getKey(), text(e.getValue()));
      }
    }
    if (sorted.isEmpty()) {
      return "<none>";
    }
    StringBuilder b = new StringBuilder();
    sorted.forEach((k, v) -> b.append(b.isEmpty() ? "" : ",").append(k).append('=').append(v));
    return b.toString();
  }

  /**
   * A LabelSelector ({@code matchLabels}, {@code matchExpressions}) as kube prints it: its
   * requirements sorted by key, {@code k=v}, {@code k in (a,b)}, {@code k notin (a,b)},
   * {@code k}, {@code !k}, joined by commas; "" for an empty or missing selector, and
   * {@code <invalid>} for an operator kube does not know or values that do not fit the
   * operator (as Deployments print it).
   */
  public static String labelSelector(JsonNode selector) {
    List<String[]> requirements = new ArrayList<>(); // key, rendered
    JsonNode matchLabels = selector.path("matchLabels");
    if (matchLabels.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = matchLabels.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        requirements.add(new String[] {e.getKey(), e.getKey() + "=" + text(e.getValue())});
      }
    }
    for (JsonNode expr : elements(selector.path("matchExpressions"))) {
      String key = text(expr.path("key"));
      TreeSet<String> values = new TreeSet<>();
      elements(expr.path("values")).forEach(v -> values.add(text(v)));
      String operator = text(expr.path("operator"));
      boolean set = operator.equals("In") || operator.equals("NotIn");
      if (set == values.isEmpty()) {
        return "<invalid>"; // In and NotIn need values, Exists and DoesNotExist take none
      }
      String rendered = switch (operator) {
        case "In" -> key + " in (" + String.join(",", values) + ")";
        case "NotIn" -> key + " notin (" + String.join(",", values) + ")";
        case "Exists" -> key;
        case "DoesNotExist" -> "!" + key;
        default -> null;
      };
      if (rendered == null) {
        return "<invalid>";
      }
      requirements.add(new String[] {key, rendered});
    }
    requirements.sort((a, b) -> a[0].compareTo(b[0]));
    StringBuilder b = new StringBuilder();
    for (String[] r : requirements) {
      b.append(b.isEmpty() ? "" : ",").append(r[1]);
    }
    return b.toString();
  }

  /**
   * A LabelSelector as kube's {@code FormatLabelSelector} prints it (DaemonSets, Jobs, ReplicaSets,
   * NetworkPolicies): as {@link #labelSelector}, but {@code <none>} for an empty or missing
   * selector and {@code <error>} for one kube cannot parse.
   */
  public static String formatLabelSelector(JsonNode selector) {
    String s = labelSelector(selector);
    return switch (s) {
      case "" -> "<none>";
      case "<invalid>" -> "<error>";
      default -> s;
    };
  }

  /**
   * An IntOrString as kube prints it: the number for an integer, the text for a string, and
   * {@code absent} when the field is missing.
   */
  public static String intOrString(JsonNode node, String absent) {
    if (node.isIntegralNumber()) {
      return Long.toString(node.longValue());
    }
    return node.isTextual() ? node.textValue() : absent;
  }

  /**
   * A list shortened as kube's printers shorten addresses, ports and hosts: the first three
   * items joined by commas, then {@code " + N more..."} for the rest.
   */
  public static String firstThree(List<String> items) {
    if (items.size() <= 3) {
      return String.join(",", items);
    }
    return String.join(",", items.subList(0, 3)) + " + " + (items.size() - 3) + " more...";
  }

  /** {@code metadata.annotations[key]}, or "". */
  public static String annotation(JsonNode object, String key) {
    return text(object.path("metadata").path("annotations").path(key));
  }

  /** Whether {@code metadata.deletionTimestamp} is set: the object is being deleted. */
  public static boolean deleting(JsonNode object) {
    return object.path("metadata").path("deletionTimestamp").isTextual();
  }

  /**
   * Whether the first condition of {@code type} in a {@code conditions} array has status
   * {@code True} (kube reads the first one only).
   */
  public static boolean conditionTrue(JsonNode conditions, String type) {
    for (JsonNode c : elements(conditions)) {
      if (text(c.path("type")).equals(type)) {
        return text(c.path("status")).equals("True");
      }
    }
    return false;
  }
}
