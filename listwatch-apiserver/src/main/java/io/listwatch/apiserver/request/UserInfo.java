package io.listwatch.apiserver.request;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Who a request acts as, as kube's {@code user.Info}: a user name, an optional uid, the groups
 * and any extra attributes the authenticator attached. Immutable.
 */
public record UserInfo(String name, String uid, List<String> groups, Map<String, List<String>> extra) {

  /** The group of every authenticated user. */
  public static final String AUTHENTICATED = "system:authenticated";
  /** The group of anonymous requests. */
  public static final String UNAUTHENTICATED = "system:unauthenticated";
  /** Members may do anything (kube's superuser group; no RBAC check). */
  public static final String MASTERS = "system:masters";
  /** The user of an anonymous request. */
  public static final String ANONYMOUS_NAME = "system:anonymous";

  /** Anonymous: {@code system:anonymous} in {@code system:unauthenticated}. */
  public static final UserInfo ANONYMOUS = new UserInfo(ANONYMOUS_NAME, "", List.of(UNAUTHENTICATED), Map.of());

  /**
   * Who every request on the plain-HTTP listener acts as: kube's insecure-port user
   * {@code system:unsecured} in {@code system:masters}.
   */
  public static final UserInfo UNSECURED = new UserInfo("system:unsecured", "", List.of(MASTERS, AUTHENTICATED),
      Map.of());

  public UserInfo {
    Objects.requireNonNull(name);
    uid = uid == null ? "" : uid;
    groups = List.copyOf(groups);
    extra = Map.copyOf(extra);
  }

  /** A user with groups and no uid or extras. */
  public static UserInfo of(String name, List<String> groups) {
    return new UserInfo(name, "", groups, Map.of());
  }

  public boolean inGroup(String group) {
    return groups.contains(group);
  }

  /** This user with {@code system:authenticated} added unless it is already there. */
  public UserInfo authenticated() {
    if (groups.contains(AUTHENTICATED)) {
      return this;
    }
    List<String> g = new java.util.ArrayList<>(groups);
    g.add(AUTHENTICATED);
    return new UserInfo(name, uid, g, extra);
  }
}
