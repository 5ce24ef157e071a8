package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import org.junit.jupiter.api.Test;

/**
 * {@code kubectl debug} 1.32 (from PATH) against the server, without {@code -it}: it reads the
 * pod and adds an ephemeral container with a strategic merge patch of the pod's
 * {@code ephemeralcontainers} subresource, as against kube-apiserver. The container gets kube's
 * defaults, the rest of the pod stays, and a container kube refuses is refused with kube's
 * message.
 */
@EndToEnd
class KubectlDebugTest extends KubectlAgainstServer {

  private static final String NS = "v-debug";

  private String jsonpath(String pod, String path) {
    return kubectl.ok("get", "pod", pod, "-n", NS, "-o", "jsonpath=" + path).stdout();
  }

  @Test
  void debug_addsEphemeralContainers_andKeepsTheRestOfThePod() {
    kubectl.ok("create", "namespace", NS);
    kubectl.ok("run", "p", "--image=nginx:1.27", "--labels=app=web", "-n", NS);
    kubectl.ok("debug", "pod/p", "--image=busybox:1.36", "--container=dbg", "--profile=general", "-n", NS);
    assertThat(jsonpath("p", "{.spec.ephemeralContainers[0].name} {.spec.ephemeralContainers[0].image} "
        + "{.spec.ephemeralContainers[0].terminationMessagePath} {.spec.ephemeralContainers[0].imagePullPolicy} "
        + "{.spec.containers[0].image} {.metadata.labels.app} {.status.phase}"))
        .isEqualTo("dbg busybox:1.36 /dev/termination-log IfNotPresent nginx:1.27 web Pending");

    Kubectl.Result second = kubectl.ok("debug", "pod/p", "--image=busybox", "--profile=general", "-n", NS);
    assertThat(second.stderr() + second.stdout()).contains("Defaulting debug container name to debugger-");
    assertThat(jsonpath("p", "{.spec.ephemeralContainers[*].name}")).startsWith("dbg debugger-");

    assertThat(kubectl.ok("get", "--raw", "/api/v1/namespaces/" + NS + "/pods/p/ephemeralcontainers").stdout())
        .contains("\"kind\":\"Pod\"").contains("\"name\":\"dbg\"");
  }

  @Test
  void aContainerKubeRefuses_isRefused_withKubesMessage() {
    kubectl.ok("create", "namespace", NS + "-bad");
    kubectl.ok("run", "q", "--image=nginx:1.27", "-n", NS + "-bad");
    Kubectl.Result r = kubectl.run("debug", "pod/q", "--image=busybox", "--container=q", "--profile=general",
        "-n", NS + "-bad");
    assertThat(r.exitCode()).as(r.toString()).isNotZero();
    assertThat(r.stderr()).contains("Pod \"q\" is invalid: spec.ephemeralContainers[0].name: Duplicate value: \"q\"");
    assertThat(kubectl.ok("get", "pod", "q", "-n", NS + "-bad", "-o", "jsonpath={.spec.ephemeralContainers}").stdout())
        .isBlank();
  }
}
