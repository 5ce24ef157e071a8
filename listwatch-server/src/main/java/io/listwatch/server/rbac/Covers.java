package io.listwatch.server.rbac;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube's escalation arithmetic: whether the rules a user holds cover the rules they try to
 * grant, and which are missing. Stateless.
 *
 * <p>The rules to grant are broken down into one rule per (group, resource, verb[, name]) and
 * per (URL, verb); each piece must be covered by one held rule: a {@code *} or equal verb and
 * group, a {@code *}, equal or {@code * /subresource} resource, names held unless the held rule
 * has none, a URL equal or under a held {@code prefix*}.
 */
public final class Covers {

  private Covers() {
  }

  /** The pieces of {@code granted} no rule in {@code held} covers; empty when all are covered. */
  public static List<PolicyRule> uncovered(List<PolicyRule> held, List<PolicyRule> granted) {
    List<PolicyRule> missing = new ArrayList<>();
    for (PolicyRule rule : granted) {
      for (PolicyRule piece : breakdown(rule)) {
        if (held.stream().noneMatch(h -> covers(h, piece))) {
          missing.add(piece);
        }
      }
    }
    return missing;
  }

  /** kube's {@code BreakdownRule}. */
  static List<PolicyRule> breakdown(PolicyRule rule) {
    List<PolicyRule> pieces = new ArrayList<>();
    for (String group : rule.apiGroups()) {
      for (String resource : rule.resources()) {
        for (String verb : rule.verbs()) {
          if (rule.resourceNames().isEmpty()) {
            pieces.add(PolicyRule.resource(List.of(verb), List.of(group), List.of(resource), List.of()));
          } else {
            for (String name : rule.resourceNames()) {
              pieces.add(PolicyRule.resource(List.of(verb), List.of(group), List.of(resource), List.of(name)));
            }
          }
        }
      }
    }
    for (String url : rule.nonResourceURLs()) {
      for (String verb : rule.verbs()) {
        pieces.add(PolicyRule.nonResource(List.of(verb), List.of(url)));
      }
    }
    return pieces;
  }

  /** kube's {@code ruleCovers}: whether {@code owner} covers all of {@code sub}. */
  static boolean covers(PolicyRule owner, PolicyRule sub) {
    boolean verbs = owner.verbs().contains(PolicyRule.ALL) || owner.verbs().containsAll(sub.verbs());
    boolean groups = owner.apiGroups().contains(PolicyRule.ALL) || owner.apiGroups().containsAll(sub.apiGroups());
    boolean resources = resourcesCover(owner.resources(), sub.resources());
    boolean urls = sub.nonResourceURLs().stream()
        .allMatch(path -> owner.nonResourceURLs().stream().anyMatch(o -> urlCovers(o, path)));
    boolean names = owner.resourceNames().isEmpty()
        || (!sub.resourceNames().isEmpty() && owner.resourceNames().containsAll(sub.resourceNames()));
    return verbs && groups && resources && names && urls;
  }

  /** A URL rule covers: equal, or a {@code prefix*} the path starts with (a bare {@code *} covers all). */
  private static boolean urlCovers(String owner, String path) {
    return owner.equals(path) || owner.endsWith("*") && path.startsWith(owner.substring(0, owner.length() - 1));
  }

  private static boolean resourcesCover(List<String> owner, List<String> sub) {
    if (owner.contains(PolicyRule.ALL) || owner.containsAll(sub)) {
      return true;
    }
    for (String path : sub) {
      if (owner.contains(path)) {
        continue;
      }
      int slash = path.indexOf('/');
      if (slash < 0 || !owner.contains("*/" + path.substring(slash + 1))) {
        return false;
      }
    }
    return true;
  }

  /**
   * kube's {@code CompactRules}: simple rules (one group, one resource, at most one name, no
   * URLs) for the same group, resource and name are merged into one with all their verbs.
   */
  static List<PolicyRule> compact(List<PolicyRule> rules) {
    List<PolicyRule> out = new ArrayList<>();
    Map<List<String>, List<String>> simpleVerbs = new LinkedHashMap<>();
    Map<List<String>, PolicyRule> simpleFirst = new LinkedHashMap<>();
    for (PolicyRule r : rules) {
      boolean simple = r.resourceNames().size() <= 1 && r.nonResourceURLs().isEmpty()
          && r.apiGroups().size() == 1 && r.resources().size() == 1;
      if (!simple) {
        out.add(r);
        continue;
      }
      List<String> key = List.of(r.apiGroups().getFirst(), r.resources().getFirst(),
          r.resourceNames().isEmpty() ? "" : "name:" + r.resourceNames().getFirst());
      simpleFirst.putIfAbsent(key, r);
      simpleVerbs.computeIfAbsent(key, k -> new ArrayList<>()).addAll(r.verbs());
    }
    simpleFirst.forEach((key, r) -> out.add(PolicyRule.resource(simpleVerbs.get(key), r.apiGroups(), r.resources(),
        r.resourceNames())));
    return out;
  }
}
