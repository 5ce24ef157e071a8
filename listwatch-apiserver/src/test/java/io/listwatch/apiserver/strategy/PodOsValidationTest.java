package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube 1.32's OS-dependent pod spec rules ({@code validateOS}, {@code validateLinux},
 * {@code validateWindows}), from the cases of kube's {@code TestValidateOSFields} and
 * {@code TestValidateWindowsPodSecurityContext...}: each row the fields of a pod spec (with one
 * container {@code c}) and every cause kube gives, or none.
 */
class PodOsValidationTest {

  private static String pod(String os, String fields, String container) {
    return "{\"metadata\":{\"name\":\"p\"},\"spec\":{\"os\":{\"name\":\"" + os + "\"}"
        + (fields.isEmpty() ? "" : "," + fields) + ",\"containers\":[{\"name\":\"c\",\"image\":\"i\""
        + (container.isEmpty() ? "" : ",\"securityContext\":{" + container + "}") + "}]}}";
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
      windows | ~~                                                             | ~~                                            |
      windows | "securityContext":{"windowsOptions":{"runAsUserName":"u"}}     | "windowsOptions":{"runAsUserName":"u"}        |
      windows | "hostNetwork":true,"hostPID":false,"hostIPC":false             | ~~                                            |
      windows | "securityContext":{"seLinuxOptions":{"role":"r"}}              | ~~                                            | spec.securityContext.seLinuxOptions: Forbidden: cannot be set for a windows pod
      windows | "securityContext":{"appArmorProfile":{"type":"RuntimeDefault"}} | ~~                                           | spec.securityContext.appArmorProfile: Forbidden: cannot be set for a windows pod
      windows | "securityContext":{"seccompProfile":{"type":"RuntimeDefault"}} | ~~                                            | spec.securityContext.seccompProfile: Forbidden: cannot be set for a windows pod
      windows | "securityContext":{"fsGroup":1000,"fsGroupChangePolicy":"Always"} | ~~                                        | spec.securityContext.fsGroup: Forbidden: cannot be set for a windows pod; spec.securityContext.fsGroupChangePolicy: Forbidden: cannot be set for a windows pod
      windows | "securityContext":{"sysctls":[{"name":"kernel.shm_rmid_forced","value":"1"}]} | ~~                           | spec.securityContext.sysctls: Forbidden: cannot be set for a windows pod
      windows | "securityContext":{"sysctls":[]}                               | ~~                                            |
      windows | "securityContext":{"runAsUser":1000,"runAsGroup":1000,"supplementalGroups":[]} | ~~                            | spec.securityContext.runAsUser: Forbidden: cannot be set for a windows pod; spec.securityContext.runAsGroup: Forbidden: cannot be set for a windows pod; spec.securityContext.supplementalGroups: Forbidden: cannot be set for a windows pod
      windows | "securityContext":{"supplementalGroupsPolicy":"Merge"}         | ~~                                            | spec.securityContext.supplementalGroupsPolicy: Forbidden: cannot be set for a windows pod
      windows | "securityContext":{"runAsNonRoot":true}                        | ~~                                            |
      windows | "hostUsers":true                                               | ~~                                            | spec.hostUsers: Forbidden: cannot be set for a windows pod
      windows | "hostPID":true,"hostIPC":true,"shareProcessNamespace":false    | ~~                                            | spec.hostPID: Forbidden: cannot be set for a windows pod; spec.hostIPC: Forbidden: cannot be set for a windows pod; spec.shareProcessNamespace: Forbidden: cannot be set for a windows pod
      windows | "securityContext":{"runAsUser":1,"seLinuxOptions":{"role":"r"}},"hostIPC":true,"shareProcessNamespace":true | ~~ | spec.securityContext.seLinuxOptions: Forbidden: cannot be set for a windows pod; spec.hostIPC: Forbidden: cannot be set for a windows pod; spec.shareProcessNamespace: Forbidden: cannot be set for a windows pod; spec.securityContext.runAsUser: Forbidden: cannot be set for a windows pod
      windows | ~~                                                             | "seLinuxOptions":{"role":"r"},"seccompProfile":{"type":"RuntimeDefault"},"appArmorProfile":{"type":"RuntimeDefault"} | spec.containers[0].securityContext.appArmorProfile: Forbidden: cannot be set for a windows pod; spec.containers[0].securityContext.seLinuxOptions: Forbidden: cannot be set for a windows pod; spec.containers[0].securityContext.seccompProfile: Forbidden: cannot be set for a windows pod
      windows | ~~                                                             | "capabilities":{},"readOnlyRootFilesystem":false,"privileged":false,"allowPrivilegeEscalation":false | spec.containers[0].securityContext.capabilities: Forbidden: cannot be set for a windows pod; spec.containers[0].securityContext.readOnlyRootFilesystem: Forbidden: cannot be set for a windows pod; spec.containers[0].securityContext.privileged: Forbidden: cannot be set for a windows pod; spec.containers[0].securityContext.allowPrivilegeEscalation: Forbidden: cannot be set for a windows pod
      windows | ~~                                                             | "procMount":"Default","runAsUser":1,"runAsGroup":1 | spec.containers[0].securityContext.procMount: Forbidden: cannot be set for a windows pod; spec.containers[0].securityContext.runAsUser: Forbidden: cannot be set for a windows pod; spec.containers[0].securityContext.runAsGroup: Forbidden: cannot be set for a windows pod
      windows | "initContainers":[{"name":"i","image":"i","securityContext":{"runAsUser":1}}] | "runAsUser":1                | spec.initContainers[0].securityContext.runAsUser: Forbidden: cannot be set for a windows pod; spec.containers[0].securityContext.runAsUser: Forbidden: cannot be set for a windows pod
      linux   | "securityContext":{"seLinuxOptions":{"role":"r"},"runAsUser":1},"hostPID":true | "runAsUser":1,"privileged":false |
      linux   | "securityContext":{"windowsOptions":{"runAsUserName":"u"}}     | ~~                                            | spec.securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod
      linux   | "initContainers":[{"name":"i","image":"i","securityContext":{"windowsOptions":{}}}] | "windowsOptions":{}     | spec.initContainers[0].securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod; spec.containers[0].securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod
      mac     | "securityContext":{"windowsOptions":{}}                        | ~~                                            | spec.os: Unsupported value: "mac": supported values: "linux", "windows"
      ~~      | "hostPID":true                                                 | ~~                                            | spec.os.name: Required value: cannot be empty
      """)
  void osFields(String os, String fields, String container, String causes) {
    assertThat(StrategyCases.create(new PodStrategy(), pod(os, fields, container)))
        .containsExactlyElementsOf(causes == null ? List.of() : List.of(causes.split("; ")));
  }

  /** kube's {@code validateWindowsHostProcessPod} (cases of kube's {@code TestValidateWindowsHostProcessPod}). */
  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
      "hostNetwork":true,"securityContext":{"windowsOptions":{"hostProcess":true}}   | ~~                                 |
      "hostNetwork":true                                                           | "windowsOptions":{"hostProcess":true} |
      ~~                                                                           | "windowsOptions":{"hostProcess":false} |
      "securityContext":{"windowsOptions":{"hostProcess":true}}                    | ~~                                 | spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers
      "hostNetwork":true,"securityContext":{"windowsOptions":{"hostProcess":true}}   | "windowsOptions":{"hostProcess":false} | spec.containers[0].securityContext.windowsOptions.hostProcess: Invalid value: false: pod hostProcess value must be identical if both are specified, was true
      "hostNetwork":true,"initContainers":[{"name":"i","image":"i"}]                | "windowsOptions":{"hostProcess":true} | spec: Invalid value: "": If pod contains any hostProcess containers then all containers must be HostProcess containers
      "hostNetwork":true,"securityContext":{"windowsOptions":{"hostProcess":false}},"initContainers":[{"name":"i","image":"i","securityContext":{"windowsOptions":{"hostProcess":true}}}] | ~~ | spec.initContainers[0].securityContext.windowsOptions.hostProcess: Invalid value: true: pod hostProcess value must be identical if both are specified, was false; spec: Invalid value: "": If pod contains any hostProcess containers then all containers must be HostProcess containers
      """)
  void windowsHostProcess(String fields, String container, String causes) {
    assertThat(StrategyCases.create(new PodStrategy(), pod("windows", fields == null ? "" : fields,
        container == null ? "" : container)))
        .containsExactlyElementsOf(causes == null ? List.of() : List.of(causes.split("; ")));
  }

  @Test
  void template_hasTheRulesToo_atItsPath() {
    String deployment = "{\"metadata\":{\"name\":\"d\"},\"spec\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}},"
        + "\"template\":{\"metadata\":{\"labels\":{\"a\":\"b\"}},\"spec\":{\"os\":{\"name\":\"windows\"},"
        + "\"securityContext\":{\"runAsUser\":1},\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}}}";
    assertThat(StrategyCases.create(new DeploymentStrategy(), deployment))
        .containsExactly("spec.template.spec.securityContext.runAsUser: Forbidden: cannot be set for a windows pod");
  }

  @Test
  void endToEnd_aWindowsPodWithALinuxOnlyField_is422() {
    try (InMemoryCore core = InMemoryCore.start()) {
      StatusException e = core.refusal("POST", "/api/v1/namespaces/default/pods", Map.of(),
          pod("windows", "\"securityContext\":{\"seccompProfile\":{\"type\":\"RuntimeDefault\"}}", "")
              .replace("{\"metadata\"", "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\""));
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.getMessage()).isEqualTo("Pod \"p\" is invalid: spec.securityContext.seccompProfile: "
          + "Forbidden: cannot be set for a windows pod");
    }
  }
}
