package io.listwatch.apiserver.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.GenericApiServer;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.request.ApiResponse;
import io.listwatch.apiserver.request.WatchStart;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The router: which request reaches which answer, before any object is read, for every verb
 * (a watch included) and the paths that are not resources.
 */
class ApiRoutesTest {

  private final InMemoryCore core = InMemoryCore.start();
  private final GenericApiServer server = core.server;

  @AfterEach
  void stop() {
    core.close();
  }

  private ApiResponse send(String method, String path, Map<String, List<String>> query) {
    return core.send(method, path, query, null);
  }

  private StatusException refusal(String method, String path, Map<String, List<String>> query) {
    return core.refusal(method, path, query, null);
  }

  @Test
  void aWatch_isAnsweredByTheSameRoute_withAWatchStartForItsResource() {
    ApiResponse answer = send("GET", "/apis/apps/v1/namespaces/default/deployments", Map.of("watch", List.of("1")));

    assertThat(answer.code()).isEqualTo(200);
    assertThat(answer.body()).isInstanceOfSatisfying(WatchStart.class,
        w -> assertThat(w.resource().plural()).isEqualTo("deployments"));
  }

  @Test
  void aWatch_ofOneObjectByPath_orOfAnUnknownResource_isRefusedBeforeItStarts() {
    assertThat(refusal("GET", "/api/v1/namespaces/default/pods/p", Map.of("watch", List.of("true"))).code())
        .isEqualTo(405);
    assertThat(refusal("GET", "/api/v1/widgets", Map.of("watch", List.of("true"))).code()).isEqualTo(404);
    assertThat(refusal("GET", "/api/v1/pods", Map.of("watch", List.of("true"), "resourceVersion", List.of("x")))
        .code()).isEqualTo(400);
  }

  /** kube answers 503 before streaming, not a 200 with an ERROR event. */
  @Test
  void aWatch_whileTheServerEndsItsWatches_is503BeforeAnythingIsStreamed() {
    server.endWatches().join();

    StatusException refused = refusal("GET", "/api/v1/namespaces/default/configmaps", Map.of("watch", List.of("1")));
    assertThat(refused.code()).isEqualTo(503);
    assertThat(refused.getMessage()).isEqualTo("the server is shutting down");
  }

  @Test
  void aList_andAGet_reachTheResourcesHandler() {
    assertThat(send("GET", "/api/v1/namespaces", Map.of()).body()).isInstanceOf(ApiResponse.ListBody.class);
    assertThat(send("GET", "/api/v1/namespaces/default", Map.of()).code()).isEqualTo(200);
    assertThat(refusal("GET", "/api/v1/namespaces/default/configmaps/none", Map.of()).code()).isEqualTo(404);
  }

  @Test
  void namesThatCannotBeAPathSegment_areRefusedByTheRouter() {
    StatusException percent = refusal("GET", "/api/v1/namespaces/default/configmaps/a%2Fb", Map.of());
    assertThat(percent.code()).isEqualTo(400);
    assertThat(percent.getMessage()).startsWith("Name parameter invalid: \"a%2Fb\"");
  }

  @Test
  void pathsThatAreNotResources_haveTheirOwnAnswers() {
    assertThat(send("GET", "/healthz", Map.of()).body()).isInstanceOf(ApiResponse.Text.class);
    assertThat(send("GET", "/api/v1", Map.of()).code()).isEqualTo(200);
    assertThat(send("GET", "/apis", Map.of()).body()).isInstanceOf(ApiResponse.DiscoveryBody.class);
    assertThat(refusal("POST", "/api/v1", Map.of()).code()).isEqualTo(405);
    assertThat(refusal("GET", "/nothing/here", Map.of()).code()).isEqualTo(404);
  }

  @Test
  void aNamespacedObjectAddressedWithoutItsNamespace_orAnUnknownSubresource_is404() {
    assertThat(refusal("GET", "/api/v1/pods/p", Map.of()).code()).isEqualTo(404);
    assertThat(refusal("GET", "/api/v1/namespaces/default/configmaps/c/status", Map.of()).code()).isEqualTo(404);
  }
}
