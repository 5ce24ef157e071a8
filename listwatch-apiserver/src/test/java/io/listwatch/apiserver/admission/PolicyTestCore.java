package io.listwatch.apiserver.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.request.ApiResponse;
import io.listwatch.apiserver.strategy.StrategyCasesAccess;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An in-memory core for ValidatingAdmissionPolicy tests, with the two namespaces of
 * kubernetes.io's examples ({@code test} and {@code prod}, labelled {@code environment}):
 * objects written through the API, and each Deployment written or refused only once the watch
 * caches the plug-in reads hold every write before it.
 *
 * <p>Confined to one test.
 */
final class PolicyTestCore implements AutoCloseable {

  static final String POLICIES = "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies";
  static final String BINDINGS = "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings";
  static final String DEPLOYMENTS = "/apis/apps/v1/namespaces/%s/deployments";

  final InMemoryCore core = InMemoryCore.start();
  /** The collections whose caches the plug-in reads; one not served (yet) is skipped. */
  private final List<String> read = new ArrayList<>(List.of(POLICIES, BINDINGS, "/api/v1/configmaps",
      "/api/v1/namespaces"));

  /** @param alsoRead collections of params the plug-in reads besides ConfigMaps (all namespaces) */
  PolicyTestCore(String... alsoRead) {
    read.addAll(List.of(alsoRead));
    created("/api/v1/namespaces", """
        {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"test","labels":{"environment":"test"}}}""");
    created("/api/v1/namespaces", """
        {"apiVersion":"v1","kind":"Namespace","metadata":{"name":"prod","labels":{"environment":"prod"}}}""");
  }

  /** A Deployment of nginx with {@code replicas}, as the docs' examples write it. */
  static String deployment(String name, int replicas) {
    return """
        {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"%s","labels":{"app":"nginx"}},
         "spec":{"replicas":%d,"selector":{"matchLabels":{"app":"nginx"}},
          "template":{"metadata":{"labels":{"app":"nginx"}},
           "spec":{"containers":[{"name":"nginx","image":"nginx"}]}}}}""".formatted(name, replicas);
  }

  /**
   * Waits until the watch caches the plug-in reads hold every write so far: a list at the
   * storage's current resourceVersion, NotOlderThan, is served by each cache once it has caught up.
   */
  void synced() {
    String rv = StrategyCasesAccess.body(core.send("GET", "/api/v1/namespaces", Map.of(), null))
        .at("/metadata/resourceVersion").asText();
    for (String path : read) {
      if (code("GET", path, null) == 404) {
        continue; // a custom resource not defined (yet)
      }
      assertThat(core.send("GET", path, Map.of("resourceVersion", List.of(rv),
          "resourceVersionMatch", List.of("NotOlderThan")), null).code()).isEqualTo(200);
    }
  }

  /** POSTs {@code body}, which must be created; a Deployment once the caches have caught up. */
  ApiResponse created(String path, String body) {
    if (path.contains("/deployments")) {
      synced();
    }
    ApiResponse r = core.send("POST", path, Map.of(), body);
    assertThat(r.code()).as("POST " + path).isEqualTo(201);
    return r;
  }

  /** The refusal of a Deployment POSTed to {@code namespace} once the caches have caught up. */
  StatusException refused(String namespace, String body) {
    synced();
    return core.refusal("POST", DEPLOYMENTS.formatted(namespace), Map.of(), body);
  }

  /** The status code of a request, a refusal's included. */
  int code(String method, String path, String body) {
    try {
      return core.send(method, path, Map.of(), body).code();
    } catch (StatusException e) {
      return e.code();
    } catch (java.util.concurrent.CompletionException e) {
      if (e.getCause() instanceof StatusException se) {
        return se.code();
      }
      throw e;
    }
  }

  @Override
  public void close() {
    core.close();
  }
}
