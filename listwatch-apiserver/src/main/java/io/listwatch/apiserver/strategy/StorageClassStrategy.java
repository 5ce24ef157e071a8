package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * StorageClasses (storage.k8s.io/v1), kube's strategy, defaults and validation. Defaults:
 * {@code reclaimPolicy: Delete}, {@code volumeBindingMode: Immediate}. Validation
 * ({@code ValidateStorageClass}, {@code ValidateStorageClassUpdate}): a provisioner that is a
 * qualified name (lower-cased), at most 512 parameters of at most 256 KiB together, none with
 * an empty key; a reclaim policy of Delete or Retain, a binding mode of Immediate or
 * WaitForFirstConsumer; on update the parameters, provisioner, reclaim policy and binding mode
 * may not change; {@code allowedTopologies} as kube's {@code validateAllowedTopologies} (create
 * and update, see {@link #allowedTopologies}). Stateless.
 */
final class StorageClassStrategy implements RestStrategy {

  private static final int MAX_PARAMETERS = 512;
  private static final int MAX_PARAMETERS_SIZE = 256 * 1024;

  @Override
  public void defaults(ObjectNode obj) {
    Fields.defaultIfAbsent(obj, "reclaimPolicy", "Delete");
    Fields.defaultIfAbsent(obj, "volumeBindingMode", "Immediate");
  }

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    String provisioner = obj.path("provisioner").asText("");
    if (provisioner.isEmpty()) {
      errors.add(FieldErrors.required("provisioner", ""));
    } else {
      String lower = provisioner.toLowerCase(Locale.ROOT);
      for (String msg : NameSyntax.isQualifiedName(lower)) {
        errors.add(FieldErrors.invalid("provisioner", lower, msg));
      }
    }
    parameters(obj.path("parameters"), errors);
    String reclaimPolicy = obj.path("reclaimPolicy").asText("");
    if (!reclaimPolicy.isEmpty() && !reclaimPolicy.equals("Delete") && !reclaimPolicy.equals("Retain")) {
      errors.add(FieldErrors.notSupported("reclaimPolicy", reclaimPolicy, List.of("Delete", "Retain")));
    }
    JsonNode mode = obj.path("volumeBindingMode");
    if (!NumericFields.given(mode)) {
      errors.add(FieldErrors.required("volumeBindingMode", ""));
    } else if (!mode.asText("").equals("Immediate") && !mode.asText("").equals("WaitForFirstConsumer")) {
      errors.add(FieldErrors.notSupported("volumeBindingMode", mode.asText(""), List.of("Immediate", "WaitForFirstConsumer")));
    }
    allowedTopologies(obj.path("allowedTopologies"), errors);
    if (old != null) {
      update(obj, old, errors);
    }
  }

  /** kube's {@code validateParameters}. */
  private static void parameters(JsonNode params, List<Status.Cause> errors) {
    if (params.size() > MAX_PARAMETERS) {
      errors.add(FieldErrors.tooLong("parameters", MAX_PARAMETERS));
      return;
    }
    long total = 0;
    for (Map.Entry<String, JsonNode> p : params.properties()) {
      if (p.getKey().isEmpty()) {
        errors.add(FieldErrors.invalid("parameters", "", "field can not be empty."));
      }
      total += NameSyntax.byteLength(p.getKey()) + NameSyntax.byteLength(p.getValue().asText(""));
    }
    if (total > MAX_PARAMETERS_SIZE) {
      errors.add(FieldErrors.tooLong("parameters", MAX_PARAMETERS_SIZE));
    }
  }

  /**
   * kube's {@code validateAllowedTopologies} and {@code ValidateTopologySelectorTerm}: each
   * expression's values required and without duplicates, its key a qualified name, no key twice
   * in a term; a term that selects what another does (key to set of values) is a duplicate. As
   * in kube, whose list of seen terms starts with one empty entry per term, a term without
   * expressions is reported a duplicate once per term in the list (plus once per earlier empty
   * term).
   */
  private static void allowedTopologies(JsonNode terms, List<Status.Cause> errors) {
    List<Map<String, Set<String>>> seen = new ArrayList<>();
    for (int i = 0; i < terms.size(); i++) {
      seen.add(Map.of());
    }
    for (int i = 0; i < terms.size(); i++) {
      String path = "allowedTopologies[" + i + "].matchLabelExpressions";
      Map<String, Set<String>> term = new HashMap<>();
      JsonNode expressions = terms.get(i).path("matchLabelExpressions");
      for (int j = 0; j < expressions.size(); j++) {
        String at = path + "[" + j + "]";
        JsonNode values = expressions.get(j).path("values");
        if (values.isEmpty()) {
          errors.add(FieldErrors.required(at + ".values", ""));
        }
        Set<String> valueSet = new HashSet<>();
        for (int k = 0; k < values.size(); k++) {
          if (!valueSet.add(values.get(k).asText(""))) {
            errors.add(FieldErrors.duplicate(at + ".values[" + k + "]", values.get(k).asText("")));
          }
        }
        String key = expressions.get(j).path("key").asText("");
        for (String msg : NameSyntax.isQualifiedName(key)) {
          errors.add(FieldErrors.invalid(at + ".key", key, msg));
        }
        if (term.containsKey(key)) {
          errors.add(FieldErrors.duplicate(at + ".key", key));
        }
        term.put(key, valueSet);
      }
      for (Map<String, Set<String>> other : seen) {
        if (other.equals(term)) {
          errors.add(FieldErrors.duplicate(path, ""));
        }
      }
      seen.add(term);
    }
  }

  /** kube's {@code ValidateStorageClassUpdate}. */
  private static void update(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    if (!sameMap(obj.path("parameters"), old.path("parameters"))) {
      errors.add(FieldErrors.forbidden("parameters", "updates to parameters are forbidden."));
    }
    if (!obj.path("provisioner").asText("").equals(old.path("provisioner").asText(""))) {
      errors.add(FieldErrors.forbidden("provisioner", "updates to provisioner are forbidden."));
    }
    if (!obj.path("reclaimPolicy").asText("").equals(old.path("reclaimPolicy").asText(""))) {
      errors.add(FieldErrors.forbidden("reclaimPolicy", "updates to reclaimPolicy are forbidden."));
    }
    if (!obj.path("volumeBindingMode").equals(old.path("volumeBindingMode"))) {
      errors.add(FieldErrors.invalid("volumeBindingMode", obj.path("volumeBindingMode").asText(null), "field is immutable"));
    }
  }

  /** kube's {@code reflect.DeepEqual} of two parameter maps: a missing map and an empty one differ. */
  private static boolean sameMap(JsonNode a, JsonNode b) {
    return a.equals(b) || a.isEmpty() && b.isEmpty() && NumericFields.given(a) == NumericFields.given(b);
  }
}
