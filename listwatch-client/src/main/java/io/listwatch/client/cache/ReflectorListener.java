package io.listwatch.client.cache;

/**
 * Observes what a {@link Reflector} does: each list and each watch it starts, and why.
 * For debugging tools (the {@code informer} command prints these) and metrics. Called on
 * the reflector's thread; must not block. Default methods do nothing.
 */
public interface ReflectorListener {

  /**
   * A (re)list starts. {@code resourceVersion} is the one requested ({@code "0"},
   * the last synced one, or {@code ""}); {@code reason} says why, e.g. "initial",
   * "410 Expired", "watch-list failed".
   */
  default void onList(String resourceVersion, String reason) {}

  /** A list completed; {@code items} objects at {@code resourceVersion}. */
  default void onListed(String resourceVersion, int items) {}

  /** A watch starts from {@code resourceVersion}; {@code reason} says why. */
  default void onWatch(String resourceVersion, String reason) {}
}
