package io.listwatch.client.cache;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.listwatch.api.LabelSelector;
import io.listwatch.client.Config;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.JacksonCodec;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ObjectMeta;
import io.listwatch.client.OwnerReference;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.server.ApiServer;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An operator's informer on its own custom resource, with a model class of its own (records
 * holding the client's {@link ObjectMeta}) mapped by {@link JacksonCodec}, against the
 * in-process server: the CustomResourceDefinition created through the client, then the typed
 * client, a {@link SharedInformerFactory} informer seeing adds, updates and deletes, and a
 * {@link Lister} reading the cache by namespace. The README's operator-author section shows
 * this same code.
 */
@Timeout(60)
class CustomResourceInformerTest {

  private static final long WAIT_SECONDS = 10;

  static final ResourceType CRDS = new ResourceType("apiextensions.k8s.io", "v1", "customresourcedefinitions",
      "CustomResourceDefinition", false);

  /** The definition the README's operator-author section shows. */
  static final String WIDGET_CRD = """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata: {name: widgets.example.com}
      spec:
        group: example.com
        scope: Namespaced
        names: {plural: widgets, singular: widget, kind: Widget}
        versions:
        - name: v1
          served: true
          storage: true
          subresources: {status: {}}
          schema:
            openAPIV3Schema:
              type: object
              properties:
                spec:
                  type: object
                  properties:
                    color: {type: string}
                    size: {type: integer, minimum: 1}
                status:
                  type: object
                  properties:
                    ready: {type: boolean}
      """;


  /** The operator's model: plain records, the metadata being the client's {@link ObjectMeta}. */
  record Widget(String apiVersion, String kind, ObjectMeta metadata, WidgetSpec spec, WidgetStatus status) {
    static Widget of(String namespace, String name, String color, int size) {
      return new Widget("example.com/v1", "Widget", ObjectMeta.of(namespace, name), new WidgetSpec(color, size), null);
    }

    Widget withSpec(WidgetSpec spec) {
      return new Widget(apiVersion, kind, metadata, spec, status);
    }

    Widget withMetadata(ObjectMeta metadata) {
      return new Widget(apiVersion, kind, metadata, spec, status);
    }
  }

  record WidgetSpec(String color, int size) {
  }

  record WidgetStatus(Boolean ready) {
  }

  static final ResourceType WIDGETS = new ResourceType("example.com", "v1", "widgets", "Widget", true);
  static final JacksonCodec<Widget> CODEC = JacksonCodec.of(Widget.class);

  private static ApiServer server;
  private static KubeClient client;
  private static ResourceClient<Widget> widgets;

  @BeforeAll
  static void setUp() throws Exception {
    server = ApiServer.builder().build().start(); // port 0, a temporary data directory deleted on close
    client = KubeClient.create(Config.forUrl(server.url()));
    client.dynamic(CRDS).create(DynamicObject.of((ObjectNode) new ObjectMapper(new YAMLFactory()).readTree(WIDGET_CRD)));
    awaitEstablished(client.dynamic(CRDS), "widgets.example.com");
    widgets = client.resource(WIDGETS, CODEC);
    for (String ns : List.of("red-team", "blue-team", "meta")) {
      client.dynamic(ResourceType.NAMESPACES).create(DynamicObject.parse(
          "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + ns + "\"}}"));
    }
  }

  @AfterAll
  static void tearDown() {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  /** Polls the definition until its Established condition is True, at most {@link #WAIT_SECONDS}. */
  static void awaitEstablished(ResourceClient<DynamicObject> crds, String name) {
    Await.until(name + " is Established", Duration.ofSeconds(WAIT_SECONDS), () -> {
      DynamicObject crd = crds.get(null, name).orElseThrow();
      for (var condition : crd.toTree().path("status").path("conditions")) {
        if (condition.path("type").asText().equals("Established") && condition.path("status").asText().equals("True")) {
          return true;
        }
      }
      return false;
    });
  }

  @Test
  void informer_onACustomResource_withARecordModel_seesAddsUpdatesAndDeletes_andListsByNamespace()
      throws InterruptedException {
    widgets.create(Widget.of("red-team", "existing", "red", 1));
    BlockingQueue<String> seen = new LinkedBlockingQueue<>();

    try (SharedInformerFactory factory = SharedInformerFactory.builder(client).build()) {
      SharedIndexInformer<Widget> informer = factory.informerFor(WIDGETS, CODEC);
      informer.addEventHandler(new ResourceEventHandler<>() {
        @Override
        public void onAdd(Widget w, boolean isInInitialList) {
          seen.add("add " + w.metadata().name() + " " + w.spec().color() + (isInInitialList ? " (initial)" : ""));
        }

        @Override
        public void onUpdate(Widget oldW, Widget newW) {
          seen.add("update " + newW.metadata().name() + " size " + oldW.spec().size() + "->" + newW.spec().size()
              + (newW.status() != null && Boolean.TRUE.equals(newW.status().ready()) ? " ready" : ""));
        }

        @Override
        public void onDelete(Widget w, boolean deletedFinalStateUnknown) {
          seen.add("delete " + w.metadata().name());
        }
      });
      factory.start();
      assertThat(factory.waitForCacheSync(Duration.ofSeconds(WAIT_SECONDS))).isTrue();
      assertThat(poll(seen)).isEqualTo("add existing red (initial)");

      widgets.create(Widget.of("blue-team", "added", "blue", 2));
      assertThat(poll(seen)).isEqualTo("add added blue");

      Widget current = widgets.get("red-team", "existing").orElseThrow();
      widgets.update(current.withSpec(new WidgetSpec("red", 5)));
      assertThat(poll(seen)).isEqualTo("update existing size 1->5");

      Lister<Widget> lister = new Lister<>(informer.getIndexer(), CODEC);
      assertThat(lister.namespace("red-team").list(LabelSelector.everything()))
          .extracting(w -> w.metadata().name() + " " + w.spec().size()).containsExactly("existing 5");
      assertThat(lister.namespace("blue-team").get("added")).map(w -> w.spec().color()).contains("blue");
      assertThat(lister.namespace("red-team").get("added")).isEmpty();

      // as the README: an object from the cache, its status written through the typed client
      Optional<Widget> cached = lister.namespace("red-team").get("existing");
      cached.ifPresent(w -> widgets.updateStatus(new Widget(w.apiVersion(), w.kind(), w.metadata(), w.spec(),
          new WidgetStatus(true))));
      assertThat(poll(seen)).isEqualTo("update existing size 5->5 ready");

      widgets.delete("blue-team", "added");
      assertThat(poll(seen)).isEqualTo("delete added");
      assertThat(lister.namespace("blue-team").list(LabelSelector.everything())).isEmpty();
      assertThat(lister.list(LabelSelector.everything())).extracting(w -> w.metadata().name())
          .containsExactly("existing");
    }
  }

  @Test
  void recordModel_keepsWhatTheServerAndOthersSet_acrossAReadModifyWrite() {
    // an owner that exists: the server's garbage collector deletes an object whose owners do not
    DynamicObject owner = client.dynamic(ResourceType.CONFIGMAPS).create(DynamicObject.parse(
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"owner\",\"namespace\":\"meta\"}}"));
    Widget created = widgets.create(Widget.of("meta", "owned", "green", 1).withMetadata(ObjectMeta.of("meta", "owned")
        .withLabels(Map.of("app", "shop"))
        .withFinalizers(List.of("example.com/cleanup"))
        .withOwnerReferences(List.of(new OwnerReference("v1", "ConfigMap", "owner",
            owner.toTree().at("/metadata/uid").asText(), true, null)))));
    assertThat(created.metadata().uid()).isNotEmpty();
    assertThat(created.metadata().resourceVersion()).isNotEmpty();
    assertThat(created.metadata().creationTimestamp()).isNotEmpty();
    assertThat(created.metadata().generation()).isEqualTo(1L);

    Widget updated = widgets.update(created.withSpec(new WidgetSpec("green", 2)));

    assertThat(updated.metadata().generation()).isEqualTo(2L);
    assertThat(updated.metadata().labels()).containsExactly(Map.entry("app", "shop"));
    assertThat(updated.metadata().finalizers()).containsExactly("example.com/cleanup");
    assertThat(updated.metadata().ownerReferences()).extracting(OwnerReference::name, OwnerReference::controller)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("owner", true));
    assertThat(updated.metadata().uid()).isEqualTo(created.metadata().uid());

    // the status subresource: the model's status written on its own
    Widget ready = widgets.updateStatus(new Widget(updated.apiVersion(), updated.kind(), updated.metadata(),
        updated.spec(), new WidgetStatus(true)));
    assertThat(ready.status().ready()).isTrue();
    assertThat(ready.metadata().generation()).isEqualTo(2L);

    // let the object go: drop the finalizer, then delete
    widgets.update(ready.withMetadata(ready.metadata().withFinalizers(null)));
    assertThat(widgets.delete("meta", "owned")).isTrue();
    assertThat(widgets.get("meta", "owned")).isEmpty();
  }

  private static String poll(BlockingQueue<String> queue) throws InterruptedException {
    String s = queue.poll(WAIT_SECONDS, TimeUnit.SECONDS);
    assertThat(s).as("a notification within " + WAIT_SECONDS + " s").isNotNull();
    return s;
  }
}
