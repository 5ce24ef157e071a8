/**
 * Kube's allocation of Service cluster IPs and node ports (kube's
 * {@code pkg/registry/core/service/ipallocator} and {@code portallocator} with the bitmap
 * allocator, and the allocation half of the Service REST storage), kept in storage so that
 * several servers on one storage share it.
 *
 * <p>Map of the package:
 * <ul>
 *   <li>{@link io.listwatch.apiserver.allocation.ServiceAllocator}: the services store's
 *       {@link io.listwatch.apiserver.rest.StoreHooks}: what a create, update or delete of a
 *       Service takes and gives back.</li>
 *   <li>{@link io.listwatch.apiserver.allocation.ServiceIpRange},
 *       {@link io.listwatch.apiserver.allocation.NodePortRange}: the configured ranges and how
 *       their items are numbered.</li>
 *   <li>{@code StoredRange}: one range's bitmap in storage, changed by compare-and-swap;
 *       {@code AllocationBitmap}: the bitmap; {@code IpFamilies}: a Service's IP family
 *       fields.</li>
 *   <li>{@link io.listwatch.apiserver.allocation.Repair}: rebuilds the stored ranges from the
 *       stored Services (at start).</li>
 * </ul>
 */
package io.listwatch.apiserver.allocation;
