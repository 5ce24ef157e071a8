package io.listwatch.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.client.DynamicObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSourceTest {

  static final String NGINX = """
      apiVersion: v1
      kind: Pod
      metadata:
        name: web
        labels: {app: web}
      spec:
        containers:
        - name: nginx
          image: nginx
      """;

  @TempDir
  Path dir;

  private final BlockingQueue<PodUpdate> sets = new LinkedBlockingQueue<>();

  @Test
  void read_sendsASetOfStaticPods_namedAfterTheNode_withKubesAnnotations() throws Exception {
    Files.writeString(dir.resolve("web.yaml"), NGINX);
    Files.writeString(dir.resolve(".hidden.yaml"), NGINX.replace("web", "hidden"));
    Files.writeString(dir.resolve("broken.yaml"), "kind: [");

    new FileSource(dir, "Node-1", sets::add, Duration.ofMinutes(1)).read();

    PodUpdate set = sets.take();
    assertThat(set.op()).isEqualTo(PodOperation.SET);
    assertThat(set.source()).isEqualTo(PodSources.FILE);
    assertThat(set.podNames()).containsExactly("default/web-node-1");
    DynamicObject pod = set.pods().get(0);
    assertThat(pod.uid()).hasSize(32);
    assertThat(pod.annotations()).containsEntry(PodSources.CONFIG_HASH, pod.uid());
    assertThat(pod.get("spec", "nodeName").orElseThrow().asText()).isEqualTo("Node-1");
    assertThat(pod.get("spec", "tolerations").orElseThrow().toString())
        .contains("\"operator\":\"Exists\"", "\"effect\":\"NoExecute\"");
    assertThat(pod.labels()).containsEntry("app", "web");
  }

  @Test
  void editedManifest_isANewPod_sameManifest_theSameOne() throws Exception {
    Path f = dir.resolve("web.yaml");
    Files.writeString(f, NGINX);
    FileSource source = new FileSource(dir, "n1", sets::add, Duration.ofMinutes(1));
    source.read();
    source.read();
    Files.writeString(f, NGINX.replace("image: nginx", "image: nginx:2"));
    source.read();

    List<String> uids = sets.stream().map(s -> s.pods().get(0).uid()).toList();
    assertThat(uids.get(0)).isEqualTo(uids.get(1));
    assertThat(uids.get(2)).isNotEqualTo(uids.get(0));
  }

  @Test
  void start_readsAgain_whenAFileIsAddedOrRemoved() throws Exception {
    try (FileSource source = new FileSource(dir, "n1", sets::add, Duration.ofMinutes(1))) {
      source.start();
      assertThat(sets.poll(10, TimeUnit.SECONDS).pods()).isEmpty();

      Files.writeString(dir.resolve("web.yaml"), NGINX);
      assertThat(awaitSet(1).podNames()).containsExactly("default/web-n1");

      Files.delete(dir.resolve("web.yaml"));
      assertThat(awaitSet(0).pods()).isEmpty();
    }
  }

  /** The first SET with {@code count} pods, within a bound. */
  private PodUpdate awaitSet(int count) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      PodUpdate u = sets.poll(1, TimeUnit.SECONDS);
      if (u != null && u.pods().size() == count) {
        return u;
      }
    }
    throw new AssertionError("no SET with " + count + " pods");
  }
}
