package io.listwatch.api.leaderelection;

/**
 * What a {@link LeaderElector} tells its caller (client-go's {@code LeaderCallbacks}).
 *
 * <p>All three are called on the elector's thread, one at a time, in the order the events
 * happen; they should return quickly (start or stop work on other threads). A callback that
 * throws is logged and does not stop the elector.
 */
public interface LeaderCallbacks {

  /** This candidate became the leader: start the work that only the leader may do. */
  void onStartedLeading();

  /**
   * This candidate is no longer the leader (it could not renew within the renew deadline, or
   * the elector was closed). Called before the lease is released on close, so the work must be
   * stopped when this returns: another candidate may lead as soon as it does.
   */
  void onStoppedLeading();

  /** The holder of the lease changed to {@code identity} (possibly this candidate). */
  default void onNewLeader(String identity) {}
}
