/**
 * Real-client compatibility tests: the server as kubectl (a child process), the fabric8
 * Kubernetes client and the official Java client see it. Every class here is end-to-end
 * ({@code @EndToEnd}: run by failsafe). {@code KubectlTest} drives the kubectl binary on PATH
 * through a kubeconfig of its own (the shared {@code io.listwatch.testsupport.Kubectl});
 * {@code Fabric8Test} drives fabric8's typed client, watches and informers; {@code JavaClientTest}
 * (CRUD), {@code JavaClientPatchTest}, {@code JavaClientInformerTest}, {@code JavaClientWatchTest},
 * {@code JavaClientModelsTest} (everything the server writes, through the strict models) and
 * {@code JavaClientTlsTest} drive {@code io.kubernetes:client-java}. {@code RawApi} makes the
 * plain HTTP requests a test needs besides the client under test.
 */
package io.listwatch.server.compat;
