/**
 * Admission: named plug-ins that may change a write and refuse it, run in kube's order around
 * the kind's strategy (kube's {@code k8s.io/apiserver/pkg/admission} and the plug-ins under
 * {@code plugin/pkg/admission}).
 *
 * <p>Map: {@link io.listwatch.apiserver.admission.AdmissionChain} orders the plug-ins and runs
 * the two phases; {@link io.listwatch.apiserver.admission.AdmissionPlugin} is one plug-in,
 * {@link io.listwatch.apiserver.admission.AdmissionAttributes} one write as plug-ins see it. The
 * plug-ins: {@link io.listwatch.apiserver.admission.NamespaceLifecycle} (creates only in a
 * namespace that exists and is not terminating),
 * {@link io.listwatch.apiserver.admission.ServiceAccount} (a pod's service account and its API
 * access token; {@code MountableSecrets}),
 * {@link io.listwatch.apiserver.admission.TaintNodesByCondition} (a new Node is not-ready),
 * {@link io.listwatch.apiserver.admission.Priority} (a pod's priority from its PriorityClass),
 * {@link io.listwatch.apiserver.admission.DefaultTolerationSeconds} (five minutes on a failed
 * node), {@link io.listwatch.apiserver.admission.DefaultStorageClass},
 * {@link io.listwatch.apiserver.admission.StorageObjectInUseProtection} (the claims' and volumes'
 * finalizers), {@link io.listwatch.apiserver.admission.PersistentVolumeClaimResize},
 * {@link io.listwatch.apiserver.admission.RuntimeClass} and
 * {@link io.listwatch.apiserver.admission.DefaultIngressClass}. {@link io.listwatch.apiserver.admission.Listers} is what plug-ins read;
 * {@code AdmittedObjects} what they share to change objects.
 * {@link io.listwatch.apiserver.admission.PodSecurity} (the Pod Security Standards, in
 * {@code admission.podsecurity}), {@link io.listwatch.apiserver.admission.LimitRanger} and
 * {@link io.listwatch.apiserver.admission.ResourceQuota} (usage counted by
 * {@code io.listwatch.apiserver.quota}), {@link io.listwatch.apiserver.admission.ValidatingAdmissionPolicy}
 * (CEL policies and their bindings: {@code PolicyMatcher} matches, {@code PolicyParams} reads
 * params, {@code CompiledPolicy} evaluates with {@code PolicyRequest} and {@code PolicyVariables}).
 * A plug-in's warnings for the client go to the write's
 * {@link io.listwatch.apiserver.admission.Warnings}, its notes for the audit event to the
 * request's {@code request.AuditAnnotations} ({@code AdmissionAttributes.addAnnotation}).
 * The store ({@code rest.ResourceStore}) calls the chain on every create and update.
 */
package io.listwatch.apiserver.admission;
