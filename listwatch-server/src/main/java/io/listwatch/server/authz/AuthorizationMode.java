package io.listwatch.server.authz;

import java.util.Locale;

/** {@code --authorization-mode}: how requests are authorized. */
public enum AuthorizationMode {
  /** kube's RBAC: Roles, ClusterRoles and their bindings decide (the default). */
  RBAC("RBAC"),
  /** Every authenticated request is allowed. */
  ALWAYS_ALLOW("AlwaysAllow");

  private final String flag;

  AuthorizationMode(String flag) {
    this.flag = flag;
  }

  /** The flag value, as kube spells it. */
  public String flag() {
    return flag;
  }

  /** Parses {@code RBAC} or {@code AlwaysAllow} (case-insensitive). */
  public static AuthorizationMode parse(String value) {
    for (AuthorizationMode m : values()) {
      if (m.flag.toLowerCase(Locale.ROOT).equals(value.trim().toLowerCase(Locale.ROOT))) {
        return m;
      }
    }
    throw new IllegalArgumentException("unknown authorization mode " + value + " (use RBAC or AlwaysAllow)");
  }

  @Override
  public String toString() {
    return flag;
  }
}
