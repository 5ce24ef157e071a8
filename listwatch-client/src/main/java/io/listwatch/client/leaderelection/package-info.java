/**
 * Leader election over a {@code coordination.k8s.io/v1} Lease, client-go's algorithm
 * ({@code tools/leaderelection}), for any controller built on this library.
 *
 * <ul>
 *   <li>{@link io.listwatch.client.leaderelection.LeaderElector}: the loop that acquires the
 *       lock, renews it every retry period, and stops leading when it cannot renew within the
 *       renew deadline.
 *   <li>{@link io.listwatch.client.leaderelection.LeaderCallbacks}: what the caller is told
 *       (started leading, stopped leading, a new leader observed).
 *   <li>{@link io.listwatch.client.leaderelection.ResourceLock} and its implementation over a
 *       Lease, {@link io.listwatch.client.leaderelection.LeaseLock}, holding a
 *       {@link io.listwatch.client.leaderelection.LeaderElectionRecord}.
 * </ul>
 *
 * <p>Safety rests on the lease duration being longer than the renew deadline: a leader that
 * has not renewed for {@code renewDeadline} stops acting, while a candidate waits until it has
 * seen the record unchanged for {@code leaseDuration} on its own clock. Clocks are never
 * compared across processes; only their rates are assumed to be close.
 */
package io.listwatch.client.leaderelection;
