/**
 * Resource quota's measures (kube's {@code pkg/quota/v1} and its core evaluators): what an object
 * uses of the resources a ResourceQuota limits.
 *
 * <p>Map: {@link io.listwatch.apiserver.quota.ResourceList} holds amounts by resource name with
 * kube's quota arithmetic; {@link io.listwatch.apiserver.quota.QuotaEvaluator} measures one
 * resource ({@link io.listwatch.apiserver.quota.PodEvaluator},
 * {@link io.listwatch.apiserver.quota.ServiceEvaluator},
 * {@link io.listwatch.apiserver.quota.PersistentVolumeClaimEvaluator},
 * {@link io.listwatch.apiserver.quota.ObjectCountEvaluator}), found by
 * {@link io.listwatch.apiserver.quota.QuotaRegistry}; {@link io.listwatch.apiserver.quota.ScopeSelector}
 * is a quota's scope; {@link io.listwatch.apiserver.quota.PodResources} sums a pod's requests and
 * limits; {@link io.listwatch.apiserver.quota.QuotaUsage} measures a namespace for a quota's status.
 * The admission plug-in ({@code admission.ResourceQuota}) charges writes, the controller
 * ({@code controller.ResourceQuotaController}) measures again; both use this package, which
 * depends on no other package of the core.
 */
package io.listwatch.apiserver.quota;
