package io.listwatch.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.api.StatusException;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link ResourceClient#createSubresource} against the in-process server: a pod's binding. */
@ExtendWith(ApiServerExtension.class)
@Timeout(60)
class CreateSubresourceTest {

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

  private static DynamicObject binding(String pod, String node) {
    return DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"" + pod
        + "\"},\"target\":{\"kind\":\"Node\",\"name\":\"" + node + "\"}}");
  }

  @Test
  void binding_bindsThePod_andASecondBindingIsAConflict() {
    pods.create(DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"bind-me\","
        + "\"namespace\":\"default\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}"));

    DynamicObject answer = pods.createSubresource("default", "bind-me", "binding", binding("bind-me", "node-1"));

    assertThat(answer.kind()).isEqualTo("Status");
    assertThat(pods.get("default", "bind-me").orElseThrow().get("spec", "nodeName").orElseThrow().asText())
        .isEqualTo("node-1");
    assertThatThrownBy(() -> pods.createSubresource("default", "bind-me", "binding", binding("bind-me", "node-2")))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(409));
  }

  @Test
  void binding_ofMissingPod_isNotFound() {
    assertThatThrownBy(() -> pods.createSubresource("default", "absent", "binding", binding("absent", "n")))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(404));
  }
}
