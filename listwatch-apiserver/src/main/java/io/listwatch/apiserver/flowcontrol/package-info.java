/**
 * API Priority and Fairness (kube's {@code k8s.io/apiserver/pkg/util/flowcontrol}, KEP-1040):
 * which requests wait, which go first, and which are refused when the server is busy, so that
 * one flooding client does not starve the others.
 *
 * <ul>
 *   <li>{@link io.listwatch.apiserver.flowcontrol.FlowControl}: the configuration read from the
 *       stored FlowSchemas and PriorityLevelConfigurations, classification and admission of a
 *       request ({@link io.listwatch.apiserver.flowcontrol.Ticket}).</li>
 *   <li>{@code FlowSchema}: kube's matching rules of one schema and its flow distinguisher.</li>
 *   <li>{@code QueueSet}: one priority level's seats, queues and fair queuing; {@code Dealer}:
 *       shuffle sharding of flows onto queues.</li>
 *   <li>{@code WorkEstimator}: a request's width in seats (lists by their object count).</li>
 *   <li>{@link io.listwatch.apiserver.flowcontrol.Classification},
 *       {@link io.listwatch.apiserver.flowcontrol.Rejection}: what the response says
 *       (kube's {@code X-Kubernetes-PF-*} headers, its 429);
 *       {@link io.listwatch.apiserver.flowcontrol.FlowControlObserver}: the metrics' hook.</li>
 *   <li>{@link io.listwatch.apiserver.flowcontrol.SuggestedConfiguration}: kube's suggested
 *       levels and schemas, created at start beside the mandatory ones.</li>
 * </ul>
 */
package io.listwatch.apiserver.flowcontrol;
