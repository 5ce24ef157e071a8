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
 * {@link io.listwatch.apiserver.admission.ServiceAccount} (a pod's default service account) and
 * {@link io.listwatch.apiserver.admission.PodSecurity} (the Pod Security Standards, in
 * {@code admission.podsecurity}). A plug-in's warnings for the client go to the write's
 * {@link io.listwatch.apiserver.admission.Warnings}.
 * The store ({@code rest.ResourceStore}) calls the chain on every create and update.
 */
package io.listwatch.apiserver.admission;
