/**
 * The scheduler: binds pods that have no node to a node, as kube-scheduler does for the
 * plugins it enables by default that matter without volumes and ports.
 *
 * <p>Map of the package:
 * <ul>
 *   <li>{@link io.listwatch.controllers.scheduler.Scheduler}: the controller; informers, the
 *       scheduling loop, binding, the PodScheduled condition and Events.</li>
 *   <li>{@code SchedulingQueue}: active queue, backoff, unschedulable pods (kube's
 *       PriorityQueue, simplified).</li>
 *   <li>{@code SchedulerCache}, {@code NodeInfo}, {@code PodInfo}: what each node holds
 *       (informer state plus pods assumed while their binding is in flight).</li>
 *   <li>Filters ({@code FilterPlugin}): {@code NodeUnschedulable}, {@code TaintToleration},
 *       {@code NodeAffinity}, {@code NodeResourcesFit}, then per cycle
 *       {@code PodTopologySpread} and {@code InterPodAffinity}; {@code FitError} words the
 *       failure as kube does.</li>
 *   <li>{@code NodeScorer}: least allocated, balanced allocation, preferred node affinity,
 *       preferred inter-pod affinity, topology spread; ties broken at random.</li>
 *   <li>{@code PodAffinity}, {@code AffinityTerm}, {@code TopologySpreadConstraint},
 *       {@code TopologyPair}, {@code NamespaceLabels}: a pod's terms, parsed once, and what
 *       they are evaluated against.</li>
 *   <li>{@code PodRequests}, {@code Resources}, {@code Taint}, {@code Toleration}: kube's
 *       rules for requests and toleration matching.</li>
 * </ul>
 */
package io.listwatch.controllers.scheduler;
