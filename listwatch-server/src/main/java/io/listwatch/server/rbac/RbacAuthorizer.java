package io.listwatch.server.rbac;

import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.server.authz.Attributes;
import io.listwatch.server.authz.Authorizer;
import io.listwatch.server.authz.Decision;
import io.listwatch.server.authz.RuleResolver;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * kube's RBAC authorizer and rule resolver over a {@link PolicyCache}.
 *
 * <p>A request is allowed when a rule of a role bound to the user allows it: first the roles of
 * ClusterRoleBindings, then, for a namespaced request, the roles of RoleBindings in that
 * namespace (a RoleBinding may reference a ClusterRole; its rules then apply in that namespace
 * only). The reason names the grant, e.g. {@code RBAC: allowed by ClusterRoleBinding "x" of
 * ClusterRole "y" to User "z"}. Otherwise the decision is no opinion (the request is then
 * forbidden), with the errors met on the way (a binding to a missing role) as the reason.
 *
 * <p>Thread-safe and non-blocking: it only reads the cache.
 */
public final class RbacAuthorizer implements Authorizer, RuleResolver {

  private final PolicyCache cache;

  public RbacAuthorizer(PolicyCache cache) {
    this.cache = cache;
  }

  /** Receives the rules that apply to a user, with where each comes from. */
  interface RuleVisitor {
    /**
     * @param source the binding and subject granting {@code rule}; null with an error
     * @param rule null with an error
     * @param error why rules could not be read, or null
     * @return false to stop visiting
     */
    boolean visit(String source, PolicyRule rule, String error);
  }

  @Override
  public Decision authorize(Attributes a) {
    String[] allowedBy = new String[1];
    Set<String> errors = new LinkedHashSet<>();
    visitRulesFor(a.user(), a.namespace(), (source, rule, error) -> {
      if (error != null) {
        errors.add(error);
        return true;
      }
      if (rule.allows(a)) {
        allowedBy[0] = source;
        return false;
      }
      return true;
    });
    if (allowedBy[0] != null) {
      return Decision.allow("RBAC: allowed by " + allowedBy[0]);
    }
    return Decision.noOpinion(errors.isEmpty() ? "" : "RBAC: " + aggregate(errors));
  }

  /** The rules of every role bound to {@code user} in {@code namespace} and cluster-wide, and any errors. */
  public ResolvedRules rules(UserInfo user, String namespace) {
    List<PolicyRule> rules = new ArrayList<>();
    Set<String> errors = new LinkedHashSet<>();
    visitRulesFor(user, namespace, (source, rule, error) -> {
      if (error != null) {
        errors.add(error);
      } else {
        rules.add(rule);
      }
      return true;
    });
    return new ResolvedRules(rules, errors.isEmpty() ? "" : aggregate(errors));
  }

  /** Rules and the errors met while resolving them ("" if none). */
  public record ResolvedRules(List<PolicyRule> rules, String error) {
  }

  @Override
  public SubjectRules rulesFor(UserInfo user, String namespace) {
    ResolvedRules resolved = rules(user, namespace);
    List<ResourceRule> resource = new ArrayList<>();
    List<NonResourceRule> nonResource = new ArrayList<>();
    for (PolicyRule r : resolved.rules()) {
      if (!r.resources().isEmpty()) {
        resource.add(new ResourceRule(r.verbs(), r.apiGroups(), r.resources(), r.resourceNames()));
      }
      if (!r.nonResourceURLs().isEmpty()) {
        nonResource.add(new NonResourceRule(r.verbs(), r.nonResourceURLs()));
      }
    }
    return new SubjectRules(resource, nonResource, false, resolved.error());
  }

  /**
   * The rules a role reference grants in {@code bindingNamespace} (kube's
   * {@code GetRoleReferenceRules}); empty with the error text when the role does not exist.
   */
  public Optional<List<PolicyRule>> roleReferenceRules(RoleRef ref, String bindingNamespace, List<String> error) {
    Optional<Role> role = switch (ref.kind()) {
      case RoleRef.ROLE -> cache.role(bindingNamespace, ref.name());
      case RoleRef.CLUSTER_ROLE -> cache.clusterRole(ref.name());
      default -> {
        error.add("unsupported role reference kind: " + PolicyRule.goQuote(ref.kind()));
        yield Optional.empty();
      }
    };
    if (role.isEmpty() && error.isEmpty()) {
      error.add((ref.kind().equals(RoleRef.ROLE) ? "role" : "clusterrole") + ".rbac.authorization.k8s.io "
          + PolicyRule.goQuote(ref.name()) + " not found");
    }
    return role.map(Role::rules);
  }

  /** kube's {@code VisitRulesFor}. */
  void visitRulesFor(UserInfo user, String namespace, RuleVisitor visitor) {
    for (Binding b : cache.clusterRoleBindings()) {
      if (!visitBinding(b, user, visitor)) {
        return;
      }
    }
    if (!namespace.isEmpty()) {
      for (Binding b : cache.roleBindings(namespace)) {
        if (!visitBinding(b, user, visitor)) {
          return;
        }
      }
    }
  }

  private boolean visitBinding(Binding b, UserInfo user, RuleVisitor visitor) {
    Subject subject = null;
    for (Subject s : b.subjects()) {
      if (s.appliesTo(user, b.namespace())) {
        subject = s;
        break;
      }
    }
    if (subject == null) {
      return true;
    }
    List<String> error = new ArrayList<>(1);
    Optional<List<PolicyRule>> rules = roleReferenceRules(b.roleRef(), b.namespace(), error);
    if (rules.isEmpty()) {
      return visitor.visit(null, null, error.getFirst());
    }
    String source = b.describe(subject);
    for (PolicyRule rule : rules.get()) {
      if (!visitor.visit(source, rule, null)) {
        return false;
      }
    }
    return true;
  }

  /** kube's error aggregate text: one error alone, or {@code [a, b]}. */
  private static String aggregate(Set<String> errors) {
    return errors.size() == 1 ? errors.iterator().next() : "[" + String.join(", ", errors) + "]";
  }
}
