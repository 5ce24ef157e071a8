package io.listwatch.client.cache;

/**
 * What a {@link Reflector}'s run loop does next, and why (the reason goes to its
 * {@link ReflectorListener}). Immutable.
 */
record ReflectorStep(ReflectorStep.Kind kind, String reason) {

  static final ReflectorStep STOP = new ReflectorStep(Kind.STOP, "closed");

  enum Kind { LIST, WATCH, STOP }

  static ReflectorStep list(String reason) {
    return new ReflectorStep(Kind.LIST, reason);
  }

  static ReflectorStep watch(String reason) {
    return new ReflectorStep(Kind.WATCH, reason);
  }
}
