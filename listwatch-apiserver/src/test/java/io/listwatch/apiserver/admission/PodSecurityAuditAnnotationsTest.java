package io.listwatch.apiserver.admission;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.registry.ResourceRegistry;
import io.listwatch.apiserver.request.AuditAnnotations;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The audit annotations PodSecurity notes for pods and for workloads' pod templates, the cases
 * of kube's {@code TestValidatePodAndController} (each pod case also as a Deployment, which is
 * never refused and never notes an {@code enforce-policy}), with kube's exact values.
 */
class PodSecurityAuditAnnotationsTest {

  private static final String ENFORCE_POLICY = "pod-security.kubernetes.io/enforce-policy";
  private static final String AUDIT_VIOLATIONS = "pod-security.kubernetes.io/audit-violations";
  private static final String ERROR = "pod-security.kubernetes.io/error";

  private static final String RESTRICTED_SPEC = """
      {"securityContext":{"runAsNonRoot":true,"seccompProfile":{"type":"RuntimeDefault"}},
       "containers":[{"name":"c","image":"%s","securityContext":{"allowPrivilegeEscalation":false,
       "capabilities":{"drop":["ALL"]}%s}}]%s}""";
  private static final String RESTRICTED = RESTRICTED_SPEC.formatted("nginx", "", "");
  private static final String DIFFERENT_RESTRICTED = RESTRICTED_SPEC.formatted("example.com/other", "", "");
  private static final String PRIVILEGED = RESTRICTED_SPEC.formatted("nginx", ",\"privileged\":true", "");
  private static final String DIFFERENT_PRIVILEGED =
      RESTRICTED_SPEC.formatted("example.com/other", ",\"privileged\":true", "");
  private static final String TOLERANT_PRIVILEGED =
      RESTRICTED_SPEC.formatted("nginx", ",\"privileged\":true", ",\"tolerations\":[{\"operator\":\"Exists\"}]");
  private static final String BASELINE = "{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}";

  private static final String PRIVILEGED_DETAIL = "privileged (container \"c\" must not set securityContext.privileged=true)";
  private static final String INVALID_ENFORCE = "metadata.labels[pod-security.kubernetes.io/enforce]: "
      + "Invalid value: \"not-a-valid-level\": must be one of privileged, baseline, restricted";

  private final ListersStub listers = new ListersStub()
      .add("", "namespaces", "", namespace("implicit-ns", ""))
      .add("", "namespaces", "", namespace("privileged-ns", labels("privileged", "privileged", "privileged")))
      .add("", "namespaces", "", namespace("baseline-ns", labels("baseline", "baseline", "baseline")))
      .add("", "namespaces", "", namespace("baseline-warn-ns", labels(null, "baseline", null)))
      .add("", "namespaces", "", namespace("baseline-audit-ns", labels(null, null, "baseline")))
      .add("", "namespaces", "", namespace("restricted-ns", labels("restricted", "restricted", "restricted")))
      .add("", "namespaces", "", namespace("invalid-ns", labels("not-a-valid-level", null, null)))
      .add("", "namespaces", "", namespace("two-invalid-ns", "\"pod-security.kubernetes.io/enforce\":\"strict\","
          + "\"pod-security.kubernetes.io/audit-version\":\"1.25\""))
      .add("", "namespaces", "", namespace("pinned-audit-ns", "\"pod-security.kubernetes.io/audit\":\"baseline\","
          + "\"pod-security.kubernetes.io/audit-version\":\"v1.24\""));
  private final PodSecurity plugin = new PodSecurity(listers);

  /**
   * One case of kube's table.
   *
   * @param refusal the pod's refusal reason, null when admitted
   * @param pod the pod's annotations
   * @param deployment the Deployment's annotations, null to skip it
   */
  record Case(String desc, String namespace, String subresource, String spec, String oldSpec, String refusal,
      Map<String, String> pod, Map<String, String> deployment) {

    @Override
    public String toString() {
      return desc;
    }
  }

  static Stream<Case> cases() {
    String lookup = "failed to lookup namespace \"missing-ns\": namespaces \"missing-ns\" not found";
    return Stream.of(
        new Case("ignored subresource", "restricted-ns", "status", PRIVILEGED, null, null, Map.of(), Map.of()),
        new Case("namespace not found", "missing-ns", "", RESTRICTED, null, "InternalError",
            Map.of(ERROR, "Internal error occurred: " + lookup), Map.of(ERROR, lookup)),
        new Case("short-circuit privileged:latest (implicit)", "implicit-ns", "", PRIVILEGED, null, null,
            Map.of(ENFORCE_POLICY, "privileged:latest"), Map.of()),
        new Case("short-circuit privileged:latest (explicit)", "privileged-ns", "", PRIVILEGED, null, null,
            Map.of(ENFORCE_POLICY, "privileged:latest"), Map.of()),
        new Case("insignificant update", "restricted-ns", "", TOLERANT_PRIVILEGED, PRIVILEGED, null, Map.of(), null),
        new Case("significant update denied", "restricted-ns", "", DIFFERENT_PRIVILEGED, PRIVILEGED, "Forbidden",
            Map.of(ENFORCE_POLICY, "restricted:latest", AUDIT_VIOLATIONS, violation("restricted:latest")),
            Map.of(AUDIT_VIOLATIONS, violation("restricted:latest"))),
        new Case("significant update allowed", "restricted-ns", "", DIFFERENT_RESTRICTED, RESTRICTED, null,
            Map.of(ENFORCE_POLICY, "restricted:latest"), Map.of()),
        new Case("invalid namespace labels", "invalid-ns", "", BASELINE, null, "Forbidden",
            Map.of(ENFORCE_POLICY, "restricted:latest", ERROR, "Failed to parse policy: " + INVALID_ENFORCE),
            Map.of(ERROR, "Failed to parse policy: " + INVALID_ENFORCE)),
        new Case("two invalid namespace labels", "two-invalid-ns", "", RESTRICTED, null, null,
            Map.of(ENFORCE_POLICY, "restricted:latest", ERROR, "Failed to parse policy: ["
                + "metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: \"strict\": must be one of "
                + "privileged, baseline, restricted, metadata.labels[pod-security.kubernetes.io/audit-version]: "
                + "Invalid value: \"1.25\": must be \"latest\" or \"v1.x\"]"),
            Map.of(ERROR, "Failed to parse policy: [metadata.labels[pod-security.kubernetes.io/enforce]: Invalid "
                + "value: \"strict\": must be one of privileged, baseline, restricted, metadata.labels"
                + "[pod-security.kubernetes.io/audit-version]: Invalid value: \"1.25\": must be \"latest\" or \"v1.x\"]")),
        new Case("enforce deny", "restricted-ns", "", PRIVILEGED, null, "Forbidden",
            Map.of(ENFORCE_POLICY, "restricted:latest", AUDIT_VIOLATIONS, violation("restricted:latest")),
            Map.of(AUDIT_VIOLATIONS, violation("restricted:latest"))),
        new Case("enforce allow", "baseline-ns", "", BASELINE, null, null,
            Map.of(ENFORCE_POLICY, "baseline:latest"), Map.of()),
        new Case("warn deny", "baseline-warn-ns", "", PRIVILEGED, null, null,
            Map.of(ENFORCE_POLICY, "privileged:latest"), Map.of()),
        new Case("audit deny", "baseline-audit-ns", "", PRIVILEGED, null, null,
            Map.of(ENFORCE_POLICY, "privileged:latest", AUDIT_VIOLATIONS, violation("baseline:latest")),
            Map.of(AUDIT_VIOLATIONS, violation("baseline:latest"))),
        new Case("audit deny at a pinned version", "pinned-audit-ns", "", PRIVILEGED, null, null,
            Map.of(ENFORCE_POLICY, "privileged:latest", AUDIT_VIOLATIONS, violation("baseline:v1.24")),
            Map.of(AUDIT_VIOLATIONS, violation("baseline:v1.24"))),
        new Case("no pod template", "restricted-ns", "", null, null, null, null, Map.of()));
  }

  @ParameterizedTest(name = "pod: {0}")
  @MethodSource("cases")
  void pod(Case c) {
    if (c.pod() == null) {
      return;
    }
    AdmissionAttributes a = attributes(c, "pods", pod(c.spec()), c.oldSpec() == null ? null : pod(c.oldSpec()));
    StatusException refused = Admissions.refusal(plugin, a);

    assertThat(refused == null ? null : refused.status().reason()).as("refusal").isEqualTo(c.refusal());
    assertThat(a.auditAnnotations().map()).isEqualTo(c.pod());
  }

  @ParameterizedTest(name = "deployment: {0}")
  @MethodSource("cases")
  void deployment(Case c) {
    if (c.deployment() == null) {
      return;
    }
    AdmissionAttributes a = attributes(c, "deployments", deployment(c.spec()),
        c.oldSpec() == null ? null : deployment(c.oldSpec()));

    assertThat(Admissions.refusal(plugin, a)).as("refusal").isNull();
    assertThat(a.auditAnnotations().map()).isEqualTo(c.deployment());
  }

  private static AdmissionAttributes attributes(Case c, String plural, ObjectNode obj, ObjectNode old) {
    return new AdmissionAttributes(old == null ? AdmissionAttributes.Operation.CREATE
        : AdmissionAttributes.Operation.UPDATE, ResourceRegistry.builtins().find(plural.equals("pods") ? "" : "apps",
        "v1", plural).orElseThrow(), c.subresource(), c.namespace(), "test-pod", obj, old, AdmissionAttributes.SERVER,
        false, new Warnings(), new AuditAnnotations());
  }

  private static String violation(String level) {
    return "would violate PodSecurity \"" + level + "\": " + PRIVILEGED_DETAIL;
  }

  private static ObjectNode pod(String spec) {
    return InMemoryCore.json("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"test-pod\","
        + "\"labels\":{\"foo\":\"bar\"}},\"spec\":" + spec + "}");
  }

  private static ObjectNode deployment(String spec) {
    return InMemoryCore.json("{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"test-pod\"},"
        + "\"spec\":" + (spec == null ? "{}" : "{\"template\":{\"metadata\":{\"labels\":{\"foo\":\"bar\"}},\"spec\":"
        + spec + "}}") + "}");
  }

  private static String namespace(String name, String labels) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + name + "\",\"labels\":{"
        + labels + "}}}";
  }

  /** The labels of the modes given a level (null: not labelled). */
  private static String labels(String enforce, String warn, String audit) {
    List<String> out = new ArrayList<>();
    for (String[] mode : new String[][] {{"enforce", enforce}, {"warn", warn}, {"audit", audit}}) {
      if (mode[1] != null) {
        out.add("\"pod-security.kubernetes.io/" + mode[0] + "\":\"" + mode[1] + "\"");
      }
    }
    return String.join(",", out);
  }
}
