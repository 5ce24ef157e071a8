/**
 * The Pod Security Standards as kube 1.32's {@code k8s.io/pod-security-admission} defines them,
 * for the {@link io.listwatch.apiserver.admission.PodSecurity} admission plug-in.
 *
 * <p>Map: {@link io.listwatch.apiserver.admission.podsecurity.Policy} reads a namespace's labels
 * into a {@link io.listwatch.apiserver.admission.podsecurity.LevelVersion} per mode
 * ({@link io.listwatch.apiserver.admission.podsecurity.Level},
 * {@link io.listwatch.apiserver.admission.podsecurity.Version});
 * {@link io.listwatch.apiserver.admission.podsecurity.Evaluator} runs the
 * {@link io.listwatch.apiserver.admission.podsecurity.Check}s of a level at a version, one class
 * per check named as kube names it ({@code Privileged}, {@code HostNamespaces},
 * {@code RunAsNonRoot}, ...), and
 * {@link io.listwatch.apiserver.admission.podsecurity.AggregateCheckResult} words the failures.
 * {@link io.listwatch.apiserver.admission.podsecurity.PodSpecExtractor} finds the pod template of
 * a workload, {@link io.listwatch.apiserver.admission.podsecurity.SignificantPodUpdate} decides
 * whether a pod update is checked again, and
 * {@link io.listwatch.apiserver.admission.podsecurity.ExistingPods} words what a stricter
 * enforce level says of the pods already in a namespace. Checks read the pod's JSON as stored.
 */
package io.listwatch.apiserver.admission.podsecurity;
