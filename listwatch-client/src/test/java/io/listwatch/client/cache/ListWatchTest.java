package io.listwatch.client.cache;

import static io.listwatch.client.cache.InformerTestObject.obj;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.api.LabelSelector;
import io.listwatch.api.ListOptions;
import io.listwatch.client.ResourceType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class ListWatchTest {

  private final InformerTestClient client = new InformerTestClient();

  @Test
  void listAndWatch_useTheNamespace_andTheTweakedOptions() throws Exception {
    ListWatch<InformerTestObject> lw = ListWatch.of(
        client.resource(ResourceType.PODS, InformerTestObject.CODEC), "team-a",
        o -> o.toBuilder().labelSelector(LabelSelector.parse("app=web")).build());
    InformerTestListerWatcher server = client.server(ResourceType.PODS);
    server.setList(7, obj("team-a", "p", 3));

    assertThat(lw.list(ListOptions.builder().resourceVersion("0").limit(500).build()).items())
        .containsExactly(obj("team-a", "p", 3));
    ListOptions listed = server.awaitList();
    assertThat(listed.labelSelector().toString()).isEqualTo("app=web");
    assertThat(listed.resourceVersion()).isEqualTo("0");
    assertThat(listed.limit()).isEqualTo(500);
    assertThat(listed.watch()).isFalse();

    lw.watch(ListOptions.builder().resourceVersion("7").allowWatchBookmarks(true).build()).close();
    ListOptions watched = server.awaitWatch().options;
    assertThat(watched.watch()).isTrue();
    assertThat(watched.labelSelector().toString()).isEqualTo("app=web");
    assertThat(watched.resourceVersion()).isEqualTo("7");
    assertThat(watched.allowWatchBookmarks()).isTrue();
    assertThat(client.requests).containsExactly("list pods in team-a", "watch pods in team-a");
  }

  @Test
  void noNamespace_meansEveryNamespace() {
    ListWatch<InformerTestObject> lw =
        ListWatch.of(client.resource(ResourceType.PODS, InformerTestObject.CODEC), null);
    assertThat(lw.namespace()).isEmpty();
    lw.list(ListOptions.builder().build());
    assertThat(client.requests).containsExactly("list pods in ");
  }

  @Test
  void namespaceOnAClusterScopedResource_isRejected() {
    assertThatThrownBy(() ->
        ListWatch.of(client.resource(ResourceType.NODES, InformerTestObject.CODEC), "team-a"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nodes is cluster-scoped");
  }

  @Test
  void aTweakThatReturnsNull_failsClearly() {
    ListWatch<InformerTestObject> lw = ListWatch.of(
        client.resource(ResourceType.PODS, InformerTestObject.CODEC), "", o -> null);
    assertThatThrownBy(() -> lw.list(ListOptions.builder().build()))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("tweakListOptions returned null");
  }
}
