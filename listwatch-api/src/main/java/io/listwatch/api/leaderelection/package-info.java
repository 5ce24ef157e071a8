/**
 * Leader election over a {@code coordination.k8s.io/v1} Lease, client-go's algorithm
 * ({@code tools/leaderelection}), shared by the client library and the server.
 *
 * <ul>
 *   <li>{@link io.listwatch.api.leaderelection.LeaderElector}: the loop that acquires the
 *       lock, renews it every retry period, and stops leading when it cannot renew within the
 *       renew deadline.
 *   <li>{@link io.listwatch.api.leaderelection.LeaderCallbacks}: what the caller is told
 *       (started leading, stopped leading, a new leader observed).
 *   <li>{@link io.listwatch.api.leaderelection.ResourceLock}, what candidates compete for,
 *       holding a {@link io.listwatch.api.leaderelection.LeaderElectionRecord}; over a Lease
 *       it is held as {@link io.listwatch.api.leaderelection.LeaseSpec} says. The client's
 *       {@code LeaseLock} takes a Lease through the API; the server's in-process controllers
 *       take one through its own store.
 * </ul>
 *
 * <p>Safety rests on the lease duration being longer than the renew deadline: a leader that
 * has not renewed for {@code renewDeadline} stops acting, while a candidate waits until it has
 * seen the record unchanged for {@code leaseDuration} on its own clock. Clocks are never
 * compared across processes; only their rates are assumed to be close.
 */
package io.listwatch.api.leaderelection;
