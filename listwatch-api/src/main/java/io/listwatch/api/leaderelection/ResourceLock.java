package io.listwatch.api.leaderelection;

import java.util.Optional;

/**
 * The object candidates compete for (client-go's {@code resourcelock.Interface}): reads and
 * writes a {@link LeaderElectionRecord} with optimistic concurrency, so that of two candidates
 * writing after reading the same record, one fails.
 *
 * <p>Used by one {@link LeaderElector} at a time, from its thread; implementations need not be
 * thread-safe.
 */
public interface ResourceLock {

  /**
   * Reads the record; empty if the lock object does not exist. Remembers the object's version
   * for the next {@link #update}.
   *
   * @throws RuntimeException on any API or connection error
   */
  Optional<LeaderElectionRecord> get();

  /**
   * Creates the lock object holding {@code record}.
   *
   * @throws RuntimeException if it already exists (409) or on any other error
   */
  void create(LeaderElectionRecord record);

  /**
   * Replaces the record, guarded by the version last read or written.
   *
   * @throws RuntimeException on a conflict (someone else wrote it since) or any other error
   */
  void update(LeaderElectionRecord record);

  /** This candidate's identity, e.g. the host name plus a unique suffix. */
  String identity();

  /** The lock's name for logs, e.g. {@code kube-system/listwatch-controllers}. */
  String describe();
}
