package io.listwatch.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.client.DeleteOptions;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.testing.Action;
import io.listwatch.client.testing.FakeClient;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class MirrorPodsTest {

  private final FakeClient client = FakeClient.create();
  private final ResourceClient<DynamicObject> pods = client.dynamic(ResourceType.PODS);
  private final MirrorPods mirrors = new MirrorPods(pods, "n1", () -> "node-uid");

  private static DynamicObject staticPod(String image) {
    ObjectNode pod = StaticPods.parse(("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"etcd\"},\"spec\":{\"containers\":"
        + "[{\"name\":\"etcd\",\"image\":\"" + image + "\"}]}}").getBytes(StandardCharsets.UTF_8)).get(0);
    return StaticPods.applyDefaults(pod, "/etc/manifests/etcd.yaml", true, "n1");
  }

  private DynamicObject mirror() {
    return pods.get("default", "etcd-n1").orElseThrow();
  }

  @Test
  void staticPod_getsAMirrorPod_withTheHash_ownedByTheNode() {
    DynamicObject pod = staticPod("etcd:3.5");
    mirrors.staticPod(pod);

    DynamicObject mirror = mirror();
    assertThat(mirror.annotations()).containsEntry(PodSources.CONFIG_MIRROR, pod.uid());
    assertThat(mirror.uid()).isNotEqualTo(pod.uid());
    assertThat(mirror.get("metadata", "ownerReferences").orElseThrow().get(0).path("kind").asText()).isEqualTo("Node");
    assertThat(MirrorPods.isMirror(mirror)).isTrue();
  }

  @Test
  void mirrorGone_whileTheStaticPodExists_isCreatedAgain() {
    mirrors.staticPod(staticPod("etcd:3.5"));
    DynamicObject first = mirror();
    mirrors.mirrorSeen(first);
    // gone at once, as after its grace period (a pod on a node is otherwise deleted gracefully)
    pods.delete("default", "etcd-n1", DeleteOptions.immediate(first.uid()));

    mirrors.mirrorGone(first);

    assertThat(mirror().uid()).isNotEqualTo(first.uid());
  }

  @Test
  void staticPodRemoved_deletesTheMirrorPod_andItIsNotRecreated() {
    DynamicObject pod = staticPod("etcd:3.5");
    mirrors.staticPod(pod);
    DynamicObject mirror = mirror();
    mirrors.mirrorSeen(mirror);

    mirrors.staticPodRemoved(pod);
    mirrors.mirrorGone(mirror);

    assertThat(pods.get("default", "etcd-n1")).isEmpty();
    assertThat(client.actionsFor(Action.CREATE, ResourceType.PODS)).hasSize(1);
  }

  @Test
  void mirrorOfAnOlderManifest_isReplaced_andOrphansGoOnlyWhenAsked() {
    mirrors.staticPod(staticPod("etcd:3.4"));
    DynamicObject old = mirror();
    DynamicObject edited = staticPod("etcd:3.5");
    mirrors.staticPod(edited);
    mirrors.mirrorSeen(old);

    assertThat(mirror().annotations()).containsEntry(PodSources.CONFIG_MIRROR, edited.uid());

    pods.create(DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"gone-n1\","
        + "\"namespace\":\"default\",\"annotations\":{\"kubernetes.io/config.mirror\":\"abc\"}},"
        + "\"spec\":{\"nodeName\":\"n1\",\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}"));
    mirrors.mirrorSeen(pods.get("default", "gone-n1").orElseThrow());
    assertThat(pods.get("default", "gone-n1")).isPresent();
    mirrors.removeOrphans();
    assertThat(pods.get("default", "gone-n1")).isEmpty();
    assertThat(pods.get("default", "etcd-n1")).isPresent();
  }
}
