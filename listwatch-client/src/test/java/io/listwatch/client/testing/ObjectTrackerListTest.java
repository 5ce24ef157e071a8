package io.listwatch.client.testing;

import static io.listwatch.client.testing.Pods.POD;
import static io.listwatch.client.testing.Pods.pod;
import static io.listwatch.client.testing.Pods.rv;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.listwatch.api.FieldSelector;
import io.listwatch.api.LabelSelector;
import io.listwatch.api.ListOptions;
import io.listwatch.api.ResourceVersionMatch;
import io.listwatch.api.StatusException;
import io.listwatch.client.ObjectList;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ObjectTrackerListTest {

  private final FakeClient client = FakeClient.create();
  private final ResourceClient<Pod> pods = client.resource(ResourceType.PODS, POD);

  @Test
  void list_servesTheCurrentState_atTheCurrentResourceVersion_forEmptyAndZero() {
    pods.create(pod("default", "a"));
    client.resource(ResourceType.CONFIGMAPS, Pods.CONFIG_MAP).create(Pods.configMap("default", "cm"));

    for (String rv : List.of("", "0")) {
      ObjectList<Pod> list = pods.list(null, ListOptions.builder().resourceVersion(rv).build());
      assertThat(names(list.items())).containsExactly("a");
      assertThat(list.resourceVersion()).isEqualTo("2");
      assertThat(list.hasMore()).isFalse();
    }
  }

  @Test
  void list_paging_walksEverything_atTheFirstPagesResourceVersion_whileObjectsChange() {
    for (String name : List.of("p1", "p2", "p3", "p4", "p5")) {
      pods.create(pod("default", name));
    }
    ObjectList<Pod> page = pods.list("default", ListOptions.builder().limit(2).build());
    String listRv = page.resourceVersion();
    List<Pod> seen = new ArrayList<>(page.items());
    assertThat(page.remainingItemCount()).isEqualTo(OptionalLong.of(3));

    pods.delete("default", "p4");
    pods.create(pod("default", "p6"));
    pods.mergePatch("default", "p5", "{\"metadata\":{\"labels\":{\"changed\":\"yes\"}}}");

    while (page.hasMore()) {
      page = pods.list("default", ListOptions.builder().limit(2).continueToken(page.continueToken()).build());
      assertThat(page.resourceVersion()).isEqualTo(listRv);
      seen.addAll(page.items());
    }
    assertThat(names(seen)).containsExactly("p1", "p2", "p3", "p4", "p5");
    assertThat(seen.get(4).getMetadata().getLabels()).doesNotContainKey("changed");
    assertThat(names(pods.list("default", null).items())).containsExactly("p1", "p2", "p3", "p5", "p6");
  }

  @Test
  void list_inOneNamespace_orAll_inKeyOrder() {
    pods.create(pod("b", "x"));
    pods.create(pod("a", "y"));
    pods.create(pod("a", "x"));
    pods.create(pod("ab", "z"));

    assertThat(keys(pods.list("a", null).items())).containsExactly("a/x", "a/y");
    assertThat(keys(pods.list("", null).items())).containsExactly("a/x", "a/y", "ab/z", "b/x");
  }

  @Test
  void list_appliesLabelAndFieldSelectors() {
    pods.create(pod("default", "web-1", Map.of("app", "web")));
    pods.create(pod("default", "web-2", Map.of("app", "web", "tier", "canary")));
    pods.create(pod("default", "db", Map.of("app", "db")));
    pods.create(pod("other", "web-1", Map.of("app", "web")));

    assertThat(keys(pods.list(null, ListOptions.builder()
        .labelSelector(LabelSelector.parse("app=web,!tier")).build()).items()))
        .containsExactly("default/web-1", "other/web-1");
    assertThat(keys(pods.list(null, ListOptions.builder()
        .fieldSelector(FieldSelector.parse("metadata.name=web-1,metadata.namespace!=other")).build()).items()))
        .containsExactly("default/web-1");
    assertThat(keys(pods.list(null, ListOptions.builder()
        .fieldSelector(FieldSelector.parse("spec.nodeName=node-1")).labelSelector(LabelSelector.parse("app=db"))
        .build()).items()))
        .containsExactly("default/db");
  }

  @Test
  void list_withSelectorsAndLimit_pagesThroughMatchesOnly_withoutACount() {
    for (int i = 0; i < 6; i++) {
      pods.create(pod("default", "p" + i, Map.of("even", Boolean.toString(i % 2 == 0))));
    }
    ListOptions even = ListOptions.builder().labelSelector(LabelSelector.parse("even=true")).limit(2).build();

    ObjectList<Pod> first = pods.list("default", even);
    ObjectList<Pod> second = pods.list("default", even.toBuilder().continueToken(first.continueToken()).build());

    assertThat(names(first.items())).containsExactly("p0", "p2");
    assertThat(first.remainingItemCount()).isEmpty();
    assertThat(names(second.items())).containsExactly("p4");
    assertThat(second.hasMore()).isFalse();
  }

  @Test
  void list_atAnExactOlderResourceVersion_servesThatState_until_compacted() {
    Pod a = pods.create(pod("default", "a"));
    pods.create(pod("default", "b"));
    pods.delete("default", "a");
    ListOptions atA = ListOptions.builder().resourceVersion(Long.toString(rv(a)))
        .resourceVersionMatch(ResourceVersionMatch.EXACT).build();

    ObjectList<Pod> old = pods.list("default", atA);
    assertThat(names(old.items())).containsExactly("a");
    assertThat(old.resourceVersion()).isEqualTo(a.getMetadata().getResourceVersion());

    client.tracker().compact();

    assertThatThrownBy(() -> pods.list("default", atA))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.code()).isEqualTo(410);
          assertThat(e.reason()).isEqualTo("Expired");
        });
    assertThat(names(pods.list("default", ListOptions.builder().resourceVersion("0").build()).items()))
        .containsExactly("b");
  }

  @Test
  void list_continuedAfterCompaction_fails410() {
    pods.create(pod("default", "a"));
    pods.create(pod("default", "b"));
    ObjectList<Pod> first = pods.list("default", ListOptions.builder().limit(1).build());
    pods.create(pod("default", "c"));
    client.tracker().compact();

    assertThatThrownBy(() -> pods.list("default",
        ListOptions.builder().limit(1).continueToken(first.continueToken()).build()))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(410))
        .hasMessageContaining("continue parameter is too old");
  }

  @Test
  void list_olderThanABoundedHistory_fails410() {
    FakeClient small = FakeClient.create(ObjectTracker.builder().historyLimit(2).build());
    ResourceClient<Pod> smallPods = small.resource(ResourceType.PODS, POD);
    Pod first = smallPods.create(pod("default", "a"));
    smallPods.create(pod("default", "b"));
    smallPods.create(pod("default", "c"));
    smallPods.create(pod("default", "d"));

    assertThatThrownBy(() -> smallPods.list("default", ListOptions.builder()
        .resourceVersion(first.getMetadata().getResourceVersion()).limit(10).build()))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(410));
  }

  @Test
  void list_ataResourceVersionNewerThanAnyWrite_fails504TooLarge() {
    pods.create(pod("default", "a"));

    assertThatThrownBy(() -> pods.list("default", ListOptions.builder().resourceVersion("99").build()))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(504))
        .hasMessageContaining("Too large resource version");
  }

  @Test
  void list_withAMalformedContinueToken_fails400() {
    assertThatThrownBy(() -> pods.list("default", ListOptions.builder().continueToken("not-a-token").build()))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(400));
  }

  static List<String> names(List<Pod> pods) {
    return pods.stream().map(p -> p.getMetadata().getName()).toList();
  }

  static List<String> keys(List<Pod> pods) {
    return pods.stream().map(p -> p.getMetadata().getNamespace() + "/" + p.getMetadata().getName()).toList();
  }
}
