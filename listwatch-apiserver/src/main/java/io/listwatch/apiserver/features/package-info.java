/**
 * Feature gates (kube's {@code k8s.io/apiserver/pkg/features} and {@code --feature-gates}):
 * {@link io.listwatch.apiserver.features.FeatureGates} holds the gates this server knows, each
 * with kube's default, and reads the flag's syntax. Depends on nothing else of the core.
 */
package io.listwatch.apiserver.features;
