package io.listwatch.api.leaderelection;

import java.time.Instant;
import java.util.Objects;

/**
 * What the lock holds: who leads, for how long a record stays valid after it last changed,
 * when it was acquired and renewed, and how many times leadership changed hands (client-go's
 * {@code LeaderElectionRecord}; in a Lease: {@code spec.holderIdentity},
 * {@code leaseDurationSeconds}, {@code acquireTime}, {@code renewTime},
 * {@code leaseTransitions}).
 *
 * @param holderIdentity the leader's identity, {@code ""} when released
 * @param leaseDurationSeconds how long candidates wait after the record last changed
 * @param acquireTime when the current holder acquired it, or null
 * @param renewTime when the current holder last renewed it, or null
 * @param leaseTransitions how many times the holder changed
 */
public record LeaderElectionRecord(String holderIdentity, int leaseDurationSeconds, Instant acquireTime,
    Instant renewTime, int leaseTransitions) {

  public LeaderElectionRecord {
    Objects.requireNonNull(holderIdentity, "holderIdentity");
  }
}
