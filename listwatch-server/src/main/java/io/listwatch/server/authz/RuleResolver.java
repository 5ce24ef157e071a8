package io.listwatch.server.authz;

import io.listwatch.apiserver.request.UserInfo;
import java.util.List;

/**
 * Lists what a user may do in a namespace (kube's {@code authorizer.RuleResolver}), for
 * SelfSubjectRulesReview ({@code kubectl auth can-i --list}). Thread-safe and non-blocking, like
 * {@link Authorizer}.
 */
@FunctionalInterface
public interface RuleResolver {

  /** The rules that apply to {@code user} in {@code namespace}, cluster-wide ones included. */
  SubjectRules rulesFor(UserInfo user, String namespace);

  /** A resource rule as reviews report it. */
  record ResourceRule(List<String> verbs, List<String> apiGroups, List<String> resources,
      List<String> resourceNames) {
  }

  /** A non-resource rule as reviews report it. */
  record NonResourceRule(List<String> verbs, List<String> nonResourceURLs) {
  }

  /**
   * @param incomplete true when some rules could not be evaluated (e.g. a binding to a role that
   *     does not exist), so the lists may miss permissions
   * @param evaluationError why, or ""
   */
  record SubjectRules(List<ResourceRule> resourceRules, List<NonResourceRule> nonResourceRules, boolean incomplete,
      String evaluationError) {
    public SubjectRules {
      resourceRules = List.copyOf(resourceRules);
      nonResourceRules = List.copyOf(nonResourceRules);
    }
  }

  /** Everything, for AlwaysAllow and for system:masters. */
  SubjectRules EVERYTHING = new SubjectRules(
      List.of(new ResourceRule(List.of("*"), List.of("*"), List.of("*"), List.of())),
      List.of(new NonResourceRule(List.of("*"), List.of("*"))), false, "");

  /** {@code --authorization-mode=AlwaysAllow}. */
  RuleResolver ALWAYS_ALLOW = (user, namespace) -> EVERYTHING;
}
