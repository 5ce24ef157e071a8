package io.listwatch.apiserver.admission.podsecurity;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.listwatch.apiserver.InMemoryCore;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each check of the Pod Security Standards on the cases of kube's {@code policy/check_*_test.go}
 * (the pods, reasons and details carry over): a row is a pod spec (or a whole pod, where
 * annotations matter), then the reason and detail of the failure, or none for a pod that passes.
 */
class ChecksTest {

  /** What {@code check} says of {@code pod}: a spec, or a pod with "metadata" and "spec". */
  private static void assertResult(Check.PodCheck check, String pod, String reason, String detail) {
    JsonNode json = InMemoryCore.json(pod);
    boolean whole = json.has("spec");
    CheckResult r = check.check(whole ? json.path("metadata") : MissingNode.getInstance(), whole ? json.get("spec") : json);
    if (reason == null) {
      assertThat(r.allowed()).as(r.toString()).isTrue();
    } else {
      assertThat(r).isEqualTo(CheckResult.forbidden(reason, detail == null ? "" : detail));
    }
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"containers":[{"name":"a"},{"name":"b","securityContext":{}},{"name":"c","securityContext":{"allowPrivilegeEscalation":true}},{"name":"d","securityContext":{"allowPrivilegeEscalation":false}}]} | allowPrivilegeEscalation != false | containers "a", "b", "c" must set securityContext.allowPrivilegeEscalation=false
      {"os":{"name":"windows"},"containers":[{"name":"a"}]}                      |  |
      {"os":{"name":"linux"},"containers":[{"name":"a"}]}                        | allowPrivilegeEscalation != false | container "a" must set securityContext.allowPrivilegeEscalation=false
      """)
  void allowPrivilegeEscalation_1_25(String spec, String reason, String detail) {
    assertResult(Evaluator.DEFAULT.checkAt("allowPrivilegeEscalation", Version.of(25)), spec, reason, detail);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"os":{"name":"windows"},"containers":[{"name":"a"}]} | allowPrivilegeEscalation != false | container "a" must set securityContext.allowPrivilegeEscalation=false
      """)
  void allowPrivilegeEscalation_1_8_checksWindowsPodsToo(String spec, String reason, String detail) {
    assertResult(AllowPrivilegeEscalation::v1_8, spec, reason, detail);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"metadata":{},"spec":{}}                                                                      |  |
      {"metadata":{},"spec":{"securityContext":{"appArmorProfile":{"type":"RuntimeDefault"}}}}       |  |
      {"metadata":{},"spec":{"containers":[{"name":"foo","securityContext":{"appArmorProfile":{"type":"Localhost","localhostProfile":"p"}}}]}} |  |
      {"metadata":{"annotations":{"container.apparmor.security.beta.kubernetes.io/a":"runtime/default","container.apparmor.security.beta.kubernetes.io/b":"localhost/x","container.apparmor.security.beta.kubernetes.io/c":""}},"spec":{}} |  |
      {"metadata":{},"spec":{"securityContext":{"appArmorProfile":{"type":"Unconfined"}}}}           | forbidden AppArmor profile | pod must not set AppArmor profile type to "Unconfined"
      {"metadata":{},"spec":{"securityContext":{"appArmorProfile":{"type":"RuntimeDefault"}},"containers":[{"name":"foo","securityContext":{"appArmorProfile":{"type":"Unconfined"}}}]}} | forbidden AppArmor profile | container "foo" must not set AppArmor profile type to "Unconfined"
      {"metadata":{},"spec":{"containers":[{"name":"foo"}],"initContainers":[{"name":"bar","securityContext":{"appArmorProfile":{"type":"Unconfined"}}}]}} | forbidden AppArmor profile | container "bar" must not set AppArmor profile type to "Unconfined"
      {"metadata":{"annotations":{"container.apparmor.security.beta.kubernetes.io/a":"unconfined","container.apparmor.security.beta.kubernetes.io/b":"runtime/default"}},"spec":{}} | forbidden AppArmor profile | annotation must not set AppArmor profile type to "container.apparmor.security.beta.kubernetes.io/a="unconfined""
      {"metadata":{"annotations":{"container.apparmor.security.beta.kubernetes.io/b":"x","container.apparmor.security.beta.kubernetes.io/a":"y"}},"spec":{"securityContext":{"appArmorProfile":{"type":"Unconfined"}},"containers":[{"name":"c","securityContext":{"appArmorProfile":{"type":"Other"}}}]}} | forbidden AppArmor profiles | pod and container "c" and annotations must not set AppArmor profile type to "Other", "Unconfined", "container.apparmor.security.beta.kubernetes.io/a="y"", "container.apparmor.security.beta.kubernetes.io/b="x""
      """)
  void appArmorProfile(String pod, String reason, String detail) {
    assertResult(AppArmorProfile::v1_0, pod, reason, detail);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"containers":[{"name":"a","securityContext":{"capabilities":{"add":["FOO","BAR"]}}},{"name":"b","securityContext":{"capabilities":{"add":["BAR","BAZ"]}}},{"name":"c","securityContext":{"capabilities":{"add":["CHOWN"]}}}]} | non-default capabilities | containers "a", "b" must not include "BAR", "BAZ", "FOO" in securityContext.capabilities.add
      {"containers":[{"name":"a","securityContext":{"capabilities":{"add":["AUDIT_WRITE","CHOWN","DAC_OVERRIDE","FOWNER","FSETID","KILL","MKNOD","NET_BIND_SERVICE","SETFCAP","SETGID","SETPCAP","SETUID","SYS_CHROOT"]}}}]} |  |
      """)
  void capabilitiesBaseline(String spec, String reason, String detail) {
    assertResult(CapabilitiesBaseline::v1_0, spec, reason, detail);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"containers":[{"name":"a","securityContext":{"capabilities":{"add":["FOO","BAR"]}}},{"name":"b","securityContext":{"capabilities":{"add":["BAR","BAZ"]}}},{"name":"c","securityContext":{"capabilities":{"add":["NET_BIND_SERVICE","CHOWN"],"drop":["ALL","FOO"]}}}]} | unrestricted capabilities | containers "a", "b" must set securityContext.capabilities.drop=["ALL"]; containers "a", "b", "c" must not include "BAR", "BAZ", "CHOWN", "FOO" in securityContext.capabilities.add
      {"containers":[{"name":"a","securityContext":{"capabilities":{"add":["NET_BIND_SERVICE"],"drop":["ALL"]}}}]} |  |
      {"os":{"name":"windows"},"containers":[{"name":"a"}]}                                           |  |
      """)
  void capabilitiesRestricted_1_25(String spec, String reason, String detail) {
    assertResult(Evaluator.DEFAULT.checkAt("capabilities_restricted", Version.of(25)), spec, reason, detail);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"hostNetwork":true,"hostIPC":true,"hostPID":true}  | host namespaces | hostNetwork=true, hostPID=true, hostIPC=true
      {"hostNetwork":false,"hostIPC":false}               |  |
      """)
  void hostNamespaces(String spec, String reason, String detail) {
    assertResult(HostNamespaces::v1_0, spec, reason, detail);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"volumes":[{"name":"a","emptyDir":{}},{"name":"b","hostPath":{"path":"/"}}]}                       | hostPath volumes | volume "b"
      {"volumes":[{"name":"a","hostPath":{"path":"/a"}},{"name":"b","hostPath":{"path":"/b"}}]}           | hostPath volumes | volumes "a", "b"
      """)
  void hostPathVolumes(String spec, String reason, String detail) {
    assertResult(HostPathVolumes::v1_0, spec, reason, detail);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"containers":[{"name":"a","ports":[{"hostPort":0}]},{"name":"b","ports":[{"hostPort":0},{"hostPort":20}]}]} | hostPort | container "b" uses hostPort 20
      {"containers":[{"name":"a","ports":[{"hostPort":0}]},{"name":"b","ports":[{"hostPort":0},{"hostPort":10},{"hostPort":20}]},{"name":"c","ports":[{"hostPort":0},{"hostPort":10},{"hostPort":30}]}]} | hostPort | containers "b", "c" use hostPorts 10, 20, 30
      """)
  void hostPorts(String spec, String reason, String detail) {
    assertResult(HostPorts::v1_0, spec, reason, detail);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"containers":[{"name":"a"},{"name":"b","securityContext":{}},{"name":"c","securityContext":{"privileged":false}},{"name":"d","securityContext":{"privileged":true}},{"name":"e","securityContext":{"privileged":true}}]} | privileged | containers "d", "e" must not set securityContext.privileged=true
      {"initContainers":[{"name":"i","securityContext":{"privileged":true}}],"containers":[{"name":"a"}]} | privileged | container "i" must not set securityContext.privileged=true
      """)
  void privileged(String spec, String reason, String detail) {
    assertResult(Privileged::v1_0, spec, reason, detail);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"containers":[{"name":"a"},{"name":"b","securityContext":{}},{"name":"c","securityContext":{"procMount":"Default"}},{"name":"d","securityContext":{"procMount":"Unmasked"}},{"name":"e","securityContext":{"procMount":"other"}}]} | procMount | containers "d", "e" must not set securityContext.procMount to "Unmasked", "other"
      {"hostUsers":false,"containers":[{"name":"a","securityContext":{"procMount":"Unmasked"}}]} | procMount | container "a" must not set securityContext.procMount to "Unmasked"
      """)
  void procMount(String spec, String reason, String detail) {
    assertResult(ProcMount::v1_0, spec, reason, detail);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"volumes":[{"name":"a1","emptyDir":{}},{"name":"a2","secret":{}},{"name":"a3","persistentVolumeClaim":{}},{"name":"a4","downwardAPI":{}},{"name":"a5","configMap":{}},{"name":"a6","projected":{}},{"name":"a7","csi":{}},{"name":"a8","ephemeral":{}},{"name":"b1","hostPath":{}},{"name":"b2","gcePersistentDisk":{}},{"name":"b3","awsElasticBlockStore":{}},{"name":"b4","gitRepo":{}},{"name":"b5","nfs":{}},{"name":"b6","iscsi":{}},{"name":"b7","glusterfs":{}},{"name":"b8","rbd":{}},{"name":"b9","flexVolume":{}},{"name":"b10","cinder":{}},{"name":"b11","cephfs":{}},{"name":"b12","flocker":{}},{"name":"b13","fc":{}},{"name":"b14","azureFile":{}},{"name":"b15","vsphereVolume":{}},{"name":"b16","quobyte":{}},{"name":"b17","azureDisk":{}},{"name":"b18","photonPersistentDisk":{}},{"name":"b19","portworxVolume":{}},{"name":"b20","scaleIO":{}},{"name":"b21","storageos":{}},{"name":"c1"}]} | restricted volume types | volumes "b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8", "b9", "b10", "b11", "b12", "b13", "b14", "b15", "b16", "b17", "b18", "b19", "b20", "b21", "c1" use restricted volume types "awsElasticBlockStore", "azureDisk", "azureFile", "cephfs", "cinder", "fc", "flexVolume", "flocker", "gcePersistentDisk", "gitRepo", "glusterfs", "hostPath", "iscsi", "nfs", "photonPersistentDisk", "portworxVolume", "quobyte", "rbd", "scaleIO", "storageos", "unknown", "vsphereVolume"
      {"volumes":[{"name":"i","image":{"reference":"x"}}]} | restricted volume types | volume "i" uses restricted volume type "unknown"
      """)
  void restrictedVolumes(String spec, String reason, String detail) {
    assertResult(RestrictedVolumes::v1_0, spec, reason, detail);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"containers":[{"name":"a"}]}                                                              | runAsNonRoot != true | pod or container "a" must set securityContext.runAsNonRoot=true
      {"securityContext":{"runAsNonRoot":false},"containers":[{"name":"a"}]}                     | runAsNonRoot != true | pod must not set securityContext.runAsNonRoot=false
      {"securityContext":{"runAsNonRoot":true},"containers":[{"name":"a"},{"name":"b","securityContext":{}},{"name":"c","securityContext":{"runAsNonRoot":false}},{"name":"d","securityContext":{"runAsNonRoot":false}},{"name":"e","securityContext":{"runAsNonRoot":true}},{"name":"f","securityContext":{"runAsNonRoot":true}}]} | runAsNonRoot != true | containers "c", "d" must not set securityContext.runAsNonRoot=false
      {"containers":[{"name":"a"},{"name":"b","securityContext":{}},{"name":"d","securityContext":{"runAsNonRoot":true}},{"name":"e","securityContext":{"runAsNonRoot":true}}]} | runAsNonRoot != true | pod or containers "a", "b" must set securityContext.runAsNonRoot=true
      {"securityContext":{"runAsNonRoot":true},"containers":[{"name":"a"}]}                      |  |
      """)
  void runAsNonRoot(String spec, String reason, String detail) {
    assertResult(RunAsNonRoot::v1_0, spec, reason, detail);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"securityContext":{"runAsUser":0},"containers":[{"name":"a"},{"name":"b","securityContext":{"runAsUser":0}},{"name":"c","securityContext":{"runAsUser":0}},{"name":"d","securityContext":{"runAsUser":1}}]} | runAsUser=0 | pod and containers "b", "c" must not set runAsUser=0
      {"securityContext":{"runAsUser":0},"containers":[{"name":"a","securityContext":{"runAsUser":1}}]} | runAsUser=0 | pod must not set runAsUser=0
      {"securityContext":{"runAsUser":1},"containers":[{"name":"a","securityContext":{"runAsUser":0}}]} | runAsUser=0 | container "a" must not set runAsUser=0
      {"securityContext":{"runAsUser":1000},"containers":[{"name":"a"}]}                            |  |
      """)
  void runAsUser(String spec, String reason, String detail) {
    assertResult(RunAsUser::v1_23, spec, reason, detail);
  }

  private static final String SELINUX_OK = "{\"name\":\"a\",\"securityContext\":{\"seLinuxOptions\":{\"type\":\"container_t\"}}},"
      + "{\"name\":\"b\",\"securityContext\":{\"seLinuxOptions\":{\"type\":\"container_init_t\"}}},"
      + "{\"name\":\"c\",\"securityContext\":{\"seLinuxOptions\":{\"type\":\"container_kvm_t\"}}},"
      + "{\"name\":\"d\",\"securityContext\":{\"seLinuxOptions\":{\"type\":\"container_engine_t\"}}}";
  private static final String SELINUX_BAD = "{\"name\":\"e\",\"securityContext\":{\"seLinuxOptions\":{\"type\":\"bar\"}}},"
      + "{\"name\":\"f\",\"securityContext\":{\"seLinuxOptions\":{\"user\":\"bar\"}}},"
      + "{\"name\":\"g\",\"securityContext\":{\"seLinuxOptions\":{\"role\":\"baz\"}}}";

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"type":"foo","user":"bar","role":"baz"} | OK,BAD | seLinuxOptions | pod and containers "e", "f", "g" set forbidden securityContext.seLinuxOptions: types "bar", "foo"; user may not be set; role may not be set
      {"type":"foo","user":"bar","role":"baz"} | OK     | seLinuxOptions | pod set forbidden securityContext.seLinuxOptions: type "foo"; user may not be set; role may not be set
      {}                                       | OK,BAD | seLinuxOptions | containers "e", "f", "g" set forbidden securityContext.seLinuxOptions: type "bar"; user may not be set; role may not be set
      {"type":"bad"}                           |        | seLinuxOptions | pod set forbidden securityContext.seLinuxOptions: type "bad"
      {"user":"bad"}                           |        | seLinuxOptions | pod set forbidden securityContext.seLinuxOptions: user may not be set
      {"role":"bad"}                           |        | seLinuxOptions | pod set forbidden securityContext.seLinuxOptions: role may not be set
      {}                                       | OK     |                |
      """)
  void seLinuxOptions_1_31(String podOptions, String containers, String reason, String detail) {
    String list = containers == null ? "" : containers.replace("OK", SELINUX_OK).replace("BAD", SELINUX_BAD);
    String spec = "{\"securityContext\":{\"seLinuxOptions\":" + podOptions + "},\"containers\":[" + list + "]}";
    assertResult(Evaluator.DEFAULT.checkAt("seLinuxOptions", Version.of(31)), spec, reason, detail);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"containers":[{"name":"d","securityContext":{"seLinuxOptions":{"type":"container_engine_t"}}}]} | seLinuxOptions | container "d" set forbidden securityContext.seLinuxOptions: type "container_engine_t"
      """)
  void seLinuxOptions_before1_31_refusesTheContainerEngineType(String spec, String reason, String detail) {
    assertResult(Evaluator.DEFAULT.checkAt("seLinuxOptions", Version.of(30)), spec, reason, detail);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"metadata":{"annotations":{"seccomp.security.alpha.kubernetes.io/pod":"unconfined","container.seccomp.security.alpha.kubernetes.io/a":"runtime/default","container.seccomp.security.alpha.kubernetes.io/b":"bad"}},"spec":{"containers":[{"name":"a"},{"name":"b"}]}} | seccompProfile | forbidden annotations container.seccomp.security.alpha.kubernetes.io/b="bad", seccomp.security.alpha.kubernetes.io/pod="unconfined"
      {"metadata":{"annotations":{"seccomp.security.alpha.kubernetes.io/pod":"localhost/x","container.seccomp.security.alpha.kubernetes.io/a":"docker/default"}},"spec":{"containers":[{"name":"a"}]}} |  |
      """)
  void seccompProfileBaseline_1_0(String pod, String reason, String detail) {
    assertResult(SeccompProfileBaseline::v1_0, pod, reason, detail);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"securityContext":{"seccompProfile":{"type":"Unconfined"}},"containers":[{"name":"a"}]} | seccompProfile | pod must not set securityContext.seccompProfile.type to "Unconfined"
      {"securityContext":{"seccompProfile":{"type":"Unconfined"}},"containers":[{"name":"a","securityContext":{"seccompProfile":{"type":"Unconfined"}}},{"name":"b","securityContext":{"seccompProfile":{"type":"RuntimeDefault"}}}]} | seccompProfile | pod and container "a" must not set securityContext.seccompProfile.type to "Unconfined"
      {"containers":[{"name":"a"}]}                                                             |  |
      """)
  void seccompProfileBaseline_1_19(String spec, String reason, String detail) {
    assertResult(SeccompProfileBaseline::v1_19, spec, reason, detail);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"containers":[{"name":"a"}]}                                                             | seccompProfile | pod or container "a" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"
      {"securityContext":{"seccompProfile":{"type":"Unconfined"}},"containers":[{"name":"a"}]} | seccompProfile | pod must not set securityContext.seccompProfile.type to "Unconfined"
      {"securityContext":{"seccompProfile":{"type":"RuntimeDefault"}},"containers":[{"name":"a"},{"name":"b","securityContext":{}},{"name":"c","securityContext":{"seccompProfile":{"type":"Unconfined"}}},{"name":"d","securityContext":{"seccompProfile":{"type":"Unconfined"}}},{"name":"e","securityContext":{"seccompProfile":{"type":"RuntimeDefault"}}},{"name":"f","securityContext":{"seccompProfile":{"type":"RuntimeDefault"}}}]} | seccompProfile | containers "c", "d" must not set securityContext.seccompProfile.type to "Unconfined"
      {"containers":[{"name":"a"},{"name":"b","securityContext":{}},{"name":"d","securityContext":{"seccompProfile":{"type":"RuntimeDefault"}}},{"name":"e","securityContext":{"seccompProfile":{"type":"RuntimeDefault"}}}]} | seccompProfile | pod or containers "a", "b" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"
      {"os":{"name":"windows"},"containers":[{"name":"a"}]}                                     |  |
      """)
  void seccompProfileRestricted_1_25(String spec, String reason, String detail) {
    assertResult(Evaluator.DEFAULT.checkAt("seccompProfile_restricted", Version.of(25)), spec, reason, detail);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      0  | {"securityContext":{"sysctls":[{"name":"a"},{"name":"b"}]}}                                         | forbidden sysctls | a, b
      0  | {"securityContext":{"sysctls":[{"name":"kernel.shm_rmid_forced"},{"name":"net.ipv4.ip_local_port_range"},{"name":"net.ipv4.tcp_syncookies"},{"name":"net.ipv4.ping_group_range"},{"name":"net.ipv4.ip_unprivileged_port_start"}]}} |  |
      0  | {"securityContext":{"sysctls":[{"name":"net.ipv4.ip_local_reserved_ports"}]}}                      | forbidden sysctls | net.ipv4.ip_local_reserved_ports
      27 | {"securityContext":{"sysctls":[{"name":"net.ipv4.ip_local_reserved_ports"}]}}                      |  |
      27 | {"securityContext":{"sysctls":[{"name":"net.ipv4.tcp_keepalive_time"}]}}                           | forbidden sysctls | net.ipv4.tcp_keepalive_time
      29 | {"securityContext":{"sysctls":[{"name":"net.ipv4.tcp_keepalive_time"},{"name":"net.ipv4.tcp_fin_timeout"},{"name":"net.ipv4.tcp_keepalive_intvl"},{"name":"net.ipv4.tcp_keepalive_probes"}]}} |  |
      29 | {"securityContext":{"sysctls":[{"name":"net.ipv4.tcp_rmem"},{"name":"net.ipv4.tcp_wmem"}]}}        | forbidden sysctls | net.ipv4.tcp_rmem, net.ipv4.tcp_wmem
      32 | {"securityContext":{"sysctls":[{"name":"net.ipv4.tcp_rmem"},{"name":"net.ipv4.tcp_wmem"}]}}        |  |
      """)
  void sysctls(int minor, String spec, String reason, String detail) {
    assertResult(Evaluator.DEFAULT.checkAt("sysctls", Version.of(minor)), spec, reason, detail);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"containers":[{"name":"a","securityContext":{"windowsOptions":{}}},{"name":"b","securityContext":{"windowsOptions":{"hostProcess":false}}},{"name":"c","securityContext":{"windowsOptions":{"hostProcess":true}}},{"name":"d","securityContext":{"windowsOptions":{"hostProcess":true}}}]} | hostProcess | containers "c", "d" must not set securityContext.windowsOptions.hostProcess=true
      {"securityContext":{"windowsOptions":{"hostProcess":true}},"containers":[{"name":"a"}]}      | hostProcess | pod must not set securityContext.windowsOptions.hostProcess=true
      {"securityContext":{"windowsOptions":{"hostProcess":true}},"containers":[{"name":"a","securityContext":{"windowsOptions":{"hostProcess":true}}}]} | hostProcess | pod and container "a" must not set securityContext.windowsOptions.hostProcess=true
      """)
  void windowsHostProcess(String spec, String reason, String detail) {
    assertResult(WindowsHostProcess::v1_0, spec, reason, detail);
  }
}
