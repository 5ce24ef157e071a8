package io.listwatch.nodeagent;

import static io.listwatch.nodeagent.PodOperation.ADD;
import static io.listwatch.nodeagent.PodOperation.DELETE;
import static io.listwatch.nodeagent.PodOperation.RECONCILE;
import static io.listwatch.nodeagent.PodOperation.REMOVE;
import static io.listwatch.nodeagent.PodOperation.SET;
import static io.listwatch.nodeagent.PodOperation.UPDATE;
import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.clock.FakeClock;
import io.listwatch.client.DynamicObject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The kubelet's config_test.go cases, in the incremental notification mode the kubelet uses. */
class PodConfigTest {

  private final FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final List<PodUpdate> out = new ArrayList<>();
  private final PodConfig config = new PodConfig(out::add, clock);

  static DynamicObject pod(String uid, String name, String extra) {
    return DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"uid\":\"" + uid
        + "\",\"name\":\"" + name + "\",\"namespace\":\"ns\"" + extra + "},"
        + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}");
  }

  static DynamicObject pod(String uid, String name) {
    return pod(uid, name, "");
  }

  static DynamicObject withImage(DynamicObject pod, String image) {
    var tree = pod.toTree();
    ((com.fasterxml.jackson.databind.node.ObjectNode) tree.path("spec").path("containers").get(0))
        .put("image", image);
    return DynamicObject.of(tree);
  }

  static DynamicObject withStatus(DynamicObject pod, String phase) {
    var tree = pod.toTree();
    tree.putObject("status").put("phase", phase);
    return DynamicObject.of(tree);
  }

  /** One step: a source sends an update. */
  record Send(String source, PodOperation op, List<DynamicObject> pods) {
    static Send of(String source, PodOperation op, DynamicObject... pods) {
      return new Send(source, op, List.of(pods));
    }
  }

  static Stream<Arguments> cases() {
    DynamicObject foo = pod("1", "foo");
    DynamicObject bar = pod("2", "bar");
    DynamicObject baz = pod("3", "baz");
    return Stream.of(
        Arguments.of("newPodAdded", List.of(Send.of("api", ADD, foo)),
            List.of("ADD api [ns/foo]")),
        Arguments.of("samePodAddedTwice_isNoUpdate", List.of(Send.of("api", ADD, foo), Send.of("api", ADD, foo)),
            List.of("ADD api [ns/foo]")),
        Arguments.of("duplicateNameInOneUpdate_isFiltered",
            List.of(Send.of("api", ADD, foo, pod("9", "foo"))),
            List.of("ADD api [ns/foo]")),
        Arguments.of("specChange_isUpdate",
            List.of(Send.of("api", ADD, foo), Send.of("api", UPDATE, withImage(foo, "nginx:2"))),
            List.of("ADD api [ns/foo]", "UPDATE api [ns/foo]")),
        Arguments.of("labelChange_isUpdate",
            List.of(Send.of("api", ADD, foo), Send.of("api", UPDATE, pod("1", "foo", ",\"labels\":{\"a\":\"b\"}"))),
            List.of("ADD api [ns/foo]", "UPDATE api [ns/foo]")),
        Arguments.of("annotationChange_isUpdate",
            List.of(Send.of("api", ADD, foo),
                Send.of("api", UPDATE, pod("1", "foo", ",\"annotations\":{\"x\":\"y\"}"))),
            List.of("ADD api [ns/foo]", "UPDATE api [ns/foo]")),
        Arguments.of("localAnnotationChange_isNoUpdate",
            List.of(Send.of("api", ADD, foo),
                Send.of("api", UPDATE, pod("1", "foo", ",\"annotations\":{\"kubernetes.io/config.seen\":\"x\"}"))),
            List.of("ADD api [ns/foo]")),
        Arguments.of("deletionTimestampSet_isDelete",
            List.of(Send.of("api", ADD, foo),
                Send.of("api", UPDATE, pod("1", "foo",
                    ",\"deletionTimestamp\":\"2026-01-01T00:00:30Z\",\"deletionGracePeriodSeconds\":30"))),
            List.of("ADD api [ns/foo]", "DELETE api [ns/foo]")),
        Arguments.of("statusOnlyChange_isReconcile",
            List.of(Send.of("api", ADD, foo), Send.of("api", UPDATE, withStatus(foo, "Running"))),
            List.of("ADD api [ns/foo]", "RECONCILE api [ns/foo]")),
        Arguments.of("remove_ofKnownPod_isRemove_ofUnknown_isNothing",
            List.of(Send.of("api", ADD, foo), Send.of("api", REMOVE, foo), Send.of("api", REMOVE, bar)),
            List.of("ADD api [ns/foo]", "REMOVE api [ns/foo]")),
        Arguments.of("set_replacesTheSourcesPods",
            List.of(Send.of("api", ADD, foo, bar), Send.of("api", SET, withImage(bar, "nginx:2"), baz)),
            List.of("ADD api [ns/foo, ns/bar]", "REMOVE api [ns/foo]", "ADD api [ns/baz]", "UPDATE api [ns/bar]")),
        Arguments.of("set_ofOneSource_keepsTheOtherSourcesPods",
            List.of(Send.of("api", SET, foo), Send.of("file", SET, bar), Send.of("file", SET)),
            List.of("ADD api [ns/foo]", "ADD file [ns/bar]", "REMOVE file [ns/bar]")),
        Arguments.of("firstEmptySet_sendsEmptyAdd_laterEmptySetNothing",
            List.of(Send.of("api", SET), Send.of("api", SET)),
            List.of("ADD api []")),
        Arguments.of("firstSet_withOnlyReconcile_sendsEmptyAddBeforeReconcile",
            List.of(Send.of("api", ADD, foo), Send.of("api", SET, withStatus(foo, "Running"))),
            List.of("ADD api [ns/foo]", "ADD api []", "RECONCILE api [ns/foo]")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void merge_emitsTheKubeletsIncrementalUpdates(String name, List<Send> steps, List<String> expected) {
    for (Send s : steps) {
      config.channel(s.source()).accept(new PodUpdate(s.pods(), s.op(), s.source()));
    }
    assertThat(out).map(u -> u.op() + " " + u.source() + " " + u.podNames()).containsExactlyElementsOf(expected);
  }

  @Test
  void addedPods_carryTheirSource_andFirstSeenTime_keptAcrossUpdates() {
    config.channel("file").accept(PodUpdate.of("file", ADD, pod("1", "foo")));
    clock.advance(Duration.ofSeconds(5));
    config.channel("file").accept(PodUpdate.of("file", UPDATE, pod("1", "foo", ",\"labels\":{\"a\":\"b\"}")));

    assertThat(out).hasSize(2);
    for (PodUpdate u : out) {
      assertThat(u.pods().get(0).annotations())
          .containsEntry(PodSources.CONFIG_SOURCE, "file")
          .containsEntry(PodSources.CONFIG_SEEN, "2026-01-01T00:00:00Z");
    }
    assertThat(out.get(1).pods().get(0).labels()).containsEntry("a", "b");
  }

  @Test
  void reconcile_handsOnTheNewStatus() {
    config.channel("api").accept(PodUpdate.of("api", ADD, pod("1", "foo")));
    config.channel("api").accept(PodUpdate.of("api", UPDATE, withStatus(pod("1", "foo"), "Running")));

    assertThat(out.get(1).op()).isEqualTo(RECONCILE);
    assertThat(out.get(1).pods().get(0).get("status", "phase").orElseThrow().asText()).isEqualTo("Running");
  }

  @Test
  void delete_handsOnTheDeletionFields() {
    config.channel("api").accept(PodUpdate.of("api", ADD, pod("1", "foo")));
    config.channel("api").accept(PodUpdate.of("api", UPDATE, pod("1", "foo",
        ",\"deletionTimestamp\":\"2026-01-01T00:00:30Z\",\"deletionGracePeriodSeconds\":30")));

    DynamicObject deleted = out.get(1).pods().get(0);
    assertThat(out.get(1).op()).isEqualTo(DELETE);
    assertThat(deleted.get("metadata", "deletionGracePeriodSeconds").orElseThrow().asLong()).isEqualTo(30);
  }

  @Test
  void seenAllSources_onlyOnceEverySourceHasSentASet() {
    var api = config.channel("api");
    var file = config.channel("file");
    assertThat(config.seenAllSources()).isFalse();

    api.accept(PodUpdate.of("api", SET));
    file.accept(PodUpdate.of("file", ADD, pod("1", "foo")));
    assertThat(config.seenAllSources()).isFalse();
    assertThat(config.seenSources("api")).isTrue();

    file.accept(PodUpdate.of("file", SET, pod("1", "foo")));
    assertThat(config.seenAllSources()).isTrue();
  }
}
