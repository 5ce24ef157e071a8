/**
 * What kube-apiserver keeps of the control plane itself ({@code pkg/controlplane/controller}):
 * {@link io.listwatch.apiserver.controlplane.KubernetesServiceReconciler}, the
 * {@code default/kubernetes} Service and the endpoints naming every live server.
 */
package io.listwatch.apiserver.controlplane;
