package io.listwatch.controllers.scheduler;

import static io.listwatch.controllers.scheduler.Fixtures.node;
import static io.listwatch.controllers.scheduler.Fixtures.nodeInfo;
import static io.listwatch.controllers.scheduler.Fixtures.pod;
import static io.listwatch.controllers.scheduler.Fixtures.podInfo;
import static io.listwatch.controllers.scheduler.Fixtures.spec;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class NodeResourcesFitTest {

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("fits exactly", "1", "1Gi", List.of()),
        Arguments.of("no requests always fit", null, null, List.of()),
        Arguments.of("cpu short", "1001m", "1Gi", List.of("Insufficient cpu")),
        Arguments.of("memory short", "1", "1025Mi", List.of("Insufficient memory")),
        Arguments.of("both short, cpu first", "2", "2Gi", List.of("Insufficient cpu", "Insufficient memory")),
        Arguments.of("fractional cpu rounds up", "1.0001", null, List.of("Insufficient cpu")));
  }

  /** A node of 2 cpu and 2Gi with one pod requesting 1 cpu and 1Gi. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void filter_comparesRequestsWithWhatAllocatableLeaves(String name, String cpu, String memory, List<String> reasons) {
    var node = nodeInfo(node("n", "2", "2Gi", 10), podInfo(pod("existing", "1", "1Gi")));
    assertThat(new NodeResourcesFit().filter(podInfo(pod("p", cpu, memory)), node)).isEqualTo(reasons);
  }

  @Test
  void filter_tooManyPods_whenAllocatablePodsIsReached() {
    var full = nodeInfo(node("n", "8", "8Gi", 1), podInfo(pod("existing")));
    assertThat(new NodeResourcesFit().filter(podInfo(pod("p", "16", null)), full))
        .containsExactly("Too many pods", "Insufficient cpu");
  }

  @Test
  void podRequests_initContainersTakeTheMax_sidecarsAdd_overheadOnTop() {
    var pod = pod("p", "500m", "100Mi");
    spec(pod, "initContainers", "[{\"name\":\"i1\",\"resources\":{\"requests\":{\"cpu\":\"2\",\"memory\":\"50Mi\"}}},"
        + "{\"name\":\"side\",\"restartPolicy\":\"Always\",\"resources\":{\"requests\":{\"cpu\":\"100m\","
        + "\"memory\":\"10Mi\"}}},{\"name\":\"i2\",\"resources\":{\"requests\":{\"memory\":\"300Mi\"}}}]");
    spec(pod, "overhead", "{\"cpu\":\"10m\",\"memory\":\"1Mi\"}");
    // cpu: max(500m + 100m, 2000m, 100m) + 10m; memory: max(100Mi + 10Mi, 50Mi, 300Mi + 10Mi) + 1Mi
    assertThat(PodRequests.of(pod.get("spec")))
        .isEqualTo(new Resources(2010, 311L * 1024 * 1024));
  }

  @Test
  void podRequests_nonZero_defaultsMissingRequestsPerContainer() {
    var pod = pod("p", "250m", null);
    assertThat(PodRequests.nonZero(pod.get("spec"))).isEqualTo(new Resources(250, 200L * 1024 * 1024));
    assertThat(PodRequests.of(pod.get("spec"))).isEqualTo(new Resources(250, 0));
  }
}
