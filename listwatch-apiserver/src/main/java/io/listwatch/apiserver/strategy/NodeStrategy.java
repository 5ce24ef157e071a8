package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Nodes (core/v1), kube's node strategy, {@code ValidateNode} and {@code ValidateNodeUpdate}:
 * <ul>
 *   <li>{@code spec.taints} (at kube's path {@code metadata.taints[i]}): key a qualified name,
 *       value a label value, effect required and one of NoSchedule, PreferNoSchedule,
 *       NoExecute; no two with the same key and effect.</li>
 *   <li>{@code spec.podCIDRs} (or {@code spec.podCIDR}): each a CIDR; at most one per IP
 *       family, no duplicates; once set, never changed.</li>
 *   <li>{@code spec.providerID}: once set, never changed; {@code spec.externalID} never
 *       changed.</li>
 *   <li>{@code spec.configSource}: dropped on create, and on update unless the stored node has
 *       one (kube's dropped field); when kept, exactly one {@code configMap} with namespace,
 *       name and kubeletConfigKey, and neither uid nor resourceVersion.</li>
 *   <li>{@code status.capacity} and {@code status.allocatable}: quantities not negative, whole
 *       numbers for integer resources; on update, no duplicate {@code status.addresses}.</li>
 * </ul>
 * A client may set the status on create (kube keeps it); {@code spec.unschedulable} changes
 * freely. A {@code /status} write is refused (422) for bad quantities or a duplicate address.
 * kube validates an update with both {@code ValidateNode} and {@code ValidateNodeUpdate}, so
 * it names a bad taint twice; here once. Stateless.
 */
final class NodeStrategy implements RestStrategy {

  private static final List<String> EFFECTS = List.of("NoSchedule", "PreferNoSchedule", "NoExecute");
  private static final String CHANGE_FORBIDDEN = "node updates may not change %s except from \"\" to valid";

  @Override
  public void prepareForCreate(ObjectNode obj, Instant now) {
    ObjectNode spec = Fields.object(obj, "spec", false);
    if (spec != null) {
      spec.remove("configSource");
    }
    ObjectNode status = Fields.object(obj, "status", false);
    if (status != null) {
      status.remove("config");
    }
  }

  @Override
  public void prepareForUpdate(ObjectNode obj, ObjectNode old) {
    ObjectNode spec = Fields.object(obj, "spec", false);
    if (spec != null && !old.path("spec").hasNonNull("configSource")) {
      spec.remove("configSource");
    }
  }

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    JsonNode spec = obj.path("spec");
    taints(spec.path("taints"), errors);
    Quantities.statusResources(obj.path("status"), errors);
    List<String> cidrs = podCidrs(spec);
    for (int i = 0; i < cidrs.size(); i++) {
      Cidr.check("spec.podCIDRs[" + i + "]", cidrs.get(i), errors);
    }
    if (cidrs.size() > 1) {
      if (cidrs.size() > 2 || !Cidr.isDualStack(cidrs)) {
        errors.add(FieldErrors.invalid("spec.podCIDRs", cidrs, "may specify no more than one CIDR for each IP family"));
      }
      Set<String> seen = new HashSet<>();
      for (int i = 0; i < cidrs.size(); i++) {
        if (!seen.add(cidrs.get(i))) {
          errors.add(FieldErrors.duplicate("spec.podCIDRs[" + i + "]", cidrs.get(i)));
        }
      }
    }
    if (spec.hasNonNull("configSource")) {
      configSource(spec.path("configSource"), errors);
    }
    if (old != null) {
      validateUpdate(obj, old, cidrs, errors);
    }
  }

  private static void validateUpdate(ObjectNode obj, ObjectNode old, List<String> cidrs, List<Status.Cause> errors) {
    List<String> oldCidrs = podCidrs(old.path("spec"));
    if (!oldCidrs.isEmpty()) {
      if (oldCidrs.size() != cidrs.size()) {
        errors.add(FieldErrors.forbidden("spec.podCIDRs", CHANGE_FORBIDDEN.formatted("podCIDR")));
      } else {
        for (int i = 0; i < oldCidrs.size(); i++) {
          if (!oldCidrs.get(i).equals(cidrs.get(i))) {
            errors.add(FieldErrors.forbidden("spec.podCIDRs", CHANGE_FORBIDDEN.formatted("podCIDR")));
          }
        }
      }
    }
    String oldProvider = old.path("spec").path("providerID").asText("");
    if (!oldProvider.isEmpty() && !oldProvider.equals(obj.path("spec").path("providerID").asText(""))) {
      errors.add(FieldErrors.forbidden("spec.providerID", CHANGE_FORBIDDEN.formatted("providerID")));
    }
    if (!old.path("spec").path("externalID").asText("").equals(obj.path("spec").path("externalID").asText(""))) {
      errors.add(FieldErrors.forbidden("spec.externalID", "may not be updated"));
    }
    addresses(obj, errors);
  }

  /**
   * kube's node status strategy: the spec is the stored one (the store keeps it),
   * {@code status.config} is dropped unless the stored node has one, and
   * {@code ValidateNodeUpdate}'s status rules (resource quantities, no duplicate address) refuse
   * the write with a 422.
   */
  @Override
  public void prepareForStatusUpdate(ObjectNode obj, ObjectNode old) {
    ObjectNode status = Fields.object(obj, "status", false);
    if (status != null && !old.path("status").hasNonNull("config")) {
      status.remove("config");
    }
    List<Status.Cause> errors = new ArrayList<>();
    Quantities.statusResources(obj.path("status"), errors);
    addresses(obj, errors);
    StatusValidation.refuse("", "Node", obj, errors);
  }

  /** No two equal {@code status.addresses} (kube checks this on updates only). */
  private static void addresses(ObjectNode obj, List<Status.Cause> errors) {
    Set<JsonNode> addresses = new HashSet<>();
    JsonNode list = obj.path("status").path("addresses");
    for (int i = 0; i < list.size(); i++) {
      JsonNode a = list.get(i);
      if (!addresses.add(a)) {
        errors.add(FieldErrors.duplicate("status.addresses[" + i + "]", GoLiteral.struct("core.NodeAddress",
            "Type", FieldErrors.goValue(a.path("type").asText("")),
            "Address", FieldErrors.goValue(a.path("address").asText("")))));
      }
    }
  }

  /** The node's pod CIDRs as kube's internal form has them: {@code podCIDRs}, else {@code [podCIDR]}. */
  private static List<String> podCidrs(JsonNode spec) {
    List<String> cidrs = new ArrayList<>();
    for (JsonNode c : spec.path("podCIDRs")) {
      cidrs.add(c.asText(""));
    }
    if (cidrs.isEmpty() && !spec.path("podCIDR").asText("").isEmpty()) {
      cidrs.add(spec.path("podCIDR").asText());
    }
    return cidrs;
  }

  /** kube's {@code validateNodeTaints}, at kube's path {@code metadata.taints}. */
  private static void taints(JsonNode taints, List<Status.Cause> errors) {
    Set<String> unique = new HashSet<>();
    for (int i = 0; i < taints.size(); i++) {
      JsonNode t = taints.get(i);
      String at = "metadata.taints[" + i + "]";
      String key = t.path("key").asText("");
      String value = t.path("value").asText("");
      String effect = t.path("effect").asText("");
      for (String msg : NameSyntax.isQualifiedName(key)) {
        errors.add(FieldErrors.invalid(at + ".key", key, msg));
      }
      List<String> valueErrors = NameSyntax.isValidLabelValue(value);
      if (!valueErrors.isEmpty()) {
        errors.add(FieldErrors.invalid(at + ".value", value, String.join(";", valueErrors)));
      }
      if (effect.isEmpty()) {
        errors.add(FieldErrors.required(at + ".effect", ""));
      } else if (!EFFECTS.contains(effect)) {
        errors.add(FieldErrors.notSupported(at + ".effect", effect, EFFECTS));
      }
      if (!unique.add(effect + "\u0000" + key)) {
        GoLiteral taint = GoLiteral.struct("core.Taint", "Key", FieldErrors.goValue(key), "Value", FieldErrors.goValue(value),
            "Effect", FieldErrors.goValue(effect), "TimeAdded", t.hasNonNull("timeAdded")
                ? "time.Date(" + t.path("timeAdded").asText() + ")" : "(*v1.Time)(nil)");
        Status.Cause dup = FieldErrors.duplicate(at, taint);
        errors.add(new Status.Cause(dup.reason(), dup.message() + ": taints must be unique by key and effect pair", dup.field()));
      }
    }
  }

  /** kube's {@code validateNodeConfigSourceSpec}. */
  private static void configSource(JsonNode source, List<Status.Cause> errors) {
    String path = "spec.configSource";
    JsonNode cm = source.path("configMap");
    if (!cm.isObject()) {
      errors.add(FieldErrors.invalid(path, "", "exactly one reference subfield must be non-nil"));
      return;
    }
    String at = path + ".configMap";
    if (!cm.path("uid").asText("").isEmpty()) {
      errors.add(FieldErrors.forbidden(at + ".uid", "uid must not be set in spec"));
    }
    if (!cm.path("resourceVersion").asText("").isEmpty()) {
      errors.add(FieldErrors.forbidden(at + ".resourceVersion", "resourceVersion must not be set in spec"));
    }
    requiredName(cm, at, "namespace", "namespace must be set", NameSyntax.isDns1123Label(cm.path("namespace").asText("")), errors);
    requiredName(cm, at, "name", "name must be set", NameSyntax.isDns1123Subdomain(cm.path("name").asText("")), errors);
    requiredName(cm, at, "kubeletConfigKey", "kubeletConfigKey must be set",
        DataMaps.isConfigMapKey(cm.path("kubeletConfigKey").asText("")), errors);
  }

  private static void requiredName(JsonNode obj, String at, String field, String required, List<String> msgs,
      List<Status.Cause> errors) {
    String value = obj.path(field).asText("");
    if (value.isEmpty()) {
      errors.add(FieldErrors.required(at + "." + field, required));
      return;
    }
    for (String msg : msgs) {
      errors.add(FieldErrors.invalid(at + "." + field, value, msg));
    }
  }
}
