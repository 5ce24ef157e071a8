package io.listwatch.controllers.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.clock.Clock;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceType;
import io.listwatch.client.cache.SharedInformerFactory;
import io.listwatch.client.testing.FakeClient;
import io.listwatch.controllers.ControllerContext;
import io.listwatch.controllers.events.EventRecorder;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The running controller reacts to informer events: no sync is called by hand here. */
@Timeout(60)
class DeploymentControllerHandlersTest {

  private static ObjectNode await(FakeClient client, ResourceType type, String name, Predicate<ObjectNode> condition) {
    return Await.until(type + " default/" + name + " reaches the condition", Duration.ofSeconds(30),
        () -> client.server().get(type, "default", name), o -> o.isPresent() && condition.test(o.get())).get();
  }

  @Test
  void running_createsTheReplicaSet_ofANewDeployment_andAdoptsAnOrphanCreatedLater() throws Exception {
    try (FakeClient client = FakeClient.create();
        SharedInformerFactory factory = SharedInformerFactory.builder(client).build();
        DeploymentController controller = new DeploymentController(
            new ControllerContext(client, factory, EventRecorder.DISCARD, Clock.system()))) {
      factory.start();
      controller.run(1);
      ObjectNode d = DeploymentFixture.deployment(2, "nginx:1", 1, 0);
      ((ObjectNode) d.path("metadata")).remove("uid");
      client.dynamic(ResourceType.DEPLOYMENTS).create(DynamicObject.of(d));
      ObjectNode rs = await(client, ResourceType.REPLICASETS, DeploymentFixture.rsName("nginx:1"), x -> true);
      assertThat(rs.path("spec").path("replicas").asInt()).isEqualTo(2);

      ObjectNode orphan = DeploymentFixture.replicaSet("nginx:0", 0, 0, 0, 5);
      ObjectNode meta = (ObjectNode) orphan.path("metadata");
      meta.remove("ownerReferences");
      meta.remove("uid");
      client.dynamic(ResourceType.REPLICASETS).create(DynamicObject.of(orphan));
      String uid = client.server().get(ResourceType.DEPLOYMENTS, "default", "web").orElseThrow()
          .path("metadata").path("uid").asText();
      await(client, ResourceType.REPLICASETS, DeploymentFixture.rsName("nginx:0"),
          x -> x.path("metadata").path("ownerReferences").path(0).path("uid").asText().equals(uid));
    }
  }
}
