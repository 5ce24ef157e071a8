package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube's validation of the apps workloads, from the cases of kube's
 * {@code pkg/apis/apps/validation/validation_test.go} ({@code TestValidateDeployment},
 * {@code TestValidateReplicaSet}, {@code TestValidateStatefulSet},
 * {@code TestValidateDaemonSet}, and their update tests): each row is a spec and the errors kube
 * answers, in kube's order.
 */
class WorkloadValidationTest {

  private static final String TEMPLATE = "\"template\":{\"metadata\":{\"labels\":{\"app\":\"x\"}},"
      + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}";

  private static String object(String kind, String spec) {
    return "{\"apiVersion\":\"apps/v1\",\"kind\":\"" + kind + "\",\"metadata\":{\"name\":\"x\"},\"spec\":{" + spec + "}}";
  }

  private static String withTemplate(String kind, String spec) {
    return object(kind, spec + (spec.isEmpty() ? "" : ",") + TEMPLATE);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "selector":{"matchLabels":{"app":"x"}}
      "selector":{"matchExpressions":[{"key":"app","operator":"In","values":["x","y"]}]}
      "selector":{"matchExpressions":[{"key":"tier","operator":"DoesNotExist"}]}
      "selector":{"matchLabels":{"app":"x"}},"strategy":{"type":"Recreate"}
      "selector":{"matchLabels":{"app":"x"}},"strategy":{"rollingUpdate":{"maxUnavailable":0,"maxSurge":1}}
      "selector":{"matchLabels":{"app":"x"}},"revisionHistoryLimit":0,"minReadySeconds":5,"progressDeadlineSeconds":6
      """)
  void deployment_valid(String spec) {
    assertThat(StrategyCases.create(new DeploymentStrategy(), withTemplate("Deployment", spec))).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "selector":{"matchLabels":{"app":"y"}}                  | spec.template.metadata.labels: Invalid value: map[string]string{"app":"x"}: `selector` does not match template `labels`
      "selector":{}                                           | spec.selector: Invalid value: &LabelSelector{MatchLabels:map[string]string{},MatchExpressions:[]LabelSelectorRequirement{},}: empty selector is invalid for deployment
      "selector":{"matchLabels":{"app":"x"}},"replicas":-1     | spec.replicas: Invalid value: -1: must be greater than or equal to 0
      "selector":{"matchLabels":{"app":"x"}},"minReadySeconds":-1 | spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0
      "selector":{"matchLabels":{"app":"x"}},"revisionHistoryLimit":-2 | spec.revisionHistoryLimit: Invalid value: -2: must be greater than or equal to 0
      "selector":{"matchLabels":{"app":"x"}},"minReadySeconds":10,"progressDeadlineSeconds":10 | spec.progressDeadlineSeconds: Invalid value: 10: must be greater than minReadySeconds
      "selector":{"matchLabels":{"app":"x"}},"strategy":{"type":"Recreate","rollingUpdate":{}} | spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'
      "selector":{"matchLabels":{"app":"x"}},"strategy":{"type":"Canary"} | spec.strategy: Unsupported value: apps.DeploymentStrategy{Type:"Canary", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: "Recreate", "RollingUpdate"
      "selector":{"matchLabels":{"app":"x"}},"strategy":{"rollingUpdate":{"maxSurge":"20Percent"}} | spec.strategy.rollingUpdate.maxSurge: Invalid value: 20Percent: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')
      "selector":{"matchLabels":{"app":"x"}},"strategy":{"rollingUpdate":{"maxUnavailable":"110%"}} | spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 110%: must not be greater than 100%
      "selector":{"matchLabels":{"app":"x"}},"strategy":{"rollingUpdate":{"maxUnavailable":-1}} | spec.strategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0
      "selector":{"matchLabels":{"app":"x"}},"strategy":{"rollingUpdate":{"maxUnavailable":0,"maxSurge":"0%"}} | spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0
      "selector":{"matchLabels":{"app":"x"}},"template":{"metadata":{"labels":{"app":"x"}},"spec":{"restartPolicy":"OnFailure","containers":[{"name":"c","image":"i"}]}} | spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"
      "selector":{"matchLabels":{"app":"x"}},"template":{"metadata":{"labels":{"app":"x"}},"spec":{"activeDeadlineSeconds":5,"containers":[{"name":"c","image":"i"}]}} | spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported
      "selector":{"matchLabels":{"app":"x"}},"template":{"metadata":{"labels":{"app":"x"}},"spec":{"containers":[]}} | spec.template.spec.containers: Required value
      """)
  void deployment_invalid(String spec, String error) {
    String body = spec.contains("\"template\"") ? object("Deployment", spec) : withTemplate("Deployment", spec);
    assertThat(StrategyCases.create(new DeploymentStrategy(), body)).containsExactly(error);
  }

  @Test
  void deployment_withoutSelector_isRequired_andMatchesNoTemplate() {
    assertThat(StrategyCases.create(new DeploymentStrategy(), withTemplate("Deployment", "\"replicas\":1"))).containsExactly(
        "spec.selector: Required value",
        "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"x\"}: `selector` does not match template `labels`");
  }

  /** A selector that does not parse is also kube's "invalid label selector", and is not matched against the template. */
  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "selector":{"matchExpressions":[{"key":"app","operator":"Like","values":["x"]}]} | spec.selector.matchExpressions[0].operator: Invalid value: "Like": not a valid selector operator
      "selector":{"matchExpressions":[{"key":"app","operator":"In"}]} | spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'
      "selector":{"matchExpressions":[{"key":"app","operator":"Exists","values":["x"]}]} | spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'
      """)
  void deployment_badSelectorRequirement(String spec, String error) {
    assertThat(StrategyCases.create(new DeploymentStrategy(), withTemplate("Deployment", spec))).hasSize(2)
        .first().isEqualTo(error);
    assertThat(StrategyCases.create(new DeploymentStrategy(), withTemplate("Deployment", spec)).get(1))
        .startsWith("spec.selector: Invalid value: &LabelSelector{").endsWith(",},},}: invalid label selector");
  }

  @Test
  void deployment_badSelector_isAlsoAnInvalidLabelSelector() {
    assertThat(StrategyCases.create(new DeploymentStrategy(), withTemplate("Deployment",
        "\"selector\":{\"matchExpressions\":[{\"key\":\"-app\",\"operator\":\"In\",\"values\":[\"x\"]}]}")))
        .extracting(e -> e.substring(0, e.indexOf(':'))).containsExactly(
            "spec.selector.matchExpressions[0].key", "spec.selector");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      Deployment | {"matchLabels":{"app":"x","tier":"web"}}
      ReplicaSet | {"matchLabels":{"app":"x","tier":"web"}}
      DaemonSet  | {"matchExpressions":[{"key":"app","operator":"In","values":["x"]}]}
      """)
  void selector_isImmutable(String kind, String newSelector) {
    String template = "\"template\":{\"metadata\":{\"labels\":{\"app\":\"x\",\"tier\":\"web\"}},"
        + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}";
    RestStrategy strategy = switch (kind) {
      case "Deployment" -> new DeploymentStrategy();
      case "ReplicaSet" -> new ReplicaSetStrategy();
      default -> new DaemonSetStrategy();
    };
    String old = object(kind, "\"selector\":{\"matchLabels\":{\"app\":\"x\"}}," + template);
    String updated = object(kind, "\"selector\":" + newSelector + "," + template);

    assertThat(StrategyCases.update(strategy, old, updated)).singleElement().asString()
        .startsWith("spec.selector: Invalid value: &LabelSelector{").endsWith("}: field is immutable");
    assertThat(StrategyCases.update(strategy, old, old.replace("\"web\"", "\"db\""))).isEmpty();
  }

  @Test
  void selector_immutableMessage_printsItAsKubeDoes() {
    String old = withTemplate("ReplicaSet", "\"selector\":{\"matchLabels\":{\"app\":\"x\"}}");
    String updated = withTemplate("ReplicaSet",
        "\"selector\":{\"matchExpressions\":[{\"key\":\"app\",\"operator\":\"In\",\"values\":[\"x\",\"y\"]}]}");

    assertThat(StrategyCases.update(new ReplicaSetStrategy(), old, updated)).containsExactly(
        "spec.selector: Invalid value: &LabelSelector{MatchLabels:map[string]string{},MatchExpressions:"
            + "[]LabelSelectorRequirement{LabelSelectorRequirement{Key:app,Operator:In,Values:[x y],},},}: field is immutable");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "selector":{"matchLabels":{"app":"y"}}                  | spec.template.metadata.labels: Invalid value: map[string]string{"app":"x"}: `selector` does not match template `labels`
      "selector":{}                                           | spec.selector: Invalid value: &LabelSelector{MatchLabels:map[string]string{},MatchExpressions:[]LabelSelectorRequirement{},}: empty selector is invalid for deployment
      "selector":{"matchLabels":{"app":"x"}},"replicas":-1     | spec.replicas: Invalid value: -1: must be greater than or equal to 0
      "selector":{"matchLabels":{"app":"x"}},"minReadySeconds":-1 | spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0
      """)
  void replicaSet_invalid(String spec, String error) {
    assertThat(StrategyCases.create(new ReplicaSetStrategy(), withTemplate("ReplicaSet", spec))).containsExactly(error);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "selector":{"matchLabels":{"app":"y"}}                  | spec.template.metadata.labels: Invalid value: map[string]string{"app":"x"}: `selector` does not match template `labels`
      "selector":{}                                           | spec.selector: Invalid value: &LabelSelector{MatchLabels:map[string]string{},MatchExpressions:[]LabelSelectorRequirement{},}: empty selector is invalid for statefulset
      "selector":{"matchLabels":{"app":"x"}},"podManagementPolicy":"Random" | spec.podManagementPolicy: Invalid value: "Random": must be 'OrderedReady' or 'Parallel'
      "selector":{"matchLabels":{"app":"x"}},"updateStrategy":{"type":"Blue"} | spec.updateStrategy: Invalid value: apps.StatefulSetUpdateStrategy{Type:"Blue", RollingUpdate:(*apps.RollingUpdateStatefulSetStrategy)(nil)}: must be 'RollingUpdate' or 'OnDelete'
      "selector":{"matchLabels":{"app":"x"}},"updateStrategy":{"type":"OnDelete","rollingUpdate":{"partition":1}} | spec.updateStrategy.rollingUpdate: Invalid value: apps.RollingUpdateStatefulSetStrategy{Partition:1, MaxUnavailable:(*intstr.IntOrString)(nil)}: only allowed for updateStrategy 'RollingUpdate'
      "selector":{"matchLabels":{"app":"x"}},"updateStrategy":{"rollingUpdate":{"partition":-1}} | spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0
      "selector":{"matchLabels":{"app":"x"}},"updateStrategy":{"rollingUpdate":{"maxUnavailable":0}} | spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0
      "selector":{"matchLabels":{"app":"x"}},"persistentVolumeClaimRetentionPolicy":{"whenDeleted":"Keep"} | spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Keep": supported values: "Retain", "Delete"
      "selector":{"matchLabels":{"app":"x"}},"ordinals":{"start":-1} | spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0
      """)
  void statefulSet_invalid(String spec, String error) {
    assertThat(StrategyCases.create(new StatefulSetStrategy(), withTemplate("StatefulSet", spec))).containsExactly(error);
  }

  @Test
  void statefulSet_update_mayChangeOnlyKubesFields() {
    StatefulSetStrategy strategy = new StatefulSetStrategy();
    String old = withTemplate("StatefulSet", "\"selector\":{\"matchLabels\":{\"app\":\"x\"}},\"serviceName\":\"a\"");

    assertThat(StrategyCases.update(strategy, old, old.replace("\"serviceName\":\"a\"",
        "\"serviceName\":\"a\",\"replicas\":5,\"minReadySeconds\":3,\"updateStrategy\":{\"type\":\"OnDelete\"}"))).isEmpty();
    assertThat(StrategyCases.update(strategy, old, old.replace("\"serviceName\":\"a\"", "\"serviceName\":\"b\"")))
        .containsExactly("spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', "
            + "'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "selector":{"matchLabels":{"app":"y"}}                  | spec.template.metadata.labels: Invalid value: map[string]string{"app":"x"}: `selector` does not match template `labels`
      "selector":{}                                           | spec.selector: Invalid value: &LabelSelector{MatchLabels:map[string]string{},MatchExpressions:[]LabelSelectorRequirement{},}: empty selector is invalid for daemonset
      "selector":{"matchLabels":{"app":"x"}},"updateStrategy":{"type":"Blue"} | spec.updateStrategy: Unsupported value: apps.DaemonSetUpdateStrategy{Type:"Blue", RollingUpdate:(*apps.RollingUpdateDaemonSet)(nil)}: supported values: "RollingUpdate", "OnDelete"
      "selector":{"matchLabels":{"app":"x"}},"updateStrategy":{"rollingUpdate":{"maxUnavailable":1,"maxSurge":1}} | spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero
      "selector":{"matchLabels":{"app":"x"}},"updateStrategy":{"rollingUpdate":{"maxUnavailable":0,"maxSurge":0}} | spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0
      "selector":{"matchLabels":{"app":"x"}},"updateStrategy":{"rollingUpdate":{"maxUnavailable":"120%","maxSurge":0}} | spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 120%: must not be greater than 100%
      "selector":{"matchLabels":{"app":"x"}},"revisionHistoryLimit":-1 | spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0
      """)
  void daemonSet_invalid(String spec, String error) {
    assertThat(StrategyCases.create(new DaemonSetStrategy(), withTemplate("DaemonSet", spec))).containsExactly(error);
  }

  @Test
  void daemonSet_withoutSelector_onlyMismatchesItsTemplate() {
    assertThat(StrategyCases.create(new DaemonSetStrategy(), withTemplate("DaemonSet", ""))).containsExactly(
        "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"x\"}: `selector` does not match template `labels`");
  }

  @Test
  void controllerRevision_dataRequired_andImmutable() {
    ControllerRevisionStrategy strategy = new ControllerRevisionStrategy();
    String old = "{\"metadata\":{\"name\":\"r\"},\"data\":{\"a\":1},\"revision\":1}";

    assertThat(StrategyCases.create(strategy, "{\"metadata\":{\"name\":\"r\"},\"revision\":-1}")).containsExactly(
        "data: Required value: data is mandatory", "revision: Invalid value: -1: must be greater than or equal to 0");
    assertThat(StrategyCases.update(strategy, old, old.replace("\"a\":1", "\"a\":2")))
        .containsExactly("data: Invalid value: {\"a\":2}: field is immutable");
    assertThat(StrategyCases.update(strategy, old, old.replace("\"revision\":1", "\"revision\":2"))).isEmpty();
  }

  /** What {@code kubectl create deployment x --image=nginx} sends is accepted; a mismatched one gets kube's 422. */
  @Test
  void endToEnd_kubectlCreateDeployment_isAccepted_andAMismatchIsRefused() {
    try (InMemoryCore core = InMemoryCore.start()) {
      String kubectl = "{\"kind\":\"Deployment\",\"apiVersion\":\"apps/v1\",\"metadata\":{\"name\":\"x\",\"creationTimestamp\":null,"
          + "\"labels\":{\"app\":\"x\"}},\"spec\":{\"replicas\":1,\"selector\":{\"matchLabels\":{\"app\":\"x\"}},\"template\":"
          + "{\"metadata\":{\"creationTimestamp\":null,\"labels\":{\"app\":\"x\"}},\"spec\":{\"containers\":[{\"name\":\"nginx\","
          + "\"image\":\"nginx\",\"resources\":{}}]}},\"strategy\":{}},\"status\":{}}";
      assertThat(core.send("POST", "/apis/apps/v1/namespaces/default/deployments", Map.of(), kubectl).code()).isEqualTo(201);

      StatusException refused = core.refusal("POST", "/apis/apps/v1/namespaces/default/deployments", Map.of(),
          kubectl.replace("\"name\":\"x\"", "\"name\":\"y\"").replace("{\"matchLabels\":{\"app\":\"x\"}}", "{\"matchLabels\":{\"app\":\"y\"}}"));
      assertThat(refused.code()).isEqualTo(422);
      assertThat(refused.getMessage()).isEqualTo("Deployment.apps \"y\" is invalid: spec.template.metadata.labels: Invalid value: "
          + "map[string]string{\"app\":\"x\"}: `selector` does not match template `labels`");

      StatusException immutable = core.refusal("PUT", "/apis/apps/v1/namespaces/default/deployments/x", Map.of(),
          kubectl.replace("{\"app\":\"x\"}", "{\"app\":\"x\",\"b\":\"c\"}"));
      assertThat(immutable.code()).isEqualTo(422);
      assertThat(immutable.status().details().causes()).extracting(c -> c.field() + ": " + c.message()).containsExactly(
          "spec.selector: Invalid value: &LabelSelector{MatchLabels:map[string]string{app: x,b: c,},"
              + "MatchExpressions:[]LabelSelectorRequirement{},}: field is immutable");
    }
  }
}
