package io.listwatch.client.e2e;

import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.KubeClient;
import io.listwatch.testsupport.Await;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/** Makes pods and namespaces for end-to-end tests. */
final class Pods {

  private Pods() {}

  static DynamicObject namespace(String name) {
    return DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
        + name + "\"}}");
  }

  /**
   * A pod of about 1 KB, labelled {@code app=web} and {@code gen=0}, on a node. Its
   * {@code terminationGracePeriodSeconds} is 0, so a DELETE removes it at once (a pod on a node
   * otherwise stays for its grace period, 30 s by default, as in kube).
   */
  static DynamicObject pod(String namespace, String name) {
    return DynamicObject.parse("""
        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","namespace":"%s",
         "labels":{"app":"web","gen":"0","tier":"backend"},
         "annotations":{"example.com/owner":"team-a","example.com/purpose":"end-to-end test of the informer machinery"}},
         "spec":{"nodeName":"node-%d","restartPolicy":"Always","terminationGracePeriodSeconds":0,"containers":[{"name":"main",
           "image":"registry.example.com/app/web:1.2.3","args":["--port=8080","--verbose"],
           "ports":[{"containerPort":8080,"protocol":"TCP"}],
           "resources":{"requests":{"cpu":"100m","memory":"128Mi"},"limits":{"cpu":"500m","memory":"256Mi"}},
           "env":[{"name":"MODE","value":"production"},{"name":"REGION","value":"eu-west-1"}]}]},
         "status":{"phase":"Running","podIP":"10.0.0.1","hostIP":"192.168.0.1"}}
        """.formatted(name, namespace, Math.floorMod(name.hashCode(), 16)));
  }

  /** Creates {@code count} pods {@code prefix-0 ..} in {@code namespace}, 32 requests at a time. */
  /**
   * Waits (bounded) until a list at resourceVersion "0", which the server answers from its
   * watch cache and may answer a little behind the latest write, shows {@code count} pods in
   * {@code namespace}: an informer started after that lists them all in its initial list.
   */
  static void awaitCached(KubeClient client, String namespace, int count) {
    ResourceClient<DynamicObject> pods = client.dynamic(ResourceType.PODS);
    io.listwatch.api.ListOptions any = io.listwatch.api.ListOptions.builder().resourceVersion("0").build();
    Await.until("the watch cache shows " + count + " pods in " + namespace, java.time.Duration.ofSeconds(30),
        () -> pods.list(namespace, any).items().size(), cached -> cached >= count);
  }

  static void createMany(KubeClient client, String namespace, String prefix, int count)
      throws Exception {
    ResourceClient<DynamicObject> pods = client.dynamic(ResourceType.PODS);
    Semaphore inFlight = new Semaphore(32);
    List<Future<?>> done = new ArrayList<>(count);
    try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < count; i++) {
        String name = prefix + "-" + i;
        inFlight.acquire();
        done.add(pool.submit(() -> {
          try {
            pods.create(pod(namespace, name));
          } finally {
            inFlight.release();
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    }
  }
}
