package io.listwatch.demo;

import static io.listwatch.demo.DemoCluster.AWAIT;
import static io.listwatch.demo.DemoCluster.json;
import static io.listwatch.demo.DemoCluster.readyNodes;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.controllers.manager.ControllerSet;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the demo's node agents do beyond running a deployment's pods, seen with the real
 * {@code kubectl}: static pods from a node's manifest directory, CrashLoopBackOff, and a pod
 * status overwritten through the API written back. The agents re-read their manifest
 * directory every second (the kubelet: 20 s) besides reading it on every change, and back off
 * from 1 s to 4 s (the kubelet: 10 s to 5 min).
 */
@EndToEnd
class DemoNodeAgentTest {

  private static final String MIRROR_ANNOTATION = "kubernetes.io/config.mirror";

  @TempDir
  static Path dir;
  private static Demo demo;
  private static Kubectl kubectl;

  @BeforeAll
  static void startDemo() throws Exception {
    assertThat(Kubectl.binary()).as("kubectl on PATH").isPresent();
    demo = Demo.start(0, null, dir.resolve("kubeconfig.yaml"), 2, ControllerSet.defaults(),
        DemoCommand.nodeAgents(b -> b.manifestCheckPeriod(Duration.ofSeconds(1))
            .crashLoopBackOff(Duration.ofSeconds(1), Duration.ofSeconds(4))));
    kubectl = DemoCluster.kubectl(demo.kubeconfig(), dir);
    Await.until("2 Ready nodes", AWAIT, () -> readyNodes(kubectl), n -> n.size() == 2);
  }

  @AfterAll
  static void stopDemo() {
    if (demo != null) {
      demo.close();
    }
  }

  @Test
  void manifestDroppedInNode2sDir_runsAsMirrorPod_isRecreatedWhenDeleted_andGoesWithTheFile() throws Exception {
    Path manifests = demo.manifestDir("node-2");
    assertThat(manifests).isDirectory().isEqualTo(demo.manifestDir("node-2").toAbsolutePath());
    Path manifest = manifests.resolve("static-web.yaml");
    // written aside and moved in, as a user's editor or `mv` would, so the agent never reads half a file
    // the manifest the README suggests: kubectl's own dry run
    String yaml = kubectl.ok("run", "static-web", "--image=nginx", "--labels=app=static-web", "--dry-run=client",
        "-o", "yaml").stdout();
    Path draft = Files.writeString(dir.resolve("static-web.yaml"), yaml);
    Files.move(draft, manifest, StandardCopyOption.ATOMIC_MOVE);

    JsonNode mirror = Await.until("mirror pod static-web-node-2 Running", AWAIT, () -> pod("static-web-node-2"),
        p -> p.path("status").path("phase").asText().equals("Running"));
    assertThat(mirror.path("spec").path("nodeName").asText()).isEqualTo("node-2");
    assertThat(mirror.path("metadata").path("annotations").path(MIRROR_ANNOTATION).asText()).isNotEmpty();
    assertThat(mirror.path("metadata").path("ownerReferences").path(0).path("kind").asText()).isEqualTo("Node");
    String table = kubectl.ok("get", "pods", "-o", "wide", "--no-headers").stdout();
    assertThat(table.lines().filter(l -> l.startsWith("static-web-node-2 ")))
        .singleElement().satisfies(l -> assertThat(l).contains("Running").contains("node-2"));

    // --wait=false: kubectl waits for a pod of that name to go, and the agent may recreate the
    // mirror pod before kubectl starts watching, which it then waits for forever
    kubectl.ok("delete", "pod", "static-web-node-2", "--wait=false");
    String firstUid = mirror.path("metadata").path("uid").asText();
    JsonNode recreated = Await.until("mirror pod created again and Running", AWAIT, () -> pod("static-web-node-2"),
        p -> !p.path("metadata").path("uid").asText(firstUid).equals(firstUid)
            && p.path("status").path("phase").asText().equals("Running"));
    assertThat(recreated.path("metadata").path("annotations").path(MIRROR_ANNOTATION).asText())
        .isEqualTo(mirror.path("metadata").path("annotations").path(MIRROR_ANNOTATION).asText());

    Files.delete(manifest);
    Await.until("mirror pod gone", AWAIT, () -> kubectl.run("get", "pod", "static-web-node-2").stderr(),
        err -> err.contains("NotFound"));
    assertThat(json(kubectl, "get", "pods", "-l", "app=static-web").path("items")).isEmpty();
  }

  @Test
  void podWhoseContainerFails_showsCrashLoopBackOffWithRestartsCounting_andRunsOnceHealed() throws Exception {
    kubectl.ok("run", "crash", "--image=busybox", "--annotations=listwatch.io/simulate=fail");

    String row = Await.until("kubectl get pod crash: CrashLoopBackOff, restarted twice or more", AWAIT,
        () -> kubectl.ok("get", "pod", "crash", "--no-headers").stdout(),
        r -> r.contains("CrashLoopBackOff") && restarts(r) >= 2);
    assertThat(row).contains("0/1");
    JsonNode container = pod("crash").path("status").path("containerStatuses").path(0);
    assertThat(container.path("state").path("waiting").path("message").asText())
        .matches("back-off \\d+s restarting failed container=crash pod=crash_default\\(.+\\)");
    assertThat(container.path("lastState").path("terminated").path("exitCode").asInt()).isEqualTo(1);

    kubectl.ok("annotate", "pod", "crash", "listwatch.io/simulate-");
    JsonNode healed = Await.until("crash Running and Ready", AWAIT, () -> pod("crash"),
        p -> p.path("status").path("containerStatuses").path(0).path("ready").asBoolean(false));
    assertThat(healed.path("status").path("containerStatuses").path(0).path("restartCount").asInt())
        .isGreaterThanOrEqualTo(restarts(row));
    assertThat(kubectl.ok("get", "pod", "crash", "--no-headers").stdout()).contains("1/1").contains("Running");
    kubectl.ok("delete", "pod", "crash", "--grace-period=1");
  }

  @Test
  void podStatusOverwrittenWithKubectl_isWrittenBackByTheNodeAgent() throws Exception {
    kubectl.ok("run", "steady", "--image=nginx");
    JsonNode running = Await.until("steady Running", AWAIT, () -> pod("steady"),
        p -> p.path("status").path("phase").asText().equals("Running"));

    JsonNode patched = json(kubectl, "patch", "pod", "steady", "--subresource=status", "--type=merge",
        "-p", "{\"status\":{\"phase\":\"Pending\"}}");
    assertThat(patched.path("status").path("phase").asText()).isEqualTo("Pending");

    JsonNode restored = Await.until("steady Running again", AWAIT, () -> pod("steady"),
        p -> p.path("status").path("phase").asText().equals("Running"));
    assertThat(restored.path("status").path("podIP").asText()).isEqualTo(running.path("status").path("podIP").asText());
    kubectl.ok("delete", "pod", "steady", "--grace-period=1");
  }

  /** The RESTARTS count of a {@code kubectl get pod --no-headers} row ("2 (3s ago)" is 2). */
  private static int restarts(String row) {
    String[] cells = row.trim().split("\\s+");
    return Integer.parseInt(cells[3]);
  }

  /** The pod {@code name} as {@code kubectl get pod -o json} shows it; a missing node when there is none. */
  private static JsonNode pod(String name) {
    Kubectl.Result r = kubectl.run("get", "pod", name, "-o", "json");
    if (r.exitCode() != 0) {
      return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }
    try {
      return new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.stdout());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
