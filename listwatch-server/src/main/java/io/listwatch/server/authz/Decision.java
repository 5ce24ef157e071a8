package io.listwatch.server.authz;

/**
 * An authorizer's answer (kube's {@code authorizer.Decision} plus its reason). Immutable.
 *
 * @param reason why, for the log and for access reviews; may be empty
 */
public record Decision(Kind kind, String reason) {

  /** Allow, deny, or leave it to the next authorizer. */
  public enum Kind { ALLOW, DENY, NO_OPINION }

  public static Decision allow(String reason) {
    return new Decision(Kind.ALLOW, reason);
  }

  public static Decision deny(String reason) {
    return new Decision(Kind.DENY, reason);
  }

  public static Decision noOpinion(String reason) {
    return new Decision(Kind.NO_OPINION, reason);
  }

  public boolean allowed() {
    return kind == Kind.ALLOW;
  }
}
