package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v1.Scale;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.EndToEnd;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * fabric8 (7.x) on the apps group: {@code scale} of deployments, statefulsets and replicasets
 * (through their {@code scale} subresource), its rolling operations (image, restart, pause,
 * resume), {@code waitUntilCondition}, and a SharedIndexInformer on deployments with an index
 * of its own, listing in pages. Each test works in a namespace of its own.
 */
@EndToEnd
@ExtendWith(ApiServerExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS) // a backstop: every wait below is bounded more tightly
class Fabric8AppsTest {

  private static final long WAIT_SECONDS = 10;

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

  private static PodTemplateSpec template(String app) {
    return new PodTemplateSpecBuilder()
        .withNewMetadata().addToLabels("app", app).endMetadata()
        .withNewSpec().addNewContainer().withName("c").withImage("nginx:1.27").endContainer().endSpec()
        .build();
  }

  private static Deployment deployment(String name, int replicas, Map<String, String> labels) {
    return new DeploymentBuilder()
        .withNewMetadata().withName(name).withLabels(labels).endMetadata()
        .withNewSpec().withReplicas(replicas)
        .withNewSelector().addToMatchLabels("app", name).endSelector()
        .withTemplate(template(name))
        .endSpec().build();
  }

  @Test
  void scaleDeployment_setsSpecReplicas_andTheScaleSubresourceReadsItBack() {
    Fabric8Test.createNamespace(client, "f8-scale");
    client.apps().deployments().inNamespace("f8-scale").resource(deployment("web", 1, Map.of())).create();

    Deployment scaled = client.apps().deployments().inNamespace("f8-scale").withName("web").scale(3);
    Scale scale = client.apps().deployments().inNamespace("f8-scale").withName("web").scale();

    assertThat(scaled.getSpec().getReplicas()).isEqualTo(3);
    assertThat(client.apps().deployments().inNamespace("f8-scale").withName("web").get().getSpec().getReplicas())
        .isEqualTo(3);
    assertThat(scale.getApiVersion()).isEqualTo("autoscaling/v1");
    assertThat(scale.getKind()).isEqualTo("Scale");
    assertThat(scale.getMetadata().getName()).isEqualTo("web");
    assertThat(scale.getSpec().getReplicas()).isEqualTo(3);
    assertThat(scale.getStatus().getSelector()).isEqualTo("app=web");
  }

  @Test
  void scaleWithAScaleObject_updatesReplicas_andAStaleResourceVersionConflicts() {
    Fabric8Test.createNamespace(client, "f8-scale-put");
    client.apps().deployments().inNamespace("f8-scale-put").resource(deployment("web", 2, Map.of())).create();
    Scale before = client.apps().deployments().inNamespace("f8-scale-put").withName("web").scale();

    before.getSpec().setReplicas(5);
    Scale after = client.apps().deployments().inNamespace("f8-scale-put").withName("web").scale(before);
    before.getSpec().setReplicas(7); // still the resourceVersion read before the update above
    KubernetesClientException stale = catchThrowableOfType(KubernetesClientException.class,
        () -> client.apps().deployments().inNamespace("f8-scale-put").withName("web").scale(before));

    assertThat(after.getSpec().getReplicas()).isEqualTo(5);
    assertThat(stale.getCode()).isEqualTo(409);
    assertThat(client.apps().deployments().inNamespace("f8-scale-put").withName("web").get().getSpec().getReplicas())
        .isEqualTo(5);
  }

  @Test
  void scaleStatefulSetAndReplicaSet_setTheirReplicas() {
    Fabric8Test.createNamespace(client, "f8-scale-sts");
    client.apps().statefulSets().inNamespace("f8-scale-sts").resource(new StatefulSetBuilder()
        .withNewMetadata().withName("db").endMetadata()
        .withNewSpec().withServiceName("db").withReplicas(1)
        .withNewSelector().addToMatchLabels("app", "db").endSelector()
        .withTemplate(template("db")).endSpec().build()).create();
    client.apps().replicaSets().inNamespace("f8-scale-sts").resource(new ReplicaSetBuilder()
        .withNewMetadata().withName("web-1").endMetadata()
        .withNewSpec().withReplicas(1)
        .withNewSelector().addToMatchLabels("app", "web").endSelector()
        .withTemplate(template("web")).endSpec().build()).create();

    client.apps().statefulSets().inNamespace("f8-scale-sts").withName("db").scale(4);
    client.apps().replicaSets().inNamespace("f8-scale-sts").withName("web-1").scale(0);

    assertThat(client.apps().statefulSets().inNamespace("f8-scale-sts").withName("db").get().getSpec().getReplicas())
        .isEqualTo(4);
    assertThat(client.apps().statefulSets().inNamespace("f8-scale-sts").withName("db").scale().getSpec()
        .getReplicas()).isEqualTo(4);
    assertThat(client.apps().replicaSets().inNamespace("f8-scale-sts").withName("web-1").get().getSpec()
        .getReplicas()).isEqualTo(0);
  }

  @Test
  void rollingOperations_updateImageRestartPauseAndResume_changeTheDeployment() {
    Fabric8Test.createNamespace(client, "f8-rolling");
    client.apps().deployments().inNamespace("f8-rolling").resource(deployment("web", 1, Map.of())).create();
    var web = client.apps().deployments().inNamespace("f8-rolling").withName("web");

    Deployment updated = web.updateImage("nginx:1.28");
    Deployment restarted = web.rolling().restart();
    Deployment paused = web.rolling().pause();
    Deployment resumed = web.rolling().resume();

    assertThat(updated.getSpec().getTemplate().getSpec().getContainers()).extracting(c -> c.getImage())
        .containsExactly("nginx:1.28");
    assertThat(restarted.getSpec().getTemplate().getMetadata().getAnnotations())
        .containsKey("kubectl.kubernetes.io/restartedAt");
    assertThat(paused.getSpec().getPaused()).isTrue();
    assertThat(resumed.getSpec().getPaused()).isNull();
    Deployment stored = web.get();
    assertThat(stored.getSpec().getTemplate().getSpec().getContainers()).extracting(c -> c.getImage())
        .containsExactly("nginx:1.28");
    assertThat(stored.getMetadata().getGeneration()).as("four spec changes after the create").isEqualTo(5);
  }

  @Test
  void waitUntilCondition_returnsOnceAScaleIsSeen() {
    Fabric8Test.createNamespace(client, "f8-wait");
    client.apps().deployments().inNamespace("f8-wait").resource(deployment("web", 1, Map.of())).create();
    var web = client.apps().deployments().inNamespace("f8-wait").withName("web");

    web.scale(4);
    Deployment seen = web.waitUntilCondition(d -> d != null && d.getSpec().getReplicas() == 4, WAIT_SECONDS,
        TimeUnit.SECONDS);

    assertThat(seen.getSpec().getReplicas()).isEqualTo(4);
  }

  @Test
  void scaleOfAMissingDeployment_failsWithNotFound() {
    Fabric8Test.createNamespace(client, "f8-scale-missing");

    KubernetesClientException e = catchThrowableOfType(KubernetesClientException.class,
        () -> client.apps().deployments().inNamespace("f8-scale-missing").withName("nope").scale(2));

    assertThat(e.getCode()).isEqualTo(404);
  }

  /** Queues one line per event a handler sees: "add web", "update web 3", "delete web". */
  private static final class QueueingHandler implements ResourceEventHandler<Deployment> {
    final BlockingQueue<String> seen = new LinkedBlockingQueue<>();

    @Override
    public void onAdd(Deployment d) {
      seen.add("add " + d.getMetadata().getName());
    }

    @Override
    public void onUpdate(Deployment oldD, Deployment newD) {
      if (!oldD.getMetadata().getResourceVersion().equals(newD.getMetadata().getResourceVersion())) {
        seen.add("update " + newD.getMetadata().getName() + " " + newD.getSpec().getReplicas());
      }
    }

    @Override
    public void onDelete(Deployment d, boolean deletedFinalStateUnknown) {
      seen.add("delete " + d.getMetadata().getName() + (deletedFinalStateUnknown ? " (final state unknown)" : ""));
    }

    String next(String what) {
      try {
        String line = seen.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        if (line == null) {
          fail("no %s within %d s", what, WAIT_SECONDS);
        }
        return line;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      }
    }
  }

  @Test
  void deploymentInformer_listsInPages_syncs_seesAddUpdateDelete_andIndexesByTeam() throws Exception {
    String ns = "f8-deploy-informer";
    Fabric8Test.createNamespace(client, ns);
    for (String name : List.of("a", "b", "c")) {
      client.apps().deployments().inNamespace(ns).resource(deployment(name, 1, Map.of("team", "blue"))).create();
    }
    QueueingHandler handler = new QueueingHandler();
    SharedIndexInformer<Deployment> informer = client.apps().deployments().inNamespace(ns)
        .withIndexers(Map.of("team", d -> List.of(d.getMetadata().getLabels().getOrDefault("team", ""))))
        .withLimit(2L) // the initial list in pages of two: the third deployment comes from the continue token
        .runnableInformer(0);
    try {
      informer.addEventHandler(handler);
      try {
        // start() completes once the initial list is in the store and the watch has started
        informer.start().toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        throw new AssertionError("the informer did not sync within " + WAIT_SECONDS + " s", e);
      }

      assertThat(informer.hasSynced()).isTrue();
      assertThat(informer.getStore().listKeys()).containsExactlyInAnyOrder(ns + "/a", ns + "/b", ns + "/c");
      assertThat(List.of(handler.next("add"), handler.next("add"), handler.next("add")))
          .containsExactlyInAnyOrder("add a", "add b", "add c");

      client.apps().deployments().inNamespace(ns).resource(deployment("d", 1, Map.of("team", "red"))).create();
      assertThat(handler.next("add from the watch")).isEqualTo("add d");
      client.apps().deployments().inNamespace(ns).withName("a").scale(3);
      assertThat(handler.next("update from the scale")).isEqualTo("update a 3");
      client.apps().deployments().inNamespace(ns).withName("b").delete();
      assertThat(handler.next("delete")).isEqualTo("delete b");

      assertThat(informer.getStore().list()).extracting(d -> d.getMetadata().getName())
          .containsExactlyInAnyOrder("a", "c", "d");
      assertThat(informer.getStore().getByKey(ns + "/a").getSpec().getReplicas()).isEqualTo(3);
      assertThat(informer.getIndexer().byIndex("team", "blue")).extracting(d -> d.getMetadata().getName())
          .containsExactlyInAnyOrder("a", "c");
      assertThat(informer.getIndexer().byIndex("team", "red")).extracting(d -> d.getMetadata().getName())
          .containsExactly("d");
    } finally {
      informer.close();
    }
  }

  @Test
  void informFromTheInformerFactory_seesDeploymentsOfEveryNamespace() throws Exception {
    Fabric8Test.createNamespace(client, "f8-factory-1");
    Fabric8Test.createNamespace(client, "f8-factory-2");
    client.apps().deployments().inNamespace("f8-factory-1").resource(deployment("one", 1, Map.of())).create();
    QueueingHandler handler = new QueueingHandler();
    var factory = client.informers();
    try {
      SharedIndexInformer<Deployment> informer = factory.sharedIndexInformerFor(Deployment.class, 0);
      informer.addEventHandler(handler);
      try {
        factory.startAllRegisteredInformers().get(WAIT_SECONDS, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        throw new AssertionError("the informer factory did not sync within " + WAIT_SECONDS + " s", e);
      }
      assertThat(informer.getStore().listKeys()).contains("f8-factory-1/one");

      client.apps().deployments().inNamespace("f8-factory-2").resource(deployment("two", 1, Map.of())).create();

      String seen;
      do { // deployments other tests of the class create may show up too
        seen = handler.next("add of f8-factory-2/two");
      } while (!seen.equals("add two"));
      assertThat(informer.getStore().getByKey("f8-factory-2/two")).isNotNull();
    } finally {
      factory.stopAllRegisteredInformers();
    }
  }
}
