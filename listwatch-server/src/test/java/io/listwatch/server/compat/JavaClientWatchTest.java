package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.reflect.TypeToken;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.PatchUtils;
import io.kubernetes.client.util.Watch;
import io.listwatch.server.ApiServer;
import io.listwatch.apiserver.cacher.CacherConfig;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.EndToEnd;
import java.io.IOException;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The official Java client's {@code Watch} against the server: each event line parses with
 * the strict {@code V1Pod} model, bookmarks included, and an expired watch ends with an
 * {@code ERROR} event whose {@code V1Status} says 410 Expired. Each watch asks the server to
 * end it after a few seconds and the client's read timeout is bounded, so a missing event
 * fails the test instead of hanging it.
 */
@EndToEnd
@ExtendWith(ApiServerExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JavaClientWatchTest {

  private static final Type POD_EVENT = new TypeToken<Watch.Response<V1Pod>>() { }.getType();

  private static ApiClient client;
  private static CoreV1Api core;

  @BeforeAll
  static void setUp(ApiServer server) {
    client = watchClient(server.url());
    core = new CoreV1Api(client);
  }

  /** A client whose reads wait at most 10 s: a watch that stays silent longer fails the test. */
  private static ApiClient watchClient(String url) {
    ApiClient c = JavaClientTest.newClient(url);
    c.setHttpClient(c.getHttpClient().newBuilder().readTimeout(Duration.ofSeconds(10)).build());
    return c;
  }

  private static Watch.Response<V1Pod> next(Watch<V1Pod> watch) {
    assertThat(watch.hasNext()).as("the watch has another event").isTrue();
    return watch.next();
  }

  @Test
  void watchList_sendsTheExistingPods_thenTheInitialEventsEndBookmark_thenChanges() throws ApiException, IOException {
    String ns = "jcw-watchlist";
    JavaClientTest.createNamespace(core, ns);
    core.createNamespacedPod(ns, JavaClientTest.pod("a", Map.of("app", "web"), "node-1")).execute();
    core.createNamespacedPod(ns, JavaClientTest.pod("b", Map.of("app", "web"), "node-1")).execute();

    try (Watch<V1Pod> watch = Watch.createWatch(client, core.listNamespacedPod(ns)
        .watch(true).allowWatchBookmarks(true).sendInitialEvents(true).resourceVersionMatch("NotOlderThan")
        .timeoutSeconds(8).buildCall(null), POD_EVENT)) {
      Watch.Response<V1Pod> first = next(watch);
      Watch.Response<V1Pod> second = next(watch);
      Watch.Response<V1Pod> bookmark = next(watch);

      assertThat(List.of(first.type + " " + first.object.getMetadata().getName(),
          second.type + " " + second.object.getMetadata().getName())).containsExactlyInAnyOrder("ADDED a", "ADDED b");
      assertThat(bookmark.type).isEqualTo("BOOKMARK");
      assertThat(bookmark.object.getMetadata().getAnnotations()).containsEntry("k8s.io/initial-events-end", "true");
      assertThat(bookmark.object.getMetadata().getResourceVersion()).isNotBlank();

      PatchUtils.patch(V1Pod.class, () -> core.patchNamespacedPod("a", ns,
              new V1Patch("{\"metadata\":{\"labels\":{\"tier\":\"front\"}}}")).buildCall(null),
          V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, client);
      Watch.Response<V1Pod> modified = next(watch);

      assertThat(modified.type).isEqualTo("MODIFIED");
      assertThat(modified.object.getMetadata().getLabels()).containsEntry("tier", "front");
    }
  }

  @Test
  void watch_fromACompactedResourceVersion_endsWithAnErrorEvent_410Expired() throws Exception {
    CacherConfig tinyHistory = new CacherConfig(10, Duration.ofMinutes(5), 1024, Duration.ofMinutes(1),
        Duration.ofSeconds(3));
    try (ApiServer server = ApiServer.builder().cacherConfig(tinyHistory).build().start()) {
      ApiClient c = watchClient(server.url());
      CoreV1Api api = new CoreV1Api(c);
      JavaClientTest.createNamespace(api, "jcw-gone");
      String oldRv = api.createNamespacedPod("jcw-gone", JavaClientTest.pod("web", Map.of("app", "web"), "node-1"))
          .execute().getMetadata().getResourceVersion();
      for (int i = 0; i < 15; i++) {
        String value = Integer.toString(i);
        PatchUtils.patch(V1Pod.class, () -> api.patchNamespacedPod("web", "jcw-gone",
                new V1Patch("{\"metadata\":{\"labels\":{\"n\":\"" + value + "\"}}}")).buildCall(null),
            V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH, c);
      }

      try (Watch<V1Pod> watch = Watch.createWatch(c, api.listNamespacedPod("jcw-gone")
          .watch(true).resourceVersion(oldRv).timeoutSeconds(8).buildCall(null), POD_EVENT)) {
        Watch.Response<V1Pod> error = next(watch);

        assertThat(error.type).isEqualTo("ERROR");
        assertThat(error.status.getCode()).isEqualTo(410);
        assertThat(error.status.getReason()).isEqualTo("Expired");
        assertThat(watch.hasNext()).as("the watch ends after its error").isFalse();
      }
    }
  }
}
