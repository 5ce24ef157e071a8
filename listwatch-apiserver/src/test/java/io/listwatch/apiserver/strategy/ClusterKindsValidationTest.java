package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube's validation of PriorityClasses, Leases, StorageClasses and PodDisruptionBudgets, from
 * the cases of kube's {@code pkg/apis/{scheduling,coordination,storage,policy}/validation}
 * tests ({@code TestValidatePriorityClass}, {@code TestValidateLease},
 * {@code TestValidateStorageClass}, {@code TestValidatePodDisruptionBudgetSpec}, ...).
 */
class ClusterKindsValidationTest {

  private static String priorityClass(String name, String fields) {
    return "{\"metadata\":{\"name\":\"" + name + "\"}" + (fields.isEmpty() ? "" : "," + fields) + "}";
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      high                    | "value":1000000000
      system-node-critical    | "value":2000001000
      system-cluster-critical | "value":2000000000,"preemptionPolicy":"Never"
      """)
  void priorityClass_valid(String name, String fields) {
    assertThat(StrategyCases.create(new PriorityClassStrategy(), priorityClass(name, fields))).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      high                 | "value":1000000001                               | value: Forbidden: maximum allowed value of a user defined priority is 1000000000
      system-mine          | "value":1                                        | metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class
      system-node-critical | "value":1                                        | metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000
      system-node-critical | "value":2000001000,"globalDefault":true          | metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: globalDefault of system-node-critical PriorityClass must be false
      high                 | "value":1,"preemptionPolicy":"Sometimes"         | preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"
      """)
  void priorityClass_invalid(String name, String fields, String error) {
    assertThat(StrategyCases.create(new PriorityClassStrategy(), priorityClass(name, fields))).containsExactly(error);
  }

  @Test
  void priorityClass_update_keepsValueAndPreemptionPolicy() {
    String old = priorityClass("high", "\"value\":10");

    assertThat(StrategyCases.update(new PriorityClassStrategy(), old, priorityClass("high",
        "\"value\":11,\"preemptionPolicy\":\"Never\",\"description\":\"d\""))).containsExactly(
            "value: Forbidden: may not be changed in an update.",
            "preemptionPolicy: Invalid value: \"Never\": field is immutable");
    assertThat(StrategyCases.update(new PriorityClassStrategy(), old, priorityClass("high", "\"value\":10,\"description\":\"d\"")))
        .isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "leaseDurationSeconds":0  | spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0
      "leaseTransitions":-1     | spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0
      """)
  void lease_invalid(String spec, String error) {
    assertThat(StrategyCases.create(new LeaseStrategy(), "{\"metadata\":{\"name\":\"l\"},\"spec\":{" + spec + "}}"))
        .containsExactly(error);
    assertThat(StrategyCases.create(new LeaseStrategy(), "{\"metadata\":{\"name\":\"l\"},\"spec\":{\"holderIdentity\":\"a\","
        + "\"leaseDurationSeconds\":15,\"leaseTransitions\":0}}")).isEmpty();
  }

  private static String storageClass(String fields) {
    return "{\"metadata\":{\"name\":\"fast\"},\"provisioner\":\"kubernetes.io/aws-ebs\"" + (fields.isEmpty() ? "" : "," + fields) + "}";
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "provisioner":""                                   | provisioner: Required value
      "provisioner":"Kubernetes.io/-EBS"                 | provisioner: Invalid value: "kubernetes.io/-ebs": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')
      "reclaimPolicy":"Recycle"                          | reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"
      "volumeBindingMode":"Later"                        | volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"
      "parameters":{"":"x"}                              | parameters: Invalid value: "": field can not be empty.
      """)
  void storageClass_invalid(String fields, String error) {
    String json = storageClass(fields).replace("\"provisioner\":\"kubernetes.io/aws-ebs\",\"provisioner\"", "\"provisioner\"");
    assertThat(StrategyCases.create(new StorageClassStrategy(), json)).containsExactly(error);
  }

  @Test
  void storageClass_tooManyParameters() {
    StringBuilder params = new StringBuilder("\"parameters\":{");
    for (int i = 0; i < 513; i++) {
      params.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":\"v\"");
    }
    assertThat(StrategyCases.create(new StorageClassStrategy(), storageClass(params.append('}').toString())))
        .containsExactly("parameters: Too long: may not be more than 512 bytes");
  }

  @Test
  void storageClass_update_keepsWhatProvisioningUses() {
    String old = storageClass("\"parameters\":{\"type\":\"gp2\"}");
    String updated = "{\"metadata\":{\"name\":\"fast\"},\"provisioner\":\"other.io/x\",\"parameters\":{\"type\":\"io1\"},"
        + "\"reclaimPolicy\":\"Retain\",\"volumeBindingMode\":\"WaitForFirstConsumer\"}";

    assertThat(StrategyCases.update(new StorageClassStrategy(), old, updated)).containsExactly(
        "parameters: Forbidden: updates to parameters are forbidden.",
        "provisioner: Forbidden: updates to provisioner are forbidden.",
        "reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.",
        "volumeBindingMode: Invalid value: \"WaitForFirstConsumer\": field is immutable");
    assertThat(StrategyCases.update(new StorageClassStrategy(), old,
        old.replace("{\"name\":\"fast\"}", "{\"name\":\"fast\"},\"allowVolumeExpansion\":true"))).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "minAvailable":1,"maxUnavailable":1          | spec.minAvailable: Invalid value: 1: minAvailable and maxUnavailable cannot be both set
      "minAvailable":-1                            | spec.minAvailable: Invalid value: -1: must be greater than or equal to 0
      "maxUnavailable":"120%"                      | spec.maxUnavailable: Invalid value: 120%: must not be greater than 100%
      "minAvailable":"half"                        | spec.minAvailable: Invalid value: half: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')
      "selector":{"matchLabels":{"a b":"c"}}       | spec.selector.matchLabels: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')
      "unhealthyPodEvictionPolicy":"Never"         | spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"
      """)
  void podDisruptionBudget_invalid(String spec, String error) {
    assertThat(StrategyCases.create(new PodDisruptionBudgetStrategy(), "{\"metadata\":{\"name\":\"p\"},\"spec\":{" + spec + "}}"))
        .containsExactly(error);
  }

  @Test
  void endToEnd_aPriorityClassAboveTheUserMaximum_isRefused() {
    try (InMemoryCore core = InMemoryCore.start()) {
      StatusException e = core.refusal("POST", "/apis/scheduling.k8s.io/v1/priorityclasses", Map.of(),
          "{\"apiVersion\":\"scheduling.k8s.io/v1\",\"kind\":\"PriorityClass\",\"metadata\":{\"name\":\"huge\"},\"value\":2000000000}");
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.getMessage()).isEqualTo("PriorityClass.scheduling.k8s.io \"huge\" is invalid: value: Forbidden: "
          + "maximum allowed value of a user defined priority is 1000000000");
      assertThat(core.send("POST", "/apis/policy/v1/namespaces/default/poddisruptionbudgets", Map.of(),
          "{\"apiVersion\":\"policy/v1\",\"kind\":\"PodDisruptionBudget\",\"metadata\":{\"name\":\"p\"},"
              + "\"spec\":{\"minAvailable\":\"50%\",\"selector\":{\"matchLabels\":{\"app\":\"x\"}}}}").code()).isEqualTo(201);
    }
  }
}
