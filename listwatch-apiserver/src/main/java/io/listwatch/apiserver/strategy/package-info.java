/**
 * What the generic registry store ({@code io.listwatch.apiserver.rest.ResourceStore}) does
 * differently per built-in kind, as kube's {@code pkg/registry/<group>/<kind>/strategy.go}
 * with the kind's {@code SetDefaults_*} beside it: one file per kind, named for it.
 *
 * <ul>
 *   <li>{@link io.listwatch.apiserver.strategy.RestStrategy}: the hooks the store calls, and
 *       when ({@code defaults}, {@code prepareForCreate}, {@code prepareForUpdate},
 *       {@code prepareForStatusUpdate}, {@code prepareForFinalize}, {@code checkDelete}).</li>
 *   <li>{@link io.listwatch.apiserver.strategy.BuiltinStrategies}: the lookup from a resource to
 *       its strategy (a do-nothing one for kinds without rules).</li>
 *   <li>The kinds, package-private: {@code NamespaceStrategy}, {@code PodStrategy},
 *       {@code ServiceStrategy}, {@code SecretStrategy}, {@code PersistentVolumeStrategy},
 *       {@code PersistentVolumeClaimStrategy} (core); {@code DeploymentStrategy},
 *       {@code ReplicaSetStrategy}, {@code StatefulSetStrategy}, {@code DaemonSetStrategy}
 *       (apps); {@code JobStrategy}, {@code CronJobStrategy} (batch);
 *       {@code PriorityClassStrategy} (scheduling).</li>
 *   <li>Shared helpers: {@code PodSpecDefaults} (pod specs of pods and of every workload's
 *       template), {@link io.listwatch.apiserver.strategy.WorkloadDefaults} (values the apps
 *       workloads share), {@code Fields} (kube's "absent", defaulting a field, keeping a stored
 *       one).</li>
 * </ul>
 *
 * <p>Custom resources have their own strategy ({@code rest.WriteStrategy}, by their schema).
 * This package depends on {@code registry} and {@code io.listwatch.api}, not on {@code rest}.
 */
package io.listwatch.apiserver.strategy;
