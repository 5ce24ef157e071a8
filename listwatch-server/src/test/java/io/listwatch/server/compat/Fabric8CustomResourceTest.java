package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.crdv2.generator.CRDGenerationInfo;
import io.fabric8.crdv2.generator.CRDGenerator;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.testsupport.EndToEnd;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.junit.jupiter.api.io.TempDir;

/**
 * What an operator written with fabric8 does with its own kind: the CustomResourceDefinition
 * generated from an annotated Java class by fabric8's CRD generator (as its Maven plugin does at
 * build time), applied with the client and waited for until Established; then the typed
 * {@code client.resources(Widget.class)}: CRUD, server-side apply, status through the status
 * subresource, and an informer. Each test works in a namespace of its own on the class's
 * shared server.
 */
@EndToEnd
@ExtendWith(ApiServerExtension.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS) // a backstop: every wait below is bounded more tightly
class Fabric8CustomResourceTest {

  private static final long WAIT_SECONDS = 10;

  /** The spec of a {@link Widget}: the generator turns the annotations into schema constraints. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class WidgetSpec {
    @Required
    public String color;
    @Min(1)
    @Max(10)
    public Integer size;
    @Default("standard")
    public String tier;
    public List<String> tags;
  }

  /** The status of a {@link Widget}, written through the status subresource. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class WidgetStatus {
    public String phase;
    public Long observedGeneration;
  }

  /** The custom resource: a status type makes the generator declare the status subresource. */
  @Group("example.com")
  @Version("v1")
  @ShortNames("wdg")
  public static class Widget extends CustomResource<WidgetSpec, WidgetStatus> implements Namespaced {
  }

  private static KubernetesClient client;
  private static CustomResourceDefinition definition;

  @BeforeAll
  static void setUp(ApiServer server, @TempDir Path dir) throws Exception {
    client = Fabric8Test.newClient(server.url());
    CRDGenerationInfo info = new CRDGenerator()
        .customResourceClasses(Widget.class)
        .forCRDVersions("v1")
        .inOutputDir(dir.toFile())
        .detailedGenerate();
    File yaml = new File(info.getCRDInfos("widgets.example.com").get("v1").getFilePath());
    assertThat(Files.readString(yaml.toPath())).contains("kind: \"CustomResourceDefinition\"").contains("subresources:");
    CustomResourceDefinition generated = client.apiextensions().v1().customResourceDefinitions().load(yaml).item();
    client.apiextensions().v1().customResourceDefinitions().resource(generated)
        .fieldManager("widget-operator").serverSideApply();
    definition = client.apiextensions().v1().customResourceDefinitions().withName("widgets.example.com")
        .waitUntilCondition(crd -> crd != null && crd.getStatus() != null && crd.getStatus().getConditions().stream()
            .anyMatch(c -> c.getType().equals("Established") && c.getStatus().equals("True")),
            WAIT_SECONDS, TimeUnit.SECONDS);
  }

  @AfterAll
  static void tearDown() {
    if (client != null) {
      client.close();
    }
  }

  private static MixedOperation<Widget, KubernetesResourceList<Widget>, Resource<Widget>> widgets() {
    return client.resources(Widget.class);
  }

  private static Widget widget(String name, String color, Integer size) {
    Widget w = new Widget();
    w.setMetadata(new ObjectMetaBuilder().withName(name).build());
    WidgetSpec spec = new WidgetSpec();
    spec.color = color;
    spec.size = size;
    w.setSpec(spec);
    return w;
  }

  private static WidgetStatus status(String phase, Long observedGeneration) {
    WidgetStatus s = new WidgetStatus();
    s.phase = phase;
    s.observedGeneration = observedGeneration;
    return s;
  }

  @Test
  void generatedDefinition_isAccepted_withItsStatusSubresourceAndNames() {
    assertThat(definition.getStatus().getConditions())
        .anyMatch(c -> c.getType().equals("NamesAccepted") && c.getStatus().equals("True"));
    assertThat(definition.getStatus().getAcceptedNames().getShortNames()).containsExactly("wdg");
    assertThat(definition.getSpec().getVersions().get(0).getSubresources().getStatus()).isNotNull();
    assertThat(client.getApiResources("example.com/v1").getResources())
        .anyMatch(r -> r.getName().equals("widgets") && r.getKind().equals("Widget") && r.getNamespaced())
        .anyMatch(r -> r.getName().equals("widgets/status"));
  }

  @Test
  void typedClient_createsGetsListsUpdatesAndDeletesWidgets() {
    Fabric8Test.createNamespace(client, "f8cr-crud");
    Widget created = widgets().inNamespace("f8cr-crud").resource(widget("w1", "red", 3)).create();
    widgets().inNamespace("f8cr-crud").resource(widget("w2", "blue", 5)).create();

    assertThat(created.getMetadata().getUid()).isNotEmpty();
    assertThat(created.getMetadata().getGeneration()).isEqualTo(1L);
    assertThat(created.getApiVersion()).isEqualTo("example.com/v1");
    Widget read = widgets().inNamespace("f8cr-crud").withName("w1").get();
    assertThat(read.getSpec().color).isEqualTo("red");
    assertThat(read.getSpec().size).isEqualTo(3);
    assertThat(widgets().inNamespace("f8cr-crud").list().getItems())
        .extracting(w -> w.getMetadata().getName()).containsExactly("w1", "w2");

    Widget updated = widgets().inNamespace("f8cr-crud").withName("w1").edit(w -> {
      w.getSpec().size = 4;
      return w;
    });
    assertThat(updated.getSpec().size).isEqualTo(4);
    assertThat(updated.getMetadata().getGeneration()).isEqualTo(2L);

    Widget stale = read; // still at the first resourceVersion
    stale.getSpec().color = "green";
    KubernetesClientException conflict = catchThrowableOfType(KubernetesClientException.class,
        () -> widgets().inNamespace("f8cr-crud").resource(stale).update());
    assertThat(conflict.getCode()).isEqualTo(409);

    assertThat(widgets().inNamespace("f8cr-crud").withName("w2").delete()).hasSize(1);
    assertThat(widgets().inNamespace("f8cr-crud").withName("w2").get()).isNull();
    assertThat(widgets().inNamespace("f8cr-crud").list().getItems())
        .extracting(w -> w.getMetadata().getName()).containsExactly("w1");
  }

  @Test
  void statusSubresource_updateStatusAndPatchStatus_changeOnlyTheStatus() {
    Fabric8Test.createNamespace(client, "f8cr-status");
    widgets().inNamespace("f8cr-status").resource(widget("w1", "red", 3)).create();

    // a write to the main resource ignores the status it carries
    Widget withStatus = widgets().inNamespace("f8cr-status").withName("w1").get();
    withStatus.setStatus(status("Ignored", 9L));
    assertThat(widgets().inNamespace("f8cr-status").resource(withStatus).update().getStatus()).isNull();

    // updateStatus writes the status and ignores the spec it carries; generation stays
    Widget current = widgets().inNamespace("f8cr-status").withName("w1").get();
    current.setStatus(status("Ready", 1L));
    current.getSpec().color = "ignored";
    Widget afterUpdateStatus = widgets().inNamespace("f8cr-status").resource(current).updateStatus();
    assertThat(afterUpdateStatus.getStatus().phase).isEqualTo("Ready");
    assertThat(afterUpdateStatus.getSpec().color).isEqualTo("red");
    assertThat(afterUpdateStatus.getMetadata().getGeneration()).isEqualTo(1L);

    // patchStatus: a merge patch computed by the client on the status subresource
    Widget patched = widgets().inNamespace("f8cr-status").withName("w1").editStatus(w -> {
      w.getStatus().phase = "Degraded";
      return w;
    });
    assertThat(patched.getStatus().phase).isEqualTo("Degraded");
    Widget toPatch = widgets().inNamespace("f8cr-status").withName("w1").get();
    toPatch.getStatus().observedGeneration = 2L;
    toPatch.getMetadata().setResourceVersion(null);
    Widget afterPatchStatus = widgets().inNamespace("f8cr-status").resource(toPatch).patchStatus();
    assertThat(afterPatchStatus.getStatus().observedGeneration).isEqualTo(2L);
    assertThat(afterPatchStatus.getStatus().phase).isEqualTo("Degraded");

    Widget read = widgets().inNamespace("f8cr-status").withName("w1").get();
    assertThat(read.getStatus().phase).isEqualTo("Degraded");
    assertThat(read.getSpec().color).isEqualTo("red");
    assertThat(read.getMetadata().getGeneration()).isEqualTo(1L);
  }

  // needs crwrites: server-side apply of a custom resource (answered 415 before it)
  @Test
  void serverSideApply_createsAndUpdatesAWidget_recordingItsManager() {
    Fabric8Test.createNamespace(client, "f8cr-apply");

    Widget applied = widgets().inNamespace("f8cr-apply").resource(widget("w1", "red", 3))
        .fieldManager("widget-operator").forceConflicts().serverSideApply();
    assertThat(applied.getMetadata().getUid()).isNotEmpty();
    assertThat(applied.getMetadata().getManagedFields())
        .anyMatch(m -> m.getManager().equals("widget-operator") && m.getOperation().equals("Apply"));

    Widget reapplied = widgets().inNamespace("f8cr-apply").resource(widget("w1", "red", 7))
        .fieldManager("widget-operator").forceConflicts().serverSideApply();
    assertThat(reapplied.getSpec().size).isEqualTo(7);
    assertThat(reapplied.getMetadata().getUid()).isEqualTo(applied.getMetadata().getUid());
    assertThat(reapplied.getMetadata().getGeneration()).isEqualTo(2L);

    // another manager changing a field the operator owns conflicts unless forced
    KubernetesClientException conflict = catchThrowableOfType(KubernetesClientException.class,
        () -> widgets().inNamespace("f8cr-apply").resource(widget("w1", "blue", 7))
            .fieldManager("someone-else").serverSideApply());
    assertThat(conflict.getCode()).isEqualTo(409);
    assertThat(conflict.getMessage()).contains("widget-operator").contains(".spec.color");
  }

  // needs crwrites: the schema's default and its minimum, enforced on writes of custom resources
  @Test
  void schemaFromTheAnnotations_fillsInTheDefault_andRejectsASizeOutOfRange() {
    Fabric8Test.createNamespace(client, "f8cr-schema");

    Widget created = widgets().inNamespace("f8cr-schema").resource(widget("w1", "red", 3)).create();
    assertThat(created.getSpec().tier).isEqualTo("standard");

    KubernetesClientException invalid = catchThrowableOfType(KubernetesClientException.class,
        () -> widgets().inNamespace("f8cr-schema").resource(widget("w2", "red", 0)).create());
    assertThat(invalid.getCode()).isEqualTo(422);
    assertThat(invalid.getMessage()).contains("spec.size");
    assertThat(widgets().inNamespace("f8cr-schema").withName("w2").get()).isNull();
  }

  @Test
  void informer_onWidgets_syncsAndSeesAddsUpdatesAndDeletes() throws Exception {
    Fabric8Test.createNamespace(client, "f8cr-informer");
    widgets().inNamespace("f8cr-informer").resource(widget("existing", "red", 1)).create();
    BlockingQueue<String> seen = new LinkedBlockingQueue<>();
    ResourceEventHandler<Widget> handler = new ResourceEventHandler<>() {
      @Override
      public void onAdd(Widget w) {
        seen.add("add " + w.getMetadata().getName());
      }

      @Override
      public void onUpdate(Widget oldW, Widget newW) {
        if (!oldW.getMetadata().getResourceVersion().equals(newW.getMetadata().getResourceVersion())) {
          seen.add("update " + newW.getMetadata().getName() + " size=" + newW.getSpec().size);
        }
      }

      @Override
      public void onDelete(Widget w, boolean deletedFinalStateUnknown) {
        seen.add("delete " + w.getMetadata().getName() + (deletedFinalStateUnknown ? " (final state unknown)" : ""));
      }
    };

    SharedIndexInformer<Widget> informer = widgets().inNamespace("f8cr-informer").runnableInformer(0);
    try {
      informer.addEventHandler(handler);
      try {
        informer.start().toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        throw new AssertionError("the informer did not sync and start its watch within " + WAIT_SECONDS + " s", e);
      }
      assertThat(poll(seen, "add from the initial list")).isEqualTo("add existing");

      widgets().inNamespace("f8cr-informer").resource(widget("added", "blue", 2)).create();
      assertThat(poll(seen, "add from the watch")).isEqualTo("add added");

      widgets().inNamespace("f8cr-informer").withName("existing").edit(w -> {
        w.getSpec().size = 5;
        return w;
      });
      assertThat(poll(seen, "update")).isEqualTo("update existing size=5");

      widgets().inNamespace("f8cr-informer").withName("added").delete();
      assertThat(poll(seen, "delete")).isEqualTo("delete added");

      assertThat(informer.getStore().list()).extracting(w -> w.getMetadata().getName()).containsExactly("existing");
      assertThat(informer.getIndexer().getByKey("f8cr-informer/existing").getSpec().size).isEqualTo(5);
    } finally {
      informer.close();
    }
  }

  private static String poll(BlockingQueue<String> queue, String what) throws InterruptedException {
    String s = queue.poll(WAIT_SECONDS, TimeUnit.SECONDS);
    if (s == null) {
      throw new AssertionError("no " + what + " within " + WAIT_SECONDS + " s");
    }
    return s;
  }
}
