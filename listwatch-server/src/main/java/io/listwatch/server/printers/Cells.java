package io.listwatch.server.printers;

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
   * {@code <invalid>} for an operator kube does not know.
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
      String rendered = switch (text(expr.path("operator"))) {
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

  /** The names and the images of a pod template's containers, each comma-joined. */
  public static String[] containersAndImages(JsonNode podTemplateSpec) {
    List<String> names = new ArrayList<>();
    List<String> images = new ArrayList<>();
    for (JsonNode c : elements(podTemplateSpec.path("spec").path("containers"))) {
      names.add(text(c.path("name")));
      images.add(text(c.path("image")));
    }
    return new String[] {String.join(",", names), String.join(",", images)};
  }
}
