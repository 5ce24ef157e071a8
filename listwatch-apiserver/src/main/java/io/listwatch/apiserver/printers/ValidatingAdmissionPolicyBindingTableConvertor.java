package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * admissionregistration.k8s.io/v1 ValidatingAdmissionPolicyBindings: NAME, POLICYNAME, PARAMREF,
 * AGE, as kube's printer: the param as {@code <namespace>/<name>} ({@code * /<name>} without a
 * namespace), or its selector in the Go form kube prints
 * ({@code &LabelSelector{MatchLabels:map[string]string{a: b,},MatchExpressions:[]LabelSelectorRequirement{},}}),
 * {@code <unset>} without a paramRef. Stateless.
 */
public final class ValidatingAdmissionPolicyBindingTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.string("PolicyName",
          "PolicyName indicates the policy definition which the policy binding binded to"),
      ColumnDefinition.string("ParamRef", "ParamRef indicates the param resource which sets the configration param"),
      ColumnDefinition.ageColumn());

  public ValidatingAdmissionPolicyBindingTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode binding, Instant now) {
    JsonNode spec = binding.path("spec");
    return TableRow.of(Cells.name(binding), spec.path("policyName").asText(""), paramRef(spec.path("paramRef")),
        Cells.age(binding, now));
  }

  private static String paramRef(JsonNode ref) {
    if (!ref.isObject()) {
      return "<unset>";
    }
    String name = ref.path("name").asText("");
    if (!name.isEmpty()) {
      String ns = ref.path("namespace").asText("");
      return (ns.isEmpty() ? "*" : ns) + "/" + name;
    }
    JsonNode selector = ref.path("selector");
    return selector.isObject() ? goSelector(selector) : "<unset>";
  }

  /** The generated Go {@code String()} of a metav1.LabelSelector. */
  private static String goSelector(JsonNode selector) {
    Map<String, String> labels = new TreeMap<>();
    selector.path("matchLabels").properties().forEach(e -> labels.put(e.getKey(), e.getValue().asText()));
    StringBuilder s = new StringBuilder("&LabelSelector{MatchLabels:map[string]string{");
    labels.forEach((k, v) -> s.append(k).append(": ").append(v).append(','));
    s.append("},MatchExpressions:[]LabelSelectorRequirement{");
    for (JsonNode r : Cells.elements(selector.path("matchExpressions"))) {
      List<String> values = new ArrayList<>();
      r.path("values").forEach(v -> values.add(v.asText()));
      s.append("LabelSelectorRequirement{Key:").append(r.path("key").asText(""))
          .append(",Operator:").append(r.path("operator").asText(""))
          .append(",Values:[").append(String.join(" ", values)).append("],},");
    }
    return s.append("},}").toString();
  }
}
