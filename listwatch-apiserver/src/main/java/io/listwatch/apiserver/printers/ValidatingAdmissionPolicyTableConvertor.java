package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * admissionregistration.k8s.io/v1 ValidatingAdmissionPolicies: NAME, VALIDATIONS, PARAMKIND,
 * AGE, as kube's printer: the number of validations and the param kind as
 * {@code <apiVersion>/<kind>}, {@code <unset>} without one. Stateless.
 */
public final class ValidatingAdmissionPolicyTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.integer("Validations",
          "Validations indicates the number of validation rules defined in this configuration"),
      ColumnDefinition.string("ParamKind",
          "ParamKind specifies the kind of resources used to parameterize this policy"),
      ColumnDefinition.ageColumn());

  public ValidatingAdmissionPolicyTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode policy, Instant now) {
    JsonNode spec = policy.path("spec");
    JsonNode paramKind = spec.path("paramKind");
    String shown = paramKind.isObject()
        ? paramKind.path("apiVersion").asText("") + "/" + paramKind.path("kind").asText("") : "<unset>";
    return TableRow.of(Cells.name(policy), (long) spec.path("validations").size(), shown, Cells.age(policy, now));
  }
}
