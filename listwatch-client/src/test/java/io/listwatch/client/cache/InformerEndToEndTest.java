package io.listwatch.client.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.LabelSelector;
import io.listwatch.client.Config;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** A factory's informer against the in-process API server, with {@link DynamicObject}s. */
@ExtendWith(ApiServerExtension.class)
@Timeout(60)
class InformerEndToEndTest {

  private KubeClient client;
  private ResourceClient<DynamicObject> configMaps;

  @BeforeEach
  void connect(ApiServer server) {
    client = KubeClient.create(Config.forUrl(server.url()));
    configMaps = client.dynamic(ResourceType.CONFIGMAPS);
    client.dynamic(ResourceType.NAMESPACES).create(DynamicObject.parse(
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"e2e\"}}"
            .getBytes()));
  }

  @AfterEach
  void disconnect() {
    client.close();
  }

  private static DynamicObject configMap(String name, String app) {
    return DynamicObject.parse(("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":"
        + "{\"name\":\"" + name + "\",\"namespace\":\"e2e\",\"labels\":{\"app\":\"" + app
        + "\"}}}").getBytes());
  }

  @Test
  void informer_followsTheServer_withinTheFactorysNamespaceAndSelector() throws Exception {
    configMaps.create(configMap("a", "web"));
    configMaps.create(configMap("other", "db"));
    BlockingQueue<String> events = new LinkedBlockingQueue<>();
    try (SharedInformerFactory factory = SharedInformerFactory.builder(client)
        .namespace("e2e")
        .tweakListOptions(o -> o.toBuilder().labelSelector(LabelSelector.parse("app=web")).build())
        .build()) {
      SharedIndexInformer<DynamicObject> informer =
          factory.informerFor(ResourceType.CONFIGMAPS, DynamicObject.CODEC);
      informer.addEventHandler(new ResourceEventHandler<>() {
        @Override
        public void onAdd(DynamicObject o, boolean initial) {
          events.add("add " + o.name() + (initial ? " initial" : ""));
        }

        @Override
        public void onUpdate(DynamicObject oldObject, DynamicObject newObject) {
          events.add("update " + newObject.name());
        }

        @Override
        public void onDelete(DynamicObject o, boolean unknown) {
          events.add("delete " + o.name());
        }
      });
      factory.start();
      assertThat(factory.waitForCacheSync(Duration.ofSeconds(30))).isTrue();
      assertThat(next(events)).isEqualTo("add a initial");

      configMaps.create(configMap("b", "web"));
      configMaps.mergePatch("e2e", "a", "{\"data\":{\"k\":\"v\"}}");
      configMaps.delete("e2e", "b");
      configMaps.create(configMap("ignored", "db"));
      List<String> seen = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        seen.add(next(events));
      }
      assertThat(seen).containsSubsequence("add b", "delete b").contains("update a");
      assertThat(informer.getStore().listKeys()).containsExactly("e2e/a");
      assertThat(informer.getIndexer().byIndex(Indexer.NAMESPACE_INDEX, "e2e"))
          .extracting(DynamicObject::name).containsExactly("a");
    }
  }

  private static String next(BlockingQueue<String> events) throws InterruptedException {
    String event = events.poll(30, TimeUnit.SECONDS);
    assertThat(event).as("an event within 30 s").isNotNull();
    return event;
  }
}
