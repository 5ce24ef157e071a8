package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.EndToEnd;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * fabric8's patches against the server: {@code edit()} (a JSON Patch fabric8 computes from the
 * object before and after), {@code patch} with strategic merge, and a JSON Patch whose
 * {@code test} fails.
 */
@EndToEnd
@ExtendWith(ApiServerExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class Fabric8PatchTest {

  private static KubernetesClient client;

  @BeforeAll
  static void setUp(ApiServer server) {
    client = Fabric8Test.newClient(server.url());
  }

  @AfterAll
  static void tearDown() {
    if (client != null) {
      client.close();
    }
  }

  private static void createDeployment(String ns) {
    Fabric8Test.createNamespace(client, ns);
    client.apps().deployments().inNamespace(ns).resource(new DeploymentBuilder()
        .withNewMetadata().withName("web").endMetadata()
        .withNewSpec().withReplicas(1)
        .withNewSelector().addToMatchLabels("app", "web").endSelector()
        .withNewTemplate().withNewMetadata().addToLabels("app", "web").endMetadata()
        .withNewSpec()
        .addNewContainer().withName("app").withImage("nginx:1.26").addNewEnv().withName("MODE").withValue("prod").endEnv()
        .endContainer()
        .addNewContainer().withName("sidecar").withImage("busybox:1.36").endContainer()
        .endSpec().endTemplate().endSpec().build()).create();
  }

  private static List<String> images(Deployment d) {
    return d.getSpec().getTemplate().getSpec().getContainers().stream().map(Container::getImage).toList();
  }

  @Test
  void edit_sendsAJsonPatch_thatChangesOnlyWhatTheEditorChanged() {
    createDeployment("f8-edit");

    Deployment edited = client.apps().deployments().inNamespace("f8-edit").withName("web").edit(d ->
        new DeploymentBuilder(d).editMetadata().addToLabels("tier", "front").endMetadata()
            .editSpec().withReplicas(3).editTemplate().editSpec().editFirstContainer().withImage("nginx:1.27")
            .endContainer().endSpec().endTemplate().endSpec().build());

    Deployment stored = client.apps().deployments().inNamespace("f8-edit").withName("web").get();
    assertThat(images(edited)).containsExactly("nginx:1.27", "busybox:1.36");
    assertThat(images(stored)).containsExactly("nginx:1.27", "busybox:1.36");
    assertThat(stored.getSpec().getReplicas()).isEqualTo(3);
    assertThat(stored.getMetadata().getLabels()).containsEntry("tier", "front");
    assertThat(stored.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().get(0).getValue())
        .isEqualTo("prod");
  }

  @Test
  void patchStrategicMerge_changesOneContainer_andKeepsTheOther() {
    createDeployment("f8-smp");

    Deployment patched = client.apps().deployments().inNamespace("f8-smp").withName("web")
        .patch(PatchContext.of(PatchType.STRATEGIC_MERGE),
            "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"sidecar\",\"image\":\"busybox:1.37\"}]}}}}");

    assertThat(images(patched)).containsExactly("nginx:1.26", "busybox:1.37");
    assertThat(images(client.apps().deployments().inNamespace("f8-smp").withName("web").get()))
        .containsExactly("nginx:1.26", "busybox:1.37");
  }

  @Test
  void patchJson_withAFailedTest_is422_andChangesNothing() {
    createDeployment("f8-json");

    KubernetesClientException e = catchThrowableOfType(KubernetesClientException.class, () ->
        client.apps().deployments().inNamespace("f8-json").withName("web").patch(PatchContext.of(PatchType.JSON),
            "[{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":5},"
                + "{\"op\":\"test\",\"path\":\"/spec/replicas\",\"value\":1}]"));

    assertThat(e.getCode()).isEqualTo(422);
    assertThat(e.getStatus().getReason()).isEqualTo("Invalid");
    assertThat(client.apps().deployments().inNamespace("f8-json").withName("web").get().getSpec().getReplicas())
        .isEqualTo(1);
  }

  @Test
  void serverSideApply_createsThenMerges_recordingFabric8AsTheManager() {
    Fabric8Test.createNamespace(client, "f8-ssa");
    var configMaps = client.configMaps().inNamespace("f8-ssa");

    configMaps.resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder().withNewMetadata().withName("cfg")
        .endMetadata().addToData("a", "1").build()).serverSideApply();
    io.fabric8.kubernetes.api.model.ConfigMap merged = configMaps.resource(new io.fabric8.kubernetes.api.model
        .ConfigMapBuilder().withNewMetadata().withName("cfg").endMetadata().addToData("a", "1").addToData("b", "2")
        .build()).serverSideApply();

    assertThat(merged.getData()).containsExactlyInAnyOrderEntriesOf(java.util.Map.of("a", "1", "b", "2"));
    assertThat(merged.getMetadata().getManagedFields()).singleElement().satisfies(m -> {
      assertThat(m.getManager()).isEqualTo("fabric8");
      assertThat(m.getOperation()).isEqualTo("Apply");
    });
  }
}
