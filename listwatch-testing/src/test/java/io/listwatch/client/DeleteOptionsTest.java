package io.listwatch.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.listwatch.api.StatusException;
import io.listwatch.client.testing.Action;
import io.listwatch.client.testing.FakeClient;
import io.listwatch.server.ApiServer;
import io.listwatch.client.testing.ApiServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** DELETE with a body: grace period and uid precondition, over HTTP and in the fake. */
@ExtendWith(ApiServerExtension.class)
class DeleteOptionsTest {

  private KubeClient client;
  private ResourceClient<DynamicObject> pods;

  @BeforeEach
  void connect(ApiServer server) {
    client = KubeClient.create(Config.forUrl(server.url()));
    pods = client.dynamic(ResourceType.PODS);
  }

  @AfterEach
  void disconnect() {
    client.close();
  }

  static DynamicObject boundPod(String name) {
    return DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name
        + "\",\"namespace\":\"default\"},\"spec\":{\"nodeName\":\"n1\",\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}");
  }

  @Test
  void gracePeriod_marksThePod_immediateWithItsUid_removesIt() {
    DynamicObject pod = pods.create(boundPod("graceful"));

    assertThat(pods.delete("default", "graceful", new DeleteOptions(60L, "", "", ""))).isTrue();
    DynamicObject marked = pods.get("default", "graceful").orElseThrow();
    assertThat(marked.get("metadata", "deletionGracePeriodSeconds").orElseThrow().asLong()).isEqualTo(60);

    assertThat(pods.delete("default", "graceful", DeleteOptions.immediate(pod.uid()))).isTrue();
    assertThat(pods.get("default", "graceful")).isEmpty();
  }

  @Test
  void uidPrecondition_thatDoesNotHold_isAConflict_andKeepsThePod() {
    pods.create(boundPod("kept"));

    StatusException e = catchThrowableOfType(StatusException.class,
        () -> pods.delete("default", "kept", DeleteOptions.immediate("00000000-0000-0000-0000-000000000000")));
    assertThat(e.status().code()).isEqualTo(409);
    assertThat(pods.get("default", "kept")).isPresent();
  }

  @Test
  void fake_recordsTheOptions_andChecksTheUid() {
    FakeClient fake = FakeClient.create();
    ResourceClient<DynamicObject> fakePods = fake.dynamic(ResourceType.PODS);
    DynamicObject pod = fakePods.create(boundPod("p"));

    StatusException e = catchThrowableOfType(StatusException.class,
        () -> fakePods.delete("default", "p", DeleteOptions.immediate("other")));
    assertThat(e.status().code()).isEqualTo(409);
    assertThat(fakePods.delete("default", "p", DeleteOptions.immediate(pod.uid()))).isTrue();

    Action last = fake.actions().get(fake.actions().size() - 1);
    assertThat(last.verb()).isEqualTo(Action.DELETE);
    assertThat(last.object()).isEqualTo(DeleteOptions.immediate(pod.uid()));
    assertThat(fakePods.get("default", "p")).isEmpty();
  }
}
