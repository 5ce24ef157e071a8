package io.listwatch.apiserver.admission.webhook;

/**
 * Whether a webhook's rule matches a write (kube's {@code predicates/rules.Matcher}): its scope,
 * operation, API group, version and resource ("*" matching any; {@code pods/status} a
 * subresource, {@code pods/*} pods and any subresource of theirs, {@code *}{@code /*} anything; a bare
 * {@code pods} only the main resource). A Namespace itself is cluster-scoped. Stateless.
 */
final class RuleMatcher {

  private RuleMatcher() {
  }

  /** The write as a rule sees it, possibly at an equivalent group/version/resource. */
  record Target(String operation, String group, String version, String resource, String subresource,
      String namespace) {

    boolean isNamespace() {
      return group.isEmpty() && version.equals("v1") && resource.equals("namespaces");
    }
  }

  static boolean matches(AdmissionWebhook.Rule rule, Target t) {
    return scope(rule.scope(), t) && (rule.operations().contains("*") || rule.operations().contains(t.operation()))
        && exactOrWildcard(rule.apiGroups(), t.group()) && exactOrWildcard(rule.apiVersions(), t.version())
        && resource(rule, t);
  }

  private static boolean scope(String scope, Target t) {
    return switch (scope) {
      case "*" -> true;
      case "Namespaced" -> !t.isNamespace() && !t.namespace().isEmpty();
      case "Cluster" -> t.isNamespace() || t.namespace().isEmpty();
      default -> false;
    };
  }

  private static boolean exactOrWildcard(java.util.List<String> items, String requested) {
    return items.contains("*") || items.contains(requested);
  }

  private static boolean resource(AdmissionWebhook.Rule rule, Target t) {
    for (String r : rule.resources()) {
      int slash = r.indexOf('/');
      String res = slash < 0 ? r : r.substring(0, slash);
      String sub = slash < 0 ? "" : r.substring(slash + 1);
      if ((res.equals("*") || res.equals(t.resource())) && (sub.equals("*") || sub.equals(t.subresource()))) {
        return true;
      }
    }
    return false;
  }
}
