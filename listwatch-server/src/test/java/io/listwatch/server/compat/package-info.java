/**
 * Real-client compatibility tests: the server as kubectl (a child process) and the fabric8
 * Kubernetes client see it. {@code KubectlTest} drives the kubectl binary on PATH through a
 * kubeconfig of its own ({@code Kubectl}); {@code Fabric8Test} drives fabric8's typed client,
 * watches and informers. {@code RawApi} makes the plain HTTP requests a test needs besides
 * the client under test.
 */
package io.listwatch.server.compat;
