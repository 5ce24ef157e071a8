package io.listwatch.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.api.clock.FakeClock;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceType;
import io.listwatch.client.testing.FakeClient;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The agent's node and heartbeat over a FakeClient, on a fake clock. */
@Timeout(60)
class NodeAgentTest {

  private final FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final FakeClient client = FakeClient.create();

  private String renewTime() {
    return client.dynamic(ResourceType.LEASES).get("kube-node-lease", "n1").orElseThrow()
        .get("spec", "renewTime").orElseThrow().asText();
  }

  @Test
  void lease_isRenewedEveryTenSecondsOfTheClock() throws Exception {
    try (NodeAgent agent = NodeAgent.builder(client, "n1").clock(clock).build()) {
      agent.start();
      DynamicObject node = client.dynamic(ResourceType.NODES).get("", "n1").orElseThrow();
      assertThat(node.get("status", "capacity", "cpu").orElseThrow().asText()).isEqualTo("4");
      assertThat(node.get("status", "addresses").orElseThrow().toString()).contains("\"type\":\"InternalIP\"");
      assertThat(renewTime()).isEqualTo("2026-01-01T00:00:00.000000Z");

      clock.advance(Duration.ofSeconds(9));
      assertThat(renewTime()).isEqualTo("2026-01-01T00:00:00.000000Z");
      clock.advance(Duration.ofSeconds(1));
      Await.until("the lease is renewed", Duration.ofSeconds(20), this::renewTime,
          "2026-01-01T00:00:10.000000Z"::equals);
    }
  }

  @Test
  void builder_refusesABadNodeNameCidrOrBackOff() {
    assertThatThrownBy(() -> NodeAgent.builder(client, "Bad_Name").build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> NodeAgent.builder(client, "n1").podCidr("10.0.0.0/33").build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> NodeAgent.builder(client, "n1")
        .crashLoopBackOff(Duration.ofMinutes(10), Duration.ofMinutes(5)).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("over its maximum");
  }
}
