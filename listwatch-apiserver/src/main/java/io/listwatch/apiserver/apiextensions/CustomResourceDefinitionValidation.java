package io.listwatch.apiserver.apiextensions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Reasons;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.api.schema.FieldError;
import io.listwatch.api.schema.StructuralSchema;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.apiextensions.cel.CelValidator;
import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.apiserver.rest.WriteAdmission;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * kube's defaults and validation of a CustomResourceDefinition's names, scope and versions, as
 * a {@link WriteAdmission}: a bad definition is a 422 Invalid listing every problem with kube's
 * field paths and messages. Defaults first, as kube's: {@code spec.names.listKind} is the kind
 * plus {@code List}, {@code spec.names.singular} the kind in lower case, and
 * {@code spec.conversion.strategy} {@code None}; {@code spec.conversion} is checked by
 * {@link CustomResourceConversionValidation}.
 *
 * <p>Checked: the name is {@code <spec.names.plural>.<spec.group>}; the group is a DNS
 * subdomain with at least one dot; the scope is Cluster or Namespaced; plural, singular, kind
 * and listKind are given and well formed (plural and singular DNS-1035 labels in lower case);
 * there is at least one version, each a DNS-1035 label, named once, and exactly one is the
 * storage version; on update, the group, the scope (kube allows a change only while no object
 * is stored; here never) and the names' plural may not change. Each version has a schema
 * ({@code openAPIV3Schema}, {@code Required value: schemas are required}), which must be
 * structural, with valid defaults and kube's OpenAPI rules ({@link StructuralSchema}), and
 * whose {@code x-kubernetes-validations} compile ({@link CelValidator#compileErrors}), e.g.
 * {@code spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must
 * not be empty for specified object fields}. Stateless.
 */
public final class CustomResourceDefinitionValidation implements WriteAdmission {

  private static final String GROUP = "apiextensions.k8s.io";
  private static final String KIND = "CustomResourceDefinition";

  @Override
  public void admit(UserInfo user, String namespace, ObjectNode crd, ObjectNode old) {
    applyDefaults(crd);
    List<Status.Cause> causes = new ArrayList<>();
    JsonNode spec = crd.path("spec");
    String group = spec.path("group").asText("");
    JsonNode names = spec.path("names");
    String plural = names.path("plural").asText("");
    String name = crd.path("metadata").path("name").asText("");
    if (!name.equals(plural + "." + group)) {
      causes.add(invalid("metadata.name", name, "must be spec.names.plural+\".\"+spec.group"));
    }
    if (group.isEmpty()) {
      causes.add(required("spec.group"));
    } else {
      for (String m : NameSyntax.isDns1123Subdomain(group)) {
        causes.add(invalid("spec.group", group, m));
      }
      if (!group.contains(".")) {
        causes.add(invalid("spec.group", group, "should be a domain with at least one dot"));
      }
    }
    String scope = spec.path("scope").asText("");
    if (scope.isEmpty()) {
      causes.add(required("spec.scope"));
    } else if (!scope.equals("Cluster") && !scope.equals("Namespaced")) {
      causes.add(new Status.Cause(Reasons.FIELD_VALUE_NOT_SUPPORTED, "Unsupported value: \"" + scope
          + "\": supported values: \"Cluster\", \"Namespaced\"", "spec.scope"));
    }
    checkName(causes, "spec.names.plural", plural, true);
    checkName(causes, "spec.names.singular", names.path("singular").asText(""), true);
    checkName(causes, "spec.names.kind", names.path("kind").asText(""), false);
    checkName(causes, "spec.names.listKind", names.path("listKind").asText(""), false);
    checkVersions(causes, spec.path("versions"));
    CustomResourceViewsValidation.check(causes, spec);
    CustomResourceConversionValidation.check(causes, spec, old == null ? null : old.path("spec"));
    if (old != null) {
      immutable(causes, "spec.group", old.path("spec").path("group"), spec.path("group"));
      immutable(causes, "spec.scope", old.path("spec").path("scope"), spec.path("scope"));
      immutable(causes, "spec.names.plural", old.path("spec").path("names").path("plural"), names.path("plural"));
    }
    if (!causes.isEmpty()) {
      throw StatusException.invalid(GROUP, KIND, name, causes);
    }
  }

  /** kube's defaults for a definition: listKind, singular, conversion strategy. */
  static void applyDefaults(ObjectNode crd) {
    if (!(crd.get("spec") instanceof ObjectNode spec)) {
      return;
    }
    if (spec.get("names") instanceof ObjectNode names) {
      String kind = names.path("kind").asText("");
      if (!kind.isEmpty() && names.path("listKind").asText("").isEmpty()) {
        names.put("listKind", kind + "List");
      }
      if (!kind.isEmpty() && names.path("singular").asText("").isEmpty()) {
        names.put("singular", kind.toLowerCase(Locale.ROOT));
      }
    }
    ObjectNode conversion = spec.get("conversion") instanceof ObjectNode c ? c : spec.putObject("conversion");
    if (conversion.path("strategy").asText("").isEmpty()) {
      conversion.put("strategy", "None");
    }
    CustomResourceConversionValidation.applyDefaults(conversion);
  }

  private static void checkName(List<Status.Cause> causes, String field, String value, boolean lowerLabel) {
    if (value.isEmpty()) {
      causes.add(required(field));
      return;
    }
    if (lowerLabel) {
      for (String m : NameSyntax.isDns1035Label(value)) {
        causes.add(invalid(field, value, m));
      }
    } else if (!Character.isUpperCase(value.charAt(0)) && !Character.isLowerCase(value.charAt(0))
        || !value.chars().allMatch(Character::isLetterOrDigit)) {
      causes.add(invalid(field, value, "may have mixed case, but should otherwise match: [a-z]([-a-z0-9]*[a-z0-9])?"));
    }
  }

  private static void checkVersions(List<Status.Cause> causes, JsonNode versions) {
    if (!versions.isArray() || versions.isEmpty()) {
      causes.add(new Status.Cause(Reasons.FIELD_VALUE_INVALID,
          "Invalid value: \"null\": must have exactly one version marked as storage version", "spec.versions"));
      return;
    }
    int storage = 0;
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < versions.size(); i++) {
      JsonNode v = versions.get(i);
      String field = "spec.versions[" + i + "].name";
      String name = v.path("name").asText("");
      if (name.isEmpty()) {
        causes.add(required(field));
      } else {
        for (String m : NameSyntax.isDns1035Label(name)) {
          causes.add(invalid(field, name, m));
        }
        if (!seen.add(name)) {
          causes.add(new Status.Cause(Reasons.FIELD_VALUE_DUPLICATE, "Duplicate value: \"" + name + "\"", field));
        }
      }
      if (v.path("storage").asBoolean(false)) {
        storage++;
      }
      JsonNode schema = v.path("schema").path("openAPIV3Schema");
      if (schema.isMissingNode() || schema.isNull()) {
        causes.add(new Status.Cause(Reasons.FIELD_VALUE_REQUIRED, "Required value: schemas are required",
            "spec.versions[" + i + "].schema.openAPIV3Schema"));
      } else {
        String path = "spec.versions[" + i + "].schema.openAPIV3Schema";
        List<FieldError> schemaErrors = StructuralSchema.validate(schema, path);
        schemaErrors.forEach(e -> causes.add(e.toCause()));
        if (schemaErrors.isEmpty()) { // kube compiles the rules of a structural schema only
          CelValidator.compileErrors(schema, path).forEach(e -> causes.add(e.toCause()));
        }
      }
    }
    if (storage != 1) {
      causes.add(new Status.Cause(Reasons.FIELD_VALUE_INVALID, "Invalid value: " + versionsValue(versions)
          + ": must have exactly one version marked as storage version", "spec.versions"));
    }
  }

  /** How kube prints the versions in that message: a Go slice of their names. */
  private static String versionsValue(JsonNode versions) {
    List<String> out = new ArrayList<>();
    versions.forEach(v -> out.add(v.path("name").asText("")));
    return "[]string{" + String.join(", ", out.stream().map(n -> "\"" + n + "\"").toList()) + "}";
  }

  private static void immutable(List<Status.Cause> causes, String field, JsonNode before, JsonNode after) {
    if (!before.isMissingNode() && !before.equals(after)) {
      causes.add(new Status.Cause(Reasons.FIELD_VALUE_INVALID,
          "Invalid value: \"" + after.asText("") + "\": field is immutable", field));
    }
  }

  private static Status.Cause required(String field) {
    return new Status.Cause(Reasons.FIELD_VALUE_REQUIRED, "Required value", field);
  }

  private static Status.Cause invalid(String field, String value, String message) {
    return new Status.Cause(Reasons.FIELD_VALUE_INVALID, "Invalid value: \"" + value + "\": " + message, field);
  }
}
