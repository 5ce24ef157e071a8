package io.listwatch.bench.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.cache.ResourceEventHandler;
import io.listwatch.client.cache.SharedIndexInformer;
import io.listwatch.client.cache.SharedInformerFactory;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What {@code bench demo-scale} watches to know how far the cluster has got: informers on the
 * pods, deployments and events of one namespace (the benchmark's own client, in its own JVM),
 * read by {@link #snapshot}. Events are counted as they arrive: every new Event adds its
 * {@code count}, every update adds the growth of {@code count} (client-go's recorder aggregates
 * repeats into one object with a growing count).
 *
 * <p>Thread-safe: the informers' handlers update atomics; {@link #snapshot} reads the informer
 * stores, which are thread-safe.
 */
final class ClusterProgress implements AutoCloseable {

  /** Counts at one moment. */
  record Snapshot(int pods, int bound, int runningWithImage, int terminating, int deploymentsComplete,
      long eventObjects, long eventCount) {
  }

  private final SharedInformerFactory factory;
  private final SharedIndexInformer<DynamicObject> pods;
  private final SharedIndexInformer<DynamicObject> deployments;
  private final AtomicLong eventObjects = new AtomicLong();
  private final AtomicLong eventCount = new AtomicLong();

  ClusterProgress(KubeClient client, String namespace) {
    factory = SharedInformerFactory.builder(client).namespace(namespace).build();
    pods = factory.informerFor(ResourceType.PODS, DynamicObject.CODEC);
    deployments = factory.informerFor(ResourceType.DEPLOYMENTS, DynamicObject.CODEC);
    SharedIndexInformer<DynamicObject> events = factory.informerFor(ResourceType.EVENTS, DynamicObject.CODEC);
    events.addEventHandler(new ResourceEventHandler<>() {
      @Override
      public void onAdd(DynamicObject e, boolean isInInitialList) {
        eventObjects.incrementAndGet();
        eventCount.addAndGet(count(e));
      }

      @Override
      public void onUpdate(DynamicObject before, DynamicObject after) {
        eventCount.addAndGet(Math.max(0, count(after) - count(before)));
      }
    });
  }

  void start(Duration timeout) throws InterruptedException {
    factory.start();
    if (!factory.waitForCacheSync(timeout)) {
      throw new IllegalStateException("the benchmark's informers did not sync within " + timeout);
    }
  }

  private static long count(DynamicObject event) {
    return event.get("count").map(JsonNode::asLong).filter(c -> c > 0).orElse(1L);
  }

  /** The counts now; {@code image} is the image of the pods to count as running. */
  Snapshot snapshot(String image) {
    int all = 0;
    int bound = 0;
    int running = 0;
    int terminating = 0;
    for (DynamicObject p : pods.getStore().list()) {
      all++;
      if (p.get("metadata", "deletionTimestamp").isPresent()) {
        terminating++;
        continue;
      }
      if (p.get("spec", "nodeName").map(JsonNode::asText).filter(s -> !s.isEmpty()).isPresent()) {
        bound++;
      }
      if (isRunningAndReady(p) && image.equals(p.get("spec", "containers").map(c -> c.path(0).path("image").asText())
          .orElse(""))) {
        running++;
      }
    }
    int complete = 0;
    for (DynamicObject d : deployments.getStore().list()) {
      if (rolledOut(d)) {
        complete++;
      }
    }
    return new Snapshot(all, bound, running, terminating, complete, eventObjects.get(), eventCount.get());
  }

  /** The pods the informer holds: name to resourceVersion. */
  Map<String, String> podVersions() {
    return versions(pods);
  }

  /** The deployments the informer holds: name to resourceVersion. */
  Map<String, String> deploymentVersions() {
    return versions(deployments);
  }

  private static Map<String, String> versions(SharedIndexInformer<DynamicObject> informer) {
    Map<String, String> versions = new HashMap<>();
    for (DynamicObject o : informer.getStore().list()) {
      versions.put(o.name(), o.resourceVersion());
    }
    return versions;
  }

  private static boolean isRunningAndReady(DynamicObject pod) {
    return "Running".equals(pod.get("status", "phase").map(JsonNode::asText).orElse("")) && isReady(pod);
  }

  /** The object's (a pod's or a node's) {@code Ready} condition is True. */
  static boolean isReady(DynamicObject object) {
    for (JsonNode c : object.get("status", "conditions").orElse(MissingNode.getInstance())) {
      if ("Ready".equals(c.path("type").asText())) {
        return "True".equals(c.path("status").asText());
      }
    }
    return false;
  }

  /**
   * {@code kubectl rollout status}'s test: the controller has seen the latest spec, every
   * replica is updated, no old replica is left, and every updated replica is available.
   */
  static boolean rolledOut(DynamicObject d) {
    long generation = d.get("metadata", "generation").map(JsonNode::asLong).orElse(0L);
    long observed = d.get("status", "observedGeneration").map(JsonNode::asLong).orElse(-1L);
    long wanted = d.get("spec", "replicas").map(JsonNode::asLong).orElse(1L);
    long updated = d.get("status", "updatedReplicas").map(JsonNode::asLong).orElse(0L);
    long replicas = d.get("status", "replicas").map(JsonNode::asLong).orElse(0L);
    long available = d.get("status", "availableReplicas").map(JsonNode::asLong).orElse(0L);
    return observed >= generation && updated == wanted && replicas == updated && available == updated;
  }

  @Override
  public void close() {
    factory.close();
  }
}
