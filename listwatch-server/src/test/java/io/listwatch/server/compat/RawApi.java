package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.testsupport.Http;

/**
 * Plain JSON requests to the server, for the steps of a compatibility test that are not the
 * client under test (creating a namespace, changing an object behind kubectl's back): the
 * shared {@link Http} helper with the few kube objects these tests create. Thread-safe; close
 * once.
 */
final class RawApi implements AutoCloseable {

  private final Http http;

  RawApi(String baseUrl) {
    this.http = Http.plain(baseUrl);
  }

  /** Any request; {@code contentType} and {@code body} may be null. */
  Http.Response send(String method, String path, String contentType, String body) {
    return http.send(method, path, contentType, body);
  }

  /** Sends a request and asserts the status; returns the body. */
  String expect(int status, String method, String path, String contentType, String body) {
    Http.Response r = send(method, path, contentType, body);
    assertThat(r.code()).as("%s %s -> %s", method, path, r.body()).isEqualTo(status);
    return r.body();
  }

  void createNamespace(String name) {
    expect(201, "POST", "/api/v1/namespaces", "application/json",
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + name + "\"}}");
  }

  /** Creates a pod with one container; {@code extraMetadata} is spliced into metadata (e.g. labels). */
  void createPod(String namespace, String name, String extraMetadata, String nodeName) {
    expect(201, "POST", "/api/v1/namespaces/" + namespace + "/pods", "application/json", """
        {"apiVersion":"v1","kind":"Pod",
         "metadata":{"name":"%s"%s},
         "spec":{"nodeName":"%s","containers":[{"name":"main","image":"nginx:1.27"}]}}
        """.formatted(name, extraMetadata.isEmpty() ? "" : "," + extraMetadata, nodeName));
  }

  String mergePatch(String path, String patch) {
    return expect(200, "PATCH", path, "application/merge-patch+json", patch);
  }

  @Override
  public void close() {
    http.close();
  }
}
