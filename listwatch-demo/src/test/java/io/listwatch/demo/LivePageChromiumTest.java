package io.listwatch.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.client.Config;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.server.ApiServer;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live page in headless Chromium against the in-process server (plain HTTP, as the demo
 * runs it): nodes are boxes with their pods inside, coloured by phase, and the page follows
 * the watch stream as pods are added, change phase and go away. Needs Debian's
 * {@code chromium} on PATH ({@code ./listwatch test} installs it when run as root).
 * Screenshots go to {@code target/live-page-*.png}.
 */
@EndToEnd
class LivePageChromiumTest {

  private static ApiServer server;
  private static KubeClient client;

  @BeforeAll
  static void start() {
    server = ApiServer.builder().port(0).ui(true).build().start();
    client = KubeClient.create(Config.forUrl(server.url()));
  }

  @AfterAll
  static void stop() {
    client.close();
    server.close();
  }

  @Test
  void page_drawsNodesWithTheirPods_andFollowsAScaleUpLive(@TempDir Path profile) throws Exception {
    Path chromium = Chromium.binary();
    assertThat(chromium).as("chromium on PATH (Debian package 'chromium'; ./listwatch test installs it as root)")
        .isNotNull();
    ResourceClient<DynamicObject> nodes = client.dynamic(ResourceType.NODES);
    ResourceClient<DynamicObject> pods = client.dynamic(ResourceType.PODS);
    for (String n : List.of("node-1", "node-2")) {
      DynamicObject node = nodes.create(DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"" + n + "\"}}"));
      nodes.updateStatus(withStatus(node, "{\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}"));
    }
    runPod(pods, "web-1", "node-1", "Running");
    runPod(pods, "web-2", "node-2", "Running");
    runPod(pods, "web-3", "node-1", "Pending");

    try (Chromium browser = Chromium.open(chromium, server.url() + "/ui/", profile)) {
      awaitPods(browser, "[\"node-1|default/web-1|running\",\"node-1|default/web-3|pending\","
          + "\"node-2|default/web-2|running\"]");
      assertThat(browser.evaluate("document.querySelectorAll('.node.ready').length").asInt()).isEqualTo(2);

      // a deployment's rollout state: replicas, updated, ready, available; rolling until all are ready
      ResourceClient<DynamicObject> deployments = client.dynamic(ResourceType.DEPLOYMENTS);
      DynamicObject web = deployments.create(DynamicObject.parse("{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\","
          + "\"metadata\":{\"name\":\"web\",\"namespace\":\"default\"},\"spec\":{\"replicas\":3,"
          + "\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},"
          + "\"spec\":{\"containers\":[{\"name\":\"nginx\",\"image\":\"nginx\"}]}}}}"));
      deployments.updateStatus(withStatus(web, "{\"replicas\":3,\"updatedReplicas\":3,\"readyReplicas\":2,\"availableReplicas\":2}"));
      awaitValue(browser, "[...document.querySelectorAll('[data-deployment]')].map(r => r.className + ':' + "
          + "[...r.cells].map(c => c.textContent).join(' ')).join(',')", "rolling:default web 3 3 2 2");
      browser.screenshot(Path.of("target", "live-page-before.png"));

      // scale up: three more pods, one not scheduled yet; a bound pod deleted turns Terminating
      // (its node would end it after the grace period)
      runPod(pods, "web-4", "node-2", "Running");
      runPod(pods, "web-5", "node-1", "Running");
      pods.create(pod("web-6", null));
      pods.delete("default", "web-3");
      awaitPods(browser, "[\"-|default/web-6|pending\",\"node-1|default/web-1|running\",\"node-1|default/web-3|terminating\","
          + "\"node-1|default/web-5|running\",\"node-2|default/web-2|running\",\"node-2|default/web-4|running\"]");
      Path shot = Path.of("target", "live-page-after.png");
      browser.screenshot(shot);
      assertThat(Files.size(shot)).isGreaterThan(1000);
      assertThat(browser.evaluate("document.getElementById('status').dataset.state").asText()).isEqualTo("live");

      // a pod no node runs is deleted at once: gone from the page
      pods.delete("default", "web-6");
      awaitPods(browser, "[\"node-1|default/web-1|running\",\"node-1|default/web-3|terminating\","
          + "\"node-1|default/web-5|running\",\"node-2|default/web-2|running\",\"node-2|default/web-4|running\"]");
      assertThat(browser.evaluate("document.querySelectorAll('.node.unscheduled').length").asInt()).isZero();
    }
  }

  /** Waits until the page shows exactly {@code expected}: node|pod|phase, sorted, as JSON. */
  private static void awaitPods(Chromium browser, String expected) throws Exception {
    awaitValue(browser, "JSON.stringify([...document.querySelectorAll('[data-pod]')].map(e => "
        + "(e.closest('.node').dataset.node || '-') + '|' + e.dataset.pod + '|' + e.dataset.phase).sort())", expected);
  }

  /** Waits until {@code expr}, evaluated in the page, gives {@code expected}. */
  private static void awaitValue(Chromium browser, String expr, String expected) {
    String shown = Await.until("the page shows " + expected, Duration.ofSeconds(30),
        () -> browser.evaluate(expr).asText(), expected::equals);
    assertThat(shown).isEqualTo(expected);
  }

  private static void runPod(ResourceClient<DynamicObject> pods, String name, String node, String phase) {
    DynamicObject created = pods.create(pod(name, node));
    pods.updateStatus(withStatus(created, "{\"phase\":\"" + phase + "\"}"));
  }

  private static DynamicObject pod(String name, String node) {
    return DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name
        + "\",\"namespace\":\"default\",\"labels\":{\"app\":\"web\"}},\"spec\":{"
        + (node != null ? "\"nodeName\":\"" + node + "\"," : "")
        + "\"containers\":[{\"name\":\"nginx\",\"image\":\"nginx\"}]}}");
  }

  private static DynamicObject withStatus(DynamicObject o, String statusJson) {
    var tree = o.toTree();
    try {
      tree.set("status", new com.fasterxml.jackson.databind.ObjectMapper().readTree(statusJson));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return DynamicObject.of(tree);
  }
}
