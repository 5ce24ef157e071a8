package io.listwatch.apiserver.admission;

import static io.listwatch.apiserver.admission.Admissions.admitted;
import static io.listwatch.apiserver.admission.Admissions.createPod;
import static io.listwatch.apiserver.admission.Admissions.refusal;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** kube's admission_test.go cases; RuntimeClasses are not served yet, so only a stub holds them. */
class RuntimeClassTest {

  private final ListersStub listers = new ListersStub()
      .add("node.k8s.io", "runtimeclasses", "", "{\"metadata\":{\"name\":\"plain\"},\"handler\":\"runc\"}")
      .add("node.k8s.io", "runtimeclasses", "", """
          {"metadata":{"name":"kata"},"handler":"kata","overhead":{"podFixed":{"cpu":"100m","memory":"64Mi"}},
           "scheduling":{"nodeSelector":{"sandbox":"kata"},
                         "tolerations":[{"key":"sandbox","operator":"Exists","effect":"NoSchedule"}]}}""");
  private final RuntimeClass plugin = new RuntimeClass(listers);

  private StatusException refused(String spec) {
    return refusal(plugin, createPod("ns", "{\"metadata\":{\"name\":\"p\"},\"spec\":" + spec + "}"));
  }

  @Test
  void theClassesOverheadAndScheduling_areAddedToThePod() {
    var pod = admitted(plugin, createPod("ns", """
        {"spec":{"runtimeClassName":"kata","nodeSelector":{"zone":"a"},
                 "tolerations":[{"key":"other","operator":"Exists"}]}}"""));
    assertThat(pod.at("/spec/overhead").toString()).isEqualTo("{\"cpu\":\"100m\",\"memory\":\"64Mi\"}");
    assertThat(pod.at("/spec/nodeSelector").toString()).isEqualTo("{\"zone\":\"a\",\"sandbox\":\"kata\"}");
    assertThat(pod.at("/spec/tolerations").toString()).isEqualTo(
        "[{\"key\":\"other\",\"operator\":\"Exists\"},{\"key\":\"sandbox\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\"}]");
    // the same overhead, in other units, is fine
    admitted(plugin, createPod("ns", "{\"spec\":{\"runtimeClassName\":\"kata\",\"overhead\":{\"cpu\":\"0.1\",\"memory\":\"64Mi\"}}}"));
    var plain = admitted(plugin, createPod("ns", "{\"spec\":{\"runtimeClassName\":\"plain\"}}"));
    assertThat(plain.at("/spec/overhead").isMissingNode()).isTrue();
  }

  @Test
  void refusals_asKubes() {
    String[][] cases = {
        {"{\"runtimeClassName\":\"ghost\"}", "pod rejected: RuntimeClass \"ghost\" not found"},
        {"{\"runtimeClassName\":\"kata\",\"overhead\":{\"cpu\":\"1\"}}", "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"},
        {"{\"runtimeClassName\":\"plain\",\"overhead\":{\"cpu\":\"1\"}}", "pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead"},
        {"{\"overhead\":{\"cpu\":\"1\"}}", "pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead"},
        {"{\"runtimeClassName\":\"kata\",\"nodeSelector\":{\"sandbox\":\"gvisor\"}}",
            "conflict: runtimeClass.scheduling.nodeSelector[sandbox] = kata; pod.spec.nodeSelector[sandbox] = gvisor"},
    };
    for (String[] c : cases) {
      StatusException e = refused(c[0]);
      assertThat(e).as(c[0]).isNotNull();
      assertThat(e.code()).isEqualTo(403);
      assertThat(e.status().message()).isEqualTo("pods \"p\" is forbidden: " + c[1]);
    }
  }

  private static List<JsonNode> tolerations(String json) {
    List<JsonNode> list = new ArrayList<>();
    InMemoryCore.json("{\"t\":" + json + "}").get("t").forEach(list::add);
    return list;
  }

  @Test
  void mergeTolerations_keepsOnlyWhatNothingElseCovers() {
    String[][] cases = { // all, merged: kube's tolerations_test.go
        {"[{\"key\":\"a\",\"operator\":\"Equal\",\"value\":\"x\"},{\"key\":\"a\",\"operator\":\"Equal\",\"value\":\"x\"}]",
            "[{\"key\":\"a\",\"operator\":\"Equal\",\"value\":\"x\"}]"},
        {"[{\"key\":\"a\",\"operator\":\"Equal\",\"value\":\"x\"},{\"key\":\"a\",\"operator\":\"Exists\"}]",
            "[{\"key\":\"a\",\"operator\":\"Exists\"}]"},
        {"[{\"key\":\"a\",\"operator\":\"Exists\",\"effect\":\"NoSchedule\"},{\"operator\":\"Exists\"}]",
            "[{\"operator\":\"Exists\"}]"},
        {"[{\"key\":\"a\",\"operator\":\"Exists\",\"effect\":\"NoExecute\",\"tolerationSeconds\":10},"
            + "{\"key\":\"a\",\"operator\":\"Exists\",\"effect\":\"NoExecute\",\"tolerationSeconds\":20}]",
            "[{\"key\":\"a\",\"operator\":\"Exists\",\"effect\":\"NoExecute\",\"tolerationSeconds\":20}]"},
        {"[{\"key\":\"a\",\"operator\":\"Exists\"},{\"key\":\"b\",\"operator\":\"Exists\"}]",
            "[{\"key\":\"a\",\"operator\":\"Exists\"},{\"key\":\"b\",\"operator\":\"Exists\"}]"},
    };
    for (String[] c : cases) {
      assertThat(RuntimeClass.mergeTolerations(tolerations(c[0])).toString()).as(c[0]).isEqualTo(tolerations(c[1]).toString());
    }
  }
}
