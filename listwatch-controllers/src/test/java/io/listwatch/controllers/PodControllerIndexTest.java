package io.listwatch.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceType;
import io.listwatch.client.cache.SharedIndexInformer;
import io.listwatch.client.cache.SharedInformerFactory;
import io.listwatch.client.testing.FakeClient;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PodControllerIndexTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static ObjectNode pod(String namespace, String name, String controllerUid) throws Exception {
    ObjectNode pod = (ObjectNode) JSON.readTree("""
        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","namespace":"%s"},
         "spec":{"containers":[{"name":"c","image":"nginx"}]}}""".formatted(name, namespace));
    if (controllerUid != null) {
      ((ObjectNode) pod.path("metadata")).putArray("ownerReferences").addObject()
          .put("apiVersion", "apps/v1").put("kind", "ReplicaSet").put("name", "rs").put("uid", controllerUid)
          .put("controller", true);
    }
    return pod;
  }

  @Test
  void podsOf_givesTheOwnersPodsInItsNamespace_andThatNamespacesOrphansWhenAsked() throws Exception {
    FakeClient client = FakeClient.create();
    client.server().add(ResourceType.PODS, pod("shop", "a-1", "uid-a"));
    client.server().add(ResourceType.PODS, pod("shop", "a-2", "uid-a"));
    client.server().add(ResourceType.PODS, pod("shop", "b-1", "uid-b"));
    client.server().add(ResourceType.PODS, pod("shop", "orphan", null));
    client.server().add(ResourceType.PODS, pod("other", "orphan", null));
    try (SharedInformerFactory factory = SharedInformerFactory.builder(client).build()) {
      SharedIndexInformer<DynamicObject> pods = factory.informerFor(ResourceType.PODS, DynamicObject.CODEC);
      PodControllerIndex.addTo(pods);
      PodControllerIndex.addTo(pods); // a second controller over the same informer
      factory.start();
      assertThat(factory.waitForCacheSync(Duration.ofSeconds(10))).isTrue();

      assertThat(PodControllerIndex.podsOf(pods.getIndexer(), "shop", "uid-a", false))
          .extracting(DynamicObject::name).containsExactlyInAnyOrder("a-1", "a-2");
      assertThat(PodControllerIndex.podsOf(pods.getIndexer(), "shop", "uid-a", true))
          .extracting(DynamicObject::name).containsExactlyInAnyOrder("a-1", "a-2", "orphan");
      assertThat(PodControllerIndex.podsOf(pods.getIndexer(), "other", "uid-a", true))
          .extracting(p -> p.namespace() + "/" + p.name()).containsExactly("other/orphan");

      client.dynamic(ResourceType.PODS).delete("shop", "a-1");
      client.dynamic(ResourceType.PODS).create(DynamicObject.of(pod("shop", "a-3", "uid-a")));
      java.util.List<String> names = Await.until("the index holds a-2 and a-3", Duration.ofSeconds(10),
          () -> PodControllerIndex.podsOf(pods.getIndexer(), "shop", "uid-a", false).stream()
              .map(DynamicObject::name).sorted().toList(),
          n -> n.equals(java.util.List.of("a-2", "a-3")));
      assertThat(names).as("the index follows deletes and creates").containsExactly("a-2", "a-3");
    }
  }
}
