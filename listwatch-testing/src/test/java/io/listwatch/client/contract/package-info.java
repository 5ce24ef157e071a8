/**
 * One contract for every {@link io.listwatch.client.KubeClient}: what a
 * {@link io.listwatch.client.ResourceClient} must answer, as kube-apiserver answers it, run
 * against each implementation (kube's {@code storage/testing} suite, for clients).
 *
 * <p>Map: {@link io.listwatch.client.contract.ResourceClientContract} holds the tests (CRUD,
 * lists at every resourceVersion, limit and continue combination kube distinguishes,
 * selectors, watches from a version, bookmarks, 410s, the patch types) and names the few
 * things only a backend can do (expire old resourceVersions, make a bookmark due).
 * {@link io.listwatch.client.contract.HttpClientContractTest} runs it over HTTP against the
 * in-process server, {@link io.listwatch.client.contract.FakeClientContractTest} against
 * {@link io.listwatch.client.testing.FakeClient}. Helpers: {@code WatchReader} (reads a watch
 * on its own thread, so every wait is bounded) and {@code ConfigMaps} (the objects the tests
 * write).
 */
package io.listwatch.client.contract;
