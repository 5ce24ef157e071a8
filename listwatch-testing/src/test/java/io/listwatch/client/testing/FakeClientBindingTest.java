package io.listwatch.client.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.api.StatusException;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import org.junit.jupiter.api.Test;

class FakeClientBindingTest {

  private final FakeClient client = FakeClient.create();
  private final ResourceClient<DynamicObject> pods = client.dynamic(ResourceType.PODS);

  private static DynamicObject binding(String pod, String node) {
    return DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"" + pod
        + "\"},\"target\":{\"kind\":\"Node\",\"name\":\"" + node + "\"}}");
  }

  @Test
  void binding_setsNodeNameAndPodScheduled_andIsRecordedAsCreateOfTheSubresource() {
    pods.create(DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"web\","
        + "\"namespace\":\"default\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}"));
    client.clearActions();

    DynamicObject answer = pods.createSubresource("default", "web", "binding", binding("web", "node-1"));

    assertThat(answer.kind()).isEqualTo("Status");
    assertThat(client.actions()).extracting(Action::toString).containsExactly("create pods/binding default/web");
    DynamicObject pod = pods.get("default", "web").orElseThrow();
    assertThat(pod.get("spec", "nodeName").orElseThrow().asText()).isEqualTo("node-1");
    assertThat(pod.get("status", "conditions").orElseThrow().get(0).toString())
        .contains("\"type\":\"PodScheduled\"", "\"status\":\"True\"");
    assertThatThrownBy(() -> pods.createSubresource("default", "web", "binding", binding("web", "node-2")))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.status().code()).isEqualTo(409));
  }

  @Test
  void binding_ofMissingPod_isNotFound() {
    assertThatThrownBy(() -> pods.createSubresource("default", "nope", "binding", binding("nope", "n")))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.status().code()).isEqualTo(404));
  }
}
