package io.listwatch.apiserver.admission;

import static io.listwatch.apiserver.admission.Admissions.admitted;
import static io.listwatch.apiserver.admission.Admissions.createPod;
import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.apiserver.InMemoryCore;
import org.junit.jupiter.api.Test;

/** kube's admission_test.go cases, as tolerations before and after. */
class DefaultTolerationSecondsTest {

  private static final String NOT_READY =
      "{\"key\":\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\",\"effect\":\"NoExecute\",\"tolerationSeconds\":300}";
  private static final String UNREACHABLE =
      "{\"key\":\"node.kubernetes.io/unreachable\",\"operator\":\"Exists\",\"effect\":\"NoExecute\",\"tolerationSeconds\":300}";

  @Test
  void tolerationsAdded_unlessThePodHasThem() {
    String[][] cases = {
        {"[]", "[" + NOT_READY + "," + UNREACHABLE + "]"},
        {"[{\"key\":\"foo\",\"operator\":\"Equal\",\"value\":\"bar\",\"effect\":\"NoSchedule\"}]",
            "[{\"key\":\"foo\",\"operator\":\"Equal\",\"value\":\"bar\",\"effect\":\"NoSchedule\"}," + NOT_READY + "," + UNREACHABLE + "]"},
        {"[{\"key\":\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\",\"effect\":\"NoExecute\",\"tolerationSeconds\":700}]",
            "[{\"key\":\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\",\"effect\":\"NoExecute\",\"tolerationSeconds\":700}," + UNREACHABLE + "]"},
        {"[{\"key\":\"node.kubernetes.io/unreachable\",\"operator\":\"Exists\",\"effect\":\"NoExecute\",\"tolerationSeconds\":700}]",
            "[{\"key\":\"node.kubernetes.io/unreachable\",\"operator\":\"Exists\",\"effect\":\"NoExecute\",\"tolerationSeconds\":700}," + NOT_READY + "]"},
        // no effect: tolerates every effect; no key with Exists: every key
        {"[{\"key\":\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\"}]",
            "[{\"key\":\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\"}," + UNREACHABLE + "]"},
        {"[{\"operator\":\"Exists\"}]", "[{\"operator\":\"Exists\"}]"},
        {"[{\"operator\":\"Exists\",\"effect\":\"NoSchedule\"}]",
            "[{\"operator\":\"Exists\",\"effect\":\"NoSchedule\"}," + NOT_READY + "," + UNREACHABLE + "]"},
    };
    for (String[] c : cases) {
      var pod = admitted(new DefaultTolerationSeconds(), createPod("ns", "{\"spec\":{\"tolerations\":" + c[0] + "}}"));
      assertThat(pod.at("/spec/tolerations").toString()).as(c[0]).isEqualTo(InMemoryCore.json("{\"t\":" + c[1] + "}").get("t").toString());
    }
  }

  @Test
  void anUpdate_getsThemToo_butNotAStatusWriteOrAnotherKind() {
    var pod = admitted(new DefaultTolerationSeconds(), Admissions.update("", "v1", "pods", "ns", "{\"spec\":{}}", "{\"spec\":{}}"));
    assertThat(pod.at("/spec/tolerations").size()).isEqualTo(2);
    var node = admitted(new DefaultTolerationSeconds(), Admissions.create("", "v1", "nodes", "", "{\"spec\":{}}"));
    assertThat(node.at("/spec/tolerations").isMissingNode()).isTrue();
  }
}
