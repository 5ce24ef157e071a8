package io.listwatch.client.testing;

import static io.listwatch.client.testing.Pods.CONFIG_MAP;
import static io.listwatch.client.testing.Pods.POD;
import static io.listwatch.client.testing.Pods.configMap;
import static io.listwatch.client.testing.Pods.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.listwatch.api.ListOptions;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.client.ObjectList;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class FakeClientActionsTest {

  private final FakeClient client = FakeClient.create();
  private final ResourceClient<Pod> pods = client.resource(ResourceType.PODS, POD);
  private final ResourceClient<ConfigMap> configMaps = client.resource(ResourceType.CONFIGMAPS, CONFIG_MAP);

  @Test
  void everyCall_isRecordedInOrder_withSubresourceNamespaceNameAndPayload() throws Exception {
    Pod created = pods.create(pod("default", "web"));
    pods.updateStatus(new PodBuilder(created).withStatus(new PodStatusBuilder().withPhase("Running").build())
        .build());
    configMaps.list("default", ListOptions.builder().limit(5).build());
    pods.get("default", "web");
    pods.mergePatch("default", "web", "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}");
    pods.watch(null, ListOptions.builder().watch(true).build()).close();
    pods.delete("default", "web");

    assertThat(client.actions()).extracting(Action::toString).containsExactly(
        "create pods default/web",
        "update pods/status default/web",
        "list configmaps default",
        "get pods default/web",
        "patch pods default/web",
        "watch pods",
        "delete pods default/web");
    Action status = client.actions().get(1);
    assertThat(status.isStatus()).isTrue();
    assertThat(status.object(Pod.class).getStatus().getPhase()).isEqualTo("Running");
    assertThat(client.actions().get(2).options().limit()).isEqualTo(5);
    assertThat(client.actions().get(4).patch()).contains("\"a\":\"b\"");
  }

  @Test
  void actionsFor_selectsByVerbAndResource() {
    pods.create(pod("default", "a"));
    configMaps.create(configMap("default", "cm"));
    pods.create(pod("default", "b"));
    pods.get("default", "a");

    assertThat(client.actionsFor(Action.CREATE, ResourceType.PODS)).extracting(Action::name)
        .containsExactly("a", "b");
    assertThat(client.actionsFor(Action.CREATE, null)).hasSize(3);
    assertThat(client.actionsFor(Action.ANY_VERB, ResourceType.PODS)).hasSize(3);
    assertThat(client.actions().stream().filter(a -> a.verb().equals("update") && a.isStatus())).isEmpty();

    client.clearActions();
    assertThat(client.actions()).isEmpty();
  }

  @Test
  void failNext_injectsTheErrorOnce_andTheCallIsStillRecorded() {
    pods.create(pod("default", "web"));
    StatusException tooMany = new StatusException(Status.failure(429, "TooManyRequests", "slow down", null));
    client.failNext(Action.CREATE, ResourceType.PODS, tooMany);

    configMaps.create(configMap("default", "cm")); // another resource: not failed
    assertThatThrownBy(() -> pods.create(pod("default", "second"))).isSameAs(tooMany);
    Pod third = pods.create(pod("default", "third"));

    assertThat(third.getMetadata().getName()).isEqualTo("third");
    assertThat(pods.get("default", "second")).isEmpty();
    assertThat(client.actionsFor(Action.CREATE, ResourceType.PODS)).extracting(Action::name)
        .containsExactly("web", "second", "third");
  }

  @Test
  void failNext_forAnyResource_queuedTwice_failsTwoCalls() {
    client.failNext(Action.ANY_VERB, null, StatusException.internal("first"));
    client.failNext(Action.ANY_VERB, null, StatusException.internal("second"));

    assertThatThrownBy(() -> pods.get("default", "a")).hasMessageContaining("second");
    assertThatThrownBy(() -> configMaps.list(null, null)).hasMessageContaining("first");
    assertThat(pods.get("default", "a")).isEmpty();
  }

  @Test
  void reactors_canAnswerCalls_orPassThrough_inOrder() {
    AtomicInteger seen = new AtomicInteger();
    client.addReactor(Action.ANY_VERB, null, action -> {
      seen.incrementAndGet();
      return Reaction.passThrough();
    });
    client.prependReactor(Action.LIST, ResourceType.PODS, action ->
        Reaction.handled(new ObjectList<>(List.of(pod("x", "canned")), "42", "", OptionalLong.empty())));
    client.prependReactor(Action.DELETE, ResourceType.PODS, action -> Reaction.handled(true));

    ObjectList<Pod> list = pods.list(null, null);
    boolean deleted = pods.delete("default", "missing");
    pods.create(pod("default", "real"));

    assertThat(list.resourceVersion()).isEqualTo("42");
    assertThat(list.items()).extracting(p -> p.getMetadata().getName()).containsExactly("canned");
    assertThat(deleted).isTrue();
    assertThat(seen).hasValue(1); // only the create reached the last reactor
    assertThat(pods.get("default", "real")).isPresent();
  }

  @Test
  void aReactor_canFailConflictUntilTheControllerRetries() {
    Pod web = pods.create(pod("default", "web"));
    AtomicInteger attempts = new AtomicInteger();
    client.prependReactor(Action.UPDATE, ResourceType.PODS, action -> {
      if (attempts.incrementAndGet() <= 2) {
        throw StatusException.conflictModified("", "pods", action.name());
      }
      return Reaction.passThrough();
    });

    Pod updated = null;
    for (int i = 0; i < 3 && updated == null; i++) {
      try {
        updated = pods.update(new PodBuilder(web).editMetadata().addToLabels("try", "" + i).endMetadata().build());
      } catch (StatusException e) {
        assertThat(e.code()).isEqualTo(409);
      }
    }

    assertThat(updated).isNotNull();
    assertThat(updated.getMetadata().getLabels()).containsEntry("try", "2");
    assertThat(client.actionsFor(Action.UPDATE, ResourceType.PODS)).hasSize(3);
  }
}
