package io.listwatch.apiserver.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.apiextensions.cel.AdmissionExpression;
import io.listwatch.apiserver.registry.ResourceDefinition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The {@code request} and {@code namespaceObject} variables of a policy's expressions, as kube
 * makes them ({@code cel.CreateAdmissionRequest}, {@code cel.CreateNamespaceObject}):
 * {@code request} is the AdmissionRequest without its objects ({@code uid}, {@code kind},
 * {@code resource}, {@code subResource}, {@code requestKind}, {@code requestResource},
 * {@code requestSubResource}, {@code name}, {@code namespace}, {@code operation},
 * {@code userInfo}, {@code dryRun}; empty strings left out as kube's {@code omitempty}
 * does); {@code namespaceObject} is the request's Namespace (null for a cluster-scoped object and
 * for a Namespace itself) with its spec, status and metadata but not its managedFields or owners.
 *
 * <p>Stateless; thread-safe.
 */
final class PolicyRequest {

  private PolicyRequest() {
  }

  static Map<String, Object> request(AdmissionAttributes a) {
    ResourceDefinition def = a.resource();
    String kind = def.kind();
    String kindGroup = def.group();
    String kindVersion = def.version();
    if (!a.subresource().isEmpty()) {
      ResourceDefinition.Subresource sub = def.subresources().get(a.subresource());
      if (sub != null && sub.kind() != null && !sub.kind().isEmpty()) {
        kind = sub.kind();
        kindGroup = sub.group().isEmpty() ? def.group() : sub.group();
        kindVersion = sub.version().isEmpty() ? def.version() : sub.version();
      }
    }
    Map<String, Object> gvk = Map.of("group", kindGroup, "version", kindVersion, "kind", kind);
    Map<String, Object> gvr = Map.of("group", def.group(), "version", def.version(), "resource", def.plural());
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("uid", UUID.randomUUID().toString());
    r.put("kind", gvk);
    r.put("resource", gvr);
    putIfSet(r, "subResource", a.subresource());
    r.put("requestKind", gvk);
    r.put("requestResource", gvr);
    putIfSet(r, "requestSubResource", a.subresource());
    putIfSet(r, "name", a.name());
    putIfSet(r, "namespace", a.namespace());
    r.put("operation", a.operation().name());
    Map<String, Object> user = new LinkedHashMap<>();
    putIfSet(user, "username", a.user().name());
    putIfSet(user, "uid", a.user().uid());
    if (!a.user().groups().isEmpty()) {
      user.put("groups", List.copyOf(a.user().groups()));
    }
    if (!a.user().extra().isEmpty()) {
      Map<String, Object> extra = new LinkedHashMap<>();
      a.user().extra().forEach((k, v) -> extra.put(k, List.copyOf(v)));
      user.put("extra", extra);
    }
    r.put("userInfo", user);
    r.put("dryRun", a.dryRun());
    return r;
  }

  private static void putIfSet(Map<String, Object> m, String key, String value) {
    if (value != null && !value.isEmpty()) {
      m.put(key, value);
    }
  }

  /** The request's Namespace as kube shows it to expressions, or CEL's null. */
  static Object namespaceObject(AdmissionAttributes a, Listers listers) {
    boolean isNamespace = a.resource().group().isEmpty() && a.resource().plural().equals("namespaces");
    if (a.namespace().isEmpty() || isNamespace) {
      return AdmissionExpression.nullValue();
    }
    Optional<ObjectNode> ns = listers.get("", "namespaces", "", a.namespace());
    if (ns.isEmpty()) {
      return AdmissionExpression.nullValue();
    }
    ObjectNode shown = ns.get().deepCopy();
    JsonNode meta = shown.path("metadata");
    if (meta instanceof ObjectNode m) {
      m.remove(List.of("managedFields", "ownerReferences", "selfLink"));
    }
    shown.remove(List.of("apiVersion", "kind"));
    return AdmissionExpression.value(shown);
  }
}
