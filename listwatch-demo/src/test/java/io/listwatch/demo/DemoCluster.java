package io.listwatch.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** What the demo's end-to-end tests read of the cluster through kubectl, and their bounded wait. */
final class DemoCluster {

  /** How long a test waits for the cluster to reach a state. */
  static final long AWAIT_SECONDS = 60;

  private DemoCluster() {
  }

  /** The names of the nodes whose Ready condition is True. */
  static List<String> readyNodes(KubectlRunner kubectl) {
    List<String> names = new ArrayList<>();
    for (JsonNode node : kubectl.json("get", "nodes").path("items")) {
      for (JsonNode c : node.path("status").path("conditions")) {
        if (c.path("type").asText().equals("Ready") && c.path("status").asText().equals("True")) {
          names.add(node.path("metadata").path("name").asText());
        }
      }
    }
    return names;
  }

  /** The {@code app=web} pods that run and are not being deleted (Terminating ones are left out). */
  static List<JsonNode> runningPods(KubectlRunner kubectl) {
    List<JsonNode> running = new ArrayList<>();
    for (JsonNode pod : kubectl.json("get", "pods", "-l", "app=web").path("items")) {
      if (pod.path("status").path("phase").asText().equals("Running")
          && pod.path("metadata").path("deletionTimestamp").isMissingNode()) {
        running.add(pod);
      }
    }
    return running;
  }

  /** Polls {@code value} until {@code done} holds, at most {@link #AWAIT_SECONDS}; returns the last value. */
  static <T> T await(String what, Supplier<T> value, Predicate<T> done) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(AWAIT_SECONDS);
    T last = value.get();
    while (!done.test(last) && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(200); // polling the cluster until it reaches the state awaited
      last = value.get();
    }
    assertThat(done.test(last)).as("%s within %d s; last seen: %s", what, AWAIT_SECONDS, last).isTrue();
    return last;
  }
}
