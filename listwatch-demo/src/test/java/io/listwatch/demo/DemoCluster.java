package io.listwatch.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.testsupport.Kubectl;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** What the demo's end-to-end tests read of the cluster through kubectl, and how long they wait for it. */
final class DemoCluster {

  /** How long a test waits for the cluster to reach a state. */
  static final Duration AWAIT = Duration.ofSeconds(60);

  private static final ObjectMapper JSON = new ObjectMapper();

  private DemoCluster() {
  }

  /**
   * kubectl from PATH with {@code kubeconfig}: each command bounded by 90 s (a
   * {@code rollout status --timeout=60s} fits), each request by 30 s (the demo's server is busy).
   */
  static Kubectl kubectl(Path kubeconfig, Path workDir) {
    return Kubectl.withKubeconfig(kubeconfig, workDir).withTimeouts(Duration.ofSeconds(90), Duration.ofSeconds(30));
  }

  /** Runs {@code kubectl args... -o json}, asserting that it exits 0, and returns the parsed output. */
  static JsonNode json(Kubectl kubectl, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("-o");
    all.add("json");
    try {
      return JSON.readTree(kubectl.ok(all.toArray(String[]::new)).stdout());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The names of the nodes whose Ready condition is True and that the scheduler may use: without
   * the not-ready taint every new Node has (TaintNodesByCondition) until the node lifecycle
   * controller sees it Ready.
   */
  static List<String> readyNodes(Kubectl kubectl) {
    List<String> names = new ArrayList<>();
    for (JsonNode node : json(kubectl, "get", "nodes").path("items")) {
      boolean notReadyTaint = false;
      for (JsonNode t : node.path("spec").path("taints")) {
        notReadyTaint |= t.path("key").asText().equals("node.kubernetes.io/not-ready");
      }
      for (JsonNode c : node.path("status").path("conditions")) {
        if (c.path("type").asText().equals("Ready") && c.path("status").asText().equals("True") && !notReadyTaint) {
          names.add(node.path("metadata").path("name").asText());
        }
      }
    }
    return names;
  }

  /** The {@code app=web} pods that run and are not being deleted (Terminating ones are left out). */
  static List<JsonNode> runningPods(Kubectl kubectl) {
    List<JsonNode> running = new ArrayList<>();
    for (JsonNode pod : json(kubectl, "get", "pods", "-l", "app=web").path("items")) {
      if (pod.path("status").path("phase").asText().equals("Running")
          && pod.path("metadata").path("deletionTimestamp").isMissingNode()) {
        running.add(pod);
      }
    }
    return running;
  }
}
