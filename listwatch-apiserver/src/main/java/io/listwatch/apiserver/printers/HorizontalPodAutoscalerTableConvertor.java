package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * autoscaling HorizontalPodAutoscalers (kube 1.32's {@code printHorizontalPodAutoscaler}, on
 * the v2 form, kube's internal type): NAME, REFERENCE ({@code <kind>/<name>} of the scale
 * target), TARGETS (per metric {@code <current>/<target>}, the current one {@code <unknown>}
 * until the status has it; Resource and ContainerResource metrics prefixed with their resource
 * name, utilization in percent, {@code <auto>} without a target; Object and External average
 * targets marked {@code (avg)}; at most two, then {@code + N more...}; {@code <none>} without
 * metrics), MINPODS ({@code <unset>} when absent), MAXPODS, REPLICAS (the current ones), AGE.
 * Quantities print as the object holds them. Stateless.
 */
public final class HorizontalPodAutoscalerTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.string("Reference", "scaleTargetRef points to the target resource to scale, and is used to "
          + "the pods for which metrics should be collected, as well as to actually change the replica count."),
      ColumnDefinition.string("Targets", "metrics contains the specifications for which to use to calculate the "
          + "desired replica count (the maximum replica count across all metrics will be used)."),
      ColumnDefinition.string("MinPods", "minReplicas is the lower limit for the number of replicas to which the "
          + "autoscaler can scale down."),
      ColumnDefinition.string("MaxPods", "maxReplicas is the upper limit for the number of replicas to which the "
          + "autoscaler can scale up. It cannot be less that minReplicas."),
      ColumnDefinition.string("Replicas", "currentReplicas is current number of replicas of pods managed by this "
          + "autoscaler, as last seen by the autoscaler."),
      ColumnDefinition.ageColumn());
  private static final int SHOWN = 2;

  private final UnaryOperator<ObjectNode> toV2;

  /**
   * @param toV2 turns an object of the served version into the v2 form (identity for v2)
   */
  public HorizontalPodAutoscalerTableConvertor(UnaryOperator<ObjectNode> toV2) {
    super(COLUMNS);
    this.toV2 = toV2;
  }

  @Override
  public TableRow row(JsonNode object, Instant now) {
    JsonNode hpa = object instanceof ObjectNode o ? toV2.apply(o) : object;
    JsonNode spec = hpa.path("spec");
    JsonNode ref = spec.path("scaleTargetRef");
    JsonNode min = spec.path("minReplicas");
    return TableRow.of(Cells.name(hpa), ref.path("kind").asText("") + "/" + ref.path("name").asText(""),
        metrics(spec.path("metrics"), hpa.path("status").path("currentMetrics")),
        min.isIntegralNumber() ? Long.toString(min.longValue()) : "<unset>",
        Cells.integer(spec.path("maxReplicas"), 0),
        Cells.integer(hpa.path("status").path("currentReplicas"), 0), Cells.age(hpa, now));
  }

  /** kube's {@code formatHPAMetrics}. */
  static String metrics(JsonNode specs, JsonNode statuses) {
    if (specs.isEmpty()) {
      return "<none>";
    }
    List<String> list = new ArrayList<>();
    for (int i = 0; i < specs.size(); i++) {
      JsonNode spec = specs.get(i);
      JsonNode status = statuses.path(i);
      String type = spec.path("type").asText("");
      switch (type) {
        case "External", "Object" -> {
          String field = type.equals("External") ? "external" : "object";
          JsonNode target = spec.path(field).path("target");
          JsonNode current = status.path(field);
          if (present(target.path("averageValue"))) {
            String now = present(current.path("current").path("averageValue"))
                ? Cells.text(current.path("current").path("averageValue")) : "<unknown>";
            list.add(now + "/" + Cells.text(target.path("averageValue")) + " (avg)");
          } else {
            String now = current.isObject() ? quantity(current.path("current").path("value")) : "<unknown>";
            list.add(now + "/" + quantity(target.path("value")));
          }
        }
        case "Pods" -> {
          JsonNode current = status.path("pods");
          String now = current.isObject() ? quantity(current.path("current").path("averageValue")) : "<unknown>";
          list.add(now + "/" + quantity(spec.path("pods").path("target").path("averageValue")));
        }
        case "Resource", "ContainerResource" -> {
          String field = type.equals("Resource") ? "resource" : "containerResource";
          JsonNode source = spec.path(field);
          JsonNode target = source.path("target");
          JsonNode current = status.path(field);
          String name = source.path("name").asText("");
          if (present(target.path("averageValue"))) {
            String now = current.isObject() ? quantity(current.path("current").path("averageValue")) : "<unknown>";
            list.add(name + ": " + now + "/" + Cells.text(target.path("averageValue")));
          } else {
            JsonNode utilization = current.path("current").path("averageUtilization");
            String now = current.isObject() && utilization.isIntegralNumber() ? utilization.longValue() + "%" : "<unknown>";
            JsonNode goal = target.path("averageUtilization");
            list.add(name + ": " + now + "/" + (goal.isIntegralNumber() ? goal.longValue() + "%" : "<auto>"));
          }
        }
        default -> list.add("<unknown type>");
      }
    }
    String shown = String.join(", ", list.subList(0, Math.min(SHOWN, list.size())));
    return list.size() > SHOWN ? shown + " + " + (list.size() - SHOWN) + " more..." : shown;
  }

  private static boolean present(JsonNode node) {
    return !node.isMissingNode() && !node.isNull();
  }

  /** A quantity as Go prints it, its zero {@code 0} when absent. */
  private static String quantity(JsonNode q) {
    return present(q) ? Cells.text(q) : "0";
  }
}
