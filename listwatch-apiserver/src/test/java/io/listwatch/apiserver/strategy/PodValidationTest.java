package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.request.ApiResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube 1.32's pod create validation ({@code ValidatePodCreate}, {@code ValidatePodSpec}) as a
 * client meets it: each case is a pod kube refuses, with the one cause (field and message) its
 * 422 carries, from the cases of kube's {@code validation_test.go}. A message ending in
 * {@code ...} is matched by its start. And pods kube accepts, stored as kube stores them.
 */
class PodValidationTest {

  private static final String PODS = "/api/v1/namespaces/default/pods";
  private static final String POD = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":%s}";

  private final InMemoryCore core = InMemoryCore.start();

  @AfterEach
  void stop() {
    core.close();
  }

  private List<String> causes(String spec) {
    StatusException e = core.refusal("POST", PODS, Map.of(), POD.formatted(spec));
    assertThat(e.code()).isEqualTo(422);
    assertThat(e.status().reason()).isEqualTo("Invalid");
    return e.status().details().causes().stream().map(c -> c.field() + ": " + c.message()).toList();
  }

  private static void assertOnly(List<String> causes, String expected) {
    assertThat(causes).hasSize(1);
    if (expected.endsWith("...")) {
      assertThat(causes.get(0)).startsWith(expected.substring(0, expected.length() - 3));
    } else {
      assertThat(causes.get(0)).isEqualTo(expected);
    }
  }

  private ObjectNode created(String spec) {
    ApiResponse r = core.send("POST", PODS, Map.of(), POD.formatted(spec));
    assertThat(r.code()).isEqualTo(201);
    return InMemoryCore.json(new String(r.jsonParts().orElseThrow()[0], StandardCharsets.UTF_8));
  }

  /** One container {@code {"name":"c","image":"nginx",<fields>}}, the rest of the spec valid. */
  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "ports":[{"containerPort":0}]                                   | spec.containers[0].ports[0].containerPort: Required value
      "ports":[{"containerPort":70000}]                               | spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive
      "ports":[{"containerPort":80,"hostPort":70000}]                 | spec.containers[0].ports[0].hostPort: Invalid value: 70000: must be between 1 and 65535, inclusive
      "ports":[{"containerPort":80,"protocol":"HTTP"}]                | spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"
      "ports":[{"containerPort":80,"name":"http_1"}]                  | spec.containers[0].ports[0].name: Invalid value: "http_1": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)
      "ports":[{"containerPort":80,"name":"123"}]                     | spec.containers[0].ports[0].name: Invalid value: "123": must contain at least one letter (a-z)
      "ports":[{"containerPort":80,"name":"a"},{"containerPort":81,"name":"a"}] | spec.containers[0].ports[1].name: Duplicate value: "a"
      "ports":[{"containerPort":80,"hostPort":80},{"containerPort":81,"hostPort":80}] | spec.containers[0].ports[1].hostPort: Duplicate value: "TCP//80"
      "env":[{"name":"A=B","value":"x"}]                              | spec.containers[0].env[0].name: Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than '='
      "env":[{"value":"x"}]                                           | spec.containers[0].env[0].name: Required value
      "env":[{"name":"A","valueFrom":{}}]                             | spec.containers[0].env[0].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`
      "env":[{"name":"A","value":"x","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}] | spec.containers[0].env[0].valueFrom: Invalid value: "": may not be specified when `value` is not empty
      "env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"},"secretKeyRef":{"name":"s","key":"k"}}}] | spec.containers[0].env[0].valueFrom: Invalid value: "": may not have more than one field specified at a time
      "env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"status.phase"}}}] | spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Unsupported value: "status.phase": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"
      "env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"metadata.foo"}}}] | spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.foo": error converting fieldPath: field label not supported: metadata.foo
      "env":[{"name":"A","valueFrom":{"secretKeyRef":{"name":"s"}}}]  | spec.containers[0].env[0].valueFrom.secretKeyRef.key: Required value
      "env":[{"name":"A","valueFrom":{"resourceFieldRef":{"resource":"limits.gpu"}}}] | spec.containers[0].env[0].valueFrom.resourceFieldRef.resource: Unsupported value: "limits.gpu": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"
      "envFrom":[{"prefix":"P_"}]                                     | spec.containers[0].envFrom: Invalid value: "": must specify one of: `configMapRef` or `secretRef`
      "envFrom":[{"configMapRef":{}}]                                 | spec.containers[0].envFrom[0].configMapRef.name: Required value
      "volumeMounts":[{"name":"v","mountPath":"/v"}]                  | spec.containers[0].volumeMounts[0].name: Not found: "v"
      "resources":{"requests":{"cpu":"2"},"limits":{"cpu":"1"}}       | spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1
      "resources":{"requests":{"memory":"2Gi"},"limits":{"memory":"1Gi"}} | spec.containers[0].resources.requests: Invalid value: "2Gi": must be less than or equal to memory limit of 1Gi
      "resources":{"requests":{"memory":"-1"}}                        | spec.containers[0].resources.requests[memory]: Invalid value: "-1": must be greater than or equal to 0
      "resources":{"requests":{"example.com/gpu":"1"}}                | spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources
      "resources":{"requests":{"example.com/gpu":"1"},"limits":{"example.com/gpu":"2"}} | spec.containers[0].resources.requests: Invalid value: "1": must be equal to example.com/gpu limit of 2
      "livenessProbe":{}                                              | spec.containers[0].livenessProbe: Required value: must specify a handler type
      "livenessProbe":{"tcpSocket":{"port":80},"successThreshold":2}  | spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1
      "startupProbe":{"tcpSocket":{"port":80},"successThreshold":3}   | spec.containers[0].startupProbe.successThreshold: Invalid value: 3: must be 1
      "readinessProbe":{"exec":{"command":["true"]},"tcpSocket":{"port":80}} | spec.containers[0].readinessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type
      "readinessProbe":{"exec":{}}                                    | spec.containers[0].readinessProbe.exec.command: Required value
      "readinessProbe":{"tcpSocket":{"port":80},"periodSeconds":-1}   | spec.containers[0].readinessProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0
      "readinessProbe":{"tcpSocket":{"port":80},"terminationGracePeriodSeconds":10} | spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 10: must not be set for readinessProbes
      "readinessProbe":{"httpGet":{"port":80,"scheme":"FTP"}}         | spec.containers[0].readinessProbe.httpGet.scheme: Unsupported value: "FTP": supported values: "HTTP", "HTTPS"
      "readinessProbe":{"httpGet":{"port":0}}                         | spec.containers[0].readinessProbe.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive
      "readinessProbe":{"tcpSocket":{"port":"Http"}}                  | spec.containers[0].readinessProbe.tcpSocket.port: Invalid value: "Http": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)
      "lifecycle":{"preStop":{}}                                      | spec.containers[0].lifecycle.preStop: Required value: must specify a handler type
      "lifecycle":{"preStop":{"sleep":{"seconds":100}}}               | spec.containers[0].lifecycle.preStop.sleep: Invalid value: 100: must be greater than 0 and less than terminationGracePeriodSeconds (30)...
      "terminationMessagePolicy":"Foo"                                | spec.containers[0].terminationMessagePolicy: Unsupported value: "Foo": supported values: "File", "FallbackToLogsOnError"
      "imagePullPolicy":"Sometimes"                                   | spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"
      "securityContext":{"runAsUser":-1}                              | spec.containers[0].securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive
      "securityContext":{"procMount":"Foo"}                           | spec.containers[0].securityContext.procMount: Unsupported value: "Foo": supported values: "Default", "Unmasked"
      "securityContext":{"procMount":"Unmasked"}                      | spec.containers[0].securityContext.procMount: Invalid value: "Unmasked": `hostUsers` must be false to use `Unmasked`
      "securityContext":{"seccompProfile":{"type":"Localhost"}}       | spec.containers[0].securityContext.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost
      "securityContext":{"appArmorProfile":{}}                        | spec.containers[0].securityContext.appArmorProfile.type: Required value: type is required when appArmorProfile is set
      "restartPolicy":"Always"                                        | spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers
      "image":" nginx"                                                | spec.containers[0].image: Invalid value: " nginx": must not have leading or trailing whitespace
      """)
  void container(String fields, String cause) {
    String container = "{\"name\":\"c\",\"image\":\"nginx\"," + fields + "}";
    if (fields.startsWith("\"image\"")) {
      container = "{\"name\":\"c\"," + fields + "}";
    }
    assertOnly(causes("{\"containers\":[" + container + "]}"), cause);
  }

  /** A whole spec (its containers valid unless the case is about them). */
  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"initContainers":[{"name":"c","image":"a"}],"containers":[{"name":"c","image":"b"}]}      | spec.initContainers[0].name: Duplicate value: "c"
      {"initContainers":[{"name":"i","image":"a","restartPolicy":"Never"}],"containers":[{"name":"c","image":"b"}]} | spec.initContainers[0].restartPolicy: Unsupported value: "Never": supported values: "Always"
      {"initContainers":[{"name":"i","image":"a","livenessProbe":{"exec":{"command":["x"]}}}],"containers":[{"name":"c","image":"b"}]} | spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always
      {"containers":[{"name":"c","image":"b"}],"ephemeralContainers":[{"name":"e","image":"busybox"}]} | spec.ephemeralContainers: Forbidden: cannot be set on create
      {"containers":[{"name":"c","image":"b","ports":[{"containerPort":80,"hostPort":80}]},{"name":"d","image":"b","ports":[{"containerPort":81,"hostPort":80}]}]} | spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//80"
      {"hostNetwork":true,"containers":[{"name":"c","image":"b","ports":[{"containerPort":80,"hostPort":81}]}]} | spec.containers[0].ports[0].hostPort: Invalid value: 81: must match `containerPort` when `hostNetwork` is true
      {"restartPolicy":"Sometimes","containers":[{"name":"c","image":"b"}]}                      | spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"
      {"dnsPolicy":"Foo","containers":[{"name":"c","image":"b"}]}                                | spec.dnsPolicy: Unsupported value: "Foo": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"
      {"dnsPolicy":"None","containers":[{"name":"c","image":"b"}]}                               | spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None
      {"dnsPolicy":"None","dnsConfig":{"searches":["a.b"]},"containers":[{"name":"c","image":"b"}]} | spec.dnsConfig.nameservers: Required value: must provide at least one DNS nameserver when `dnsPolicy` is None
      {"dnsConfig":{"nameservers":["1.1.1.1","1.1.1.2","1.1.1.3","1.1.1.4"]},"containers":[{"name":"c","image":"b"}]} | spec.dnsConfig.nameservers: Invalid value: []string{"1.1.1.1", "1.1.1.2", "1.1.1.3", "1.1.1.4"}: must not have more than 3 nameservers
      {"dnsConfig":{"nameservers":["dns.local"]},"containers":[{"name":"c","image":"b"}]}        | spec.dnsConfig.nameservers[0]: Invalid value: "dns.local": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)
      {"dnsConfig":{"options":[{"value":"1"}]},"containers":[{"name":"c","image":"b"}]}         | spec.dnsConfig.options[0]: Required value: must not be empty
      {"hostAliases":[{"ip":"999.1.1.1","hostnames":["a"]}],"containers":[{"name":"c","image":"b"}]} | spec.hostAliases[0].ip: Invalid value: "999.1.1.1": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)
      {"volumes":[{"name":"v","emptyDir":{}},{"name":"v","emptyDir":{}}],"containers":[{"name":"c","image":"b"}]} | spec.volumes[1].name: Duplicate value: "v"
      {"volumes":[{"name":"v"}],"containers":[{"name":"c","image":"b"}]}                         | spec.volumes[0]: Required value: must specify a volume type
      {"volumes":[{"name":"v","emptyDir":{},"hostPath":{"path":"/x"}}],"containers":[{"name":"c","image":"b"}]} | spec.volumes[0].hostPath: Forbidden: may not specify more than 1 volume type
      {"volumes":[{"name":"v","emptyDir":{},"downwardAPI":{}}],"containers":[{"name":"c","image":"b"}]} | spec.volumes[0].downwarAPI: Forbidden: may not specify more than 1 volume type
      {"volumes":[{"name":"v","nfs":{"server":"nfs.local","path":"data"}}],"containers":[{"name":"c","image":"b"}]} | spec.volumes[0].nfs.path: Invalid value: "data": must be an absolute path
      {"volumes":[{"name":"v","hostPath":{"path":""}}],"containers":[{"name":"c","image":"b"}]}  | spec.volumes[0].hostPath.path: Required value
      {"volumes":[{"name":"v","hostPath":{"path":"/a/../b"}}],"containers":[{"name":"c","image":"b"}]} | spec.volumes[0].hostPath.path: Invalid value: "/a/../b": must not contain '..'
      {"volumes":[{"name":"v","hostPath":{"path":"/x","type":"Foo"}}],"containers":[{"name":"c","image":"b"}]} | spec.volumes[0].hostPath.type: Unsupported value: "Foo": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"
      {"volumes":[{"name":"v","configMap":{}}],"containers":[{"name":"c","image":"b"}]}          | spec.volumes[0].configMap.name: Required value
      {"volumes":[{"name":"v","secret":{"secretName":"s","defaultMode":512}}],"containers":[{"name":"c","image":"b"}]} | spec.volumes[0].secret.defaultMode: Invalid value: 512: must be a number between 0 and 0777 (octal), both inclusive
      {"volumes":[{"name":"v","secret":{"secretName":"s","items":[{"key":"k","path":"/abs"}]}}],"containers":[{"name":"c","image":"b"}]} | spec.volumes[0].secret.items[0].path: Invalid value: "/abs": must be a relative path
      {"volumes":[{"name":"v","persistentVolumeClaim":{}}],"containers":[{"name":"c","image":"b"}]} | spec.volumes[0].persistentVolumeClaim.claimName: Required value
      {"volumes":[{"name":"v","emptyDir":{"sizeLimit":"-1Gi"}}],"containers":[{"name":"c","image":"b"}]} | spec.volumes[0].emptyDir.sizeLimit: Forbidden: SizeLimit field must be a valid resource quantity
      {"volumes":[{"name":"v","downwardAPI":{"items":[{"path":"x"}]}}],"containers":[{"name":"c","image":"b"}]} | spec.volumes[0].downwardAPI.items[0]: Required value: one of fieldRef and resourceFieldRef is required
      {"volumes":[{"name":"v","csi":{}}],"containers":[{"name":"c","image":"b"}]}                | spec.volumes[0].csi.driver: Required value
      {"volumes":[{"name":"v","emptyDir":{}}],"containers":[{"name":"c","image":"b","volumeMounts":[{"name":"v","mountPath":"/a"},{"name":"v","mountPath":"/a"}]}]} | spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/a": must be unique
      {"volumes":[{"name":"v","emptyDir":{}}],"containers":[{"name":"c","image":"b","volumeMounts":[{"name":"v"}]}]} | spec.containers[0].volumeMounts[0].mountPath: Required value
      {"tolerations":[{"key":"k","operator":"Exists","value":"v"}],"containers":[{"name":"c","image":"b"}]} | spec.tolerations[0].operator: Invalid value: "v": value must be empty when `operator` is 'Exists'
      {"tolerations":[{"operator":"Equal","value":"v"}],"containers":[{"name":"c","image":"b"}]} | spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"
      {"tolerations":[{"key":"k","effect":"Foo"}],"containers":[{"name":"c","image":"b"}]}       | spec.tolerations[0].effect: Unsupported value: "Foo": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"
      {"tolerations":[{"key":"k","effect":"NoSchedule","tolerationSeconds":5}],"containers":[{"name":"c","image":"b"}]} | spec.tolerations[0].effect: Invalid value: "NoSchedule": effect must be 'NoExecute' when `tolerationSeconds` is set
      {"tolerations":[{"key":"k","operator":"Foo"}],"containers":[{"name":"c","image":"b"}]}     | spec.tolerations[0].operator: Unsupported value: "Foo": supported values: "Equal", "Exists"
      {"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[]}}},"containers":[{"name":"c","image":"b"}]} | spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term
      {"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"k","operator":"Foo"}]}]}}},"containers":[{"name":"c","image":"b"}]} | spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator: Invalid value: "Foo": not a valid selector operator
      {"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"k","operator":"In"}]}]}}},"containers":[{"name":"c","image":"b"}]} | spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'
      {"affinity":{"nodeAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":0,"preference":{}}]}},"containers":[{"name":"c","image":"b"}]} | spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100
      {"affinity":{"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":101,"podAffinityTerm":{"topologyKey":"zone"}}]}},"containers":[{"name":"c","image":"b"}]} | spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 101: must be in the range 1-100
      {"affinity":{"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":"zone","labelSelector":{"matchExpressions":[{"key":"a","operator":"Exists","values":["x"]}]}}]}},"containers":[{"name":"c","image":"b"}]} | spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'
      {"topologySpreadConstraints":[{"maxSkew":0,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule"}],"containers":[{"name":"c","image":"b"}]} | spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero
      {"topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"Foo"}],"containers":[{"name":"c","image":"b"}]} | spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "Foo": supported values: "DoNotSchedule", "ScheduleAnyway"
      {"topologySpreadConstraints":[{"maxSkew":1,"whenUnsatisfiable":"DoNotSchedule"}],"containers":[{"name":"c","image":"b"}]} | spec.topologySpreadConstraints[0].topologyKey: Required value: can not be empty
      {"topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule"},{"maxSkew":2,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule"}],"containers":[{"name":"c","image":"b"}]} | spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, DoNotSchedule}"
      {"topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"ScheduleAnyway","minDomains":2}],"containers":[{"name":"c","image":"b"}]} | spec.topologySpreadConstraints[0].minDomains: Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway
      {"nodeSelector":{"disk":"ssd fast"},"containers":[{"name":"c","image":"b"}]}               | spec.nodeSelector: Invalid value: "ssd fast": a valid label must be an empty string or consist of alphanumeric characters...
      {"activeDeadlineSeconds":0,"containers":[{"name":"c","image":"b"}]}                        | spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive
      {"serviceAccountName":"Bad_SA","containers":[{"name":"c","image":"b"}]}                    | spec.serviceAccountName: Invalid value: "Bad_SA": a lowercase RFC 1123 subdomain...
      {"hostname":"Host.1","containers":[{"name":"c","image":"b"}]}                              | spec.hostname: Invalid value: "Host.1": a lowercase RFC 1123 label...
      {"schedulingGates":[{"name":"g"},{"name":"g"}],"containers":[{"name":"c","image":"b"}]}    | spec.schedulingGates[1]: Duplicate value: "g"
      {"nodeName":"n1","schedulingGates":[{"name":"g"}],"containers":[{"name":"c","image":"b"}]} | spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared
      {"readinessGates":[{"conditionType":"a b"}],"containers":[{"name":"c","image":"b"}]}       | spec.readinessGates[0].conditionType: Invalid value: "a b": name part must consist of alphanumeric characters...
      {"securityContext":{"runAsGroup":-2},"containers":[{"name":"c","image":"b"}]}              | spec.securityContext.runAsGroup: Invalid value: -2: must be between 0 and 2147483647, inclusive
      {"shareProcessNamespace":true,"hostPID":true,"containers":[{"name":"c","image":"b"}]}      | spec.securityContext.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled
      {"securityContext":{"sysctls":[{"name":"net.ipv4.ip_forward","value":"1"},{"name":"net.ipv4.ip_forward","value":"1"}]},"containers":[{"name":"c","image":"b"}]} | spec.securityContext.sysctls[1].name: Duplicate value: "net.ipv4.ip_forward"
      {"securityContext":{"fsGroupChangePolicy":"Sometimes"},"containers":[{"name":"c","image":"b"}]} | spec.securityContext.fsGroupChangePolicy: Unsupported value: "Sometimes": supported values: "Always", "OnRootMismatch"
      {"securityContext":{"seccompProfile":{"type":"Foo"}},"containers":[{"name":"c","image":"b"}]} | spec.securityContext.seccompProfile.type: Unsupported value: "Foo": supported values: "Localhost", "RuntimeDefault", "Unconfined"
      {"hostUsers":false,"hostPID":true,"containers":[{"name":"c","image":"b"}]}                  | spec.HostPID: Forbidden: when `pod.Spec.HostUsers` is false
      {"os":{"name":"mac"},"containers":[{"name":"c","image":"b"}]}                              | spec.os: Unsupported value: "mac": supported values: "linux", "windows"
      {"overhead":{"cpu":"-1"},"containers":[{"name":"c","image":"b"}]}                          | spec.overhead[cpu]: Invalid value: "-1": must be greater than or equal to 0
      """)
  void spec(String spec, String cause) {
    assertOnly(causes(spec), cause);
  }

  @Test
  void preemptionPolicy_isValidated_thoughThroughTheServerPriorityAdmissionRefusesAnyOtherFirst() {
    // kube's Priority plug-in (mutating, before validation) computes the policy and refuses a pod that states another
    assertThat(StrategyCases.create(new PodStrategy(), "{\"metadata\":{\"name\":\"p\"},\"spec\":{\"preemptionPolicy\":"
        + "\"Always\",\"containers\":[{\"name\":\"c\",\"image\":\"b\"}]}}")).containsExactly(
        "spec.preemptionPolicy: Unsupported value: \"Always\": supported values: \"PreemptLowerPriority\", \"Never\"");
  }

  @Test
  void errorsOfOneWrite_comeTogether_inKubesOrder() {
    List<String> causes = causes("{\"volumes\":[{\"name\":\"v\"}],\"containers\":[{\"name\":\"c\",\"image\":\"b\","
        + "\"volumeMounts\":[{\"name\":\"v\",\"mountPath\":\"/v\"}]}],\"restartPolicy\":\"x\"}");
    // an invalid volume is not one a container may mount
    assertThat(causes).containsExactly("spec.volumes[0]: Required value: must specify a volume type",
        "spec.containers[0].volumeMounts[0].name: Not found: \"v\"",
        "spec.restartPolicy: Unsupported value: \"x\": supported values: \"Always\", \"OnFailure\", \"Never\"");
  }

  @Test
  void resourceName_thatIsNotAContainerResource_isRefusedTwice_asKubeDoes() {
    assertThat(causes("{\"containers\":[{\"name\":\"c\",\"image\":\"b\",\"resources\":{\"limits\":{\"foo\":\"1\"}}}]}"))
        .containsExactly(
            "spec.containers[0].resources.limits[foo]: Invalid value: \"foo\": must be a standard resource type or fully qualified",
            "spec.containers[0].resources.limits[foo]: Invalid value: \"foo\": must be a standard resource for containers",
            // a pod's requests default to its limits before validation, so kube refuses the request too
            "spec.containers[0].resources.requests[foo]: Invalid value: \"foo\": must be a standard resource type or fully qualified",
            "spec.containers[0].resources.requests[foo]: Invalid value: \"foo\": must be a standard resource for containers");
  }

  @Test
  void aPodUsingMostOfTheSpec_isAccepted_withKubesDefaults() {
    ObjectNode pod = created("""
        {"volumes":[{"name":"data","emptyDir":{"sizeLimit":"1Gi"}},{"name":"cfg","configMap":{"name":"c","items":[{"key":"k","path":"a/b"}]}},
          {"name":"sec","secret":{"secretName":"s"}},{"name":"pvc","persistentVolumeClaim":{"claimName":"claim"}},
          {"name":"dw","downwardAPI":{"items":[{"path":"labels","fieldRef":{"fieldPath":"metadata.labels"}}]}},
          {"name":"proj","projected":{"sources":[{"configMap":{"name":"c"}},{"secret":{"name":"s"}}]}},
          {"name":"host","hostPath":{"path":"/var/log","type":"Directory"}}],
         "initContainers":[{"name":"init","image":"busybox","command":["true"]},
          {"name":"sidecar","image":"envoy","restartPolicy":"Always","readinessProbe":{"tcpSocket":{"port":9901}}}],
         "containers":[{"name":"app","image":"nginx:1.27","ports":[{"name":"http","containerPort":80},{"containerPort":53,"protocol":"UDP","hostPort":5353}],
           "env":[{"name":"A","value":"1"},{"name":"my.env-name 2","value":"x"},{"name":"POD","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}},
             {"name":"LBL","valueFrom":{"fieldRef":{"fieldPath":"metadata.labels['app']"}}},
             {"name":"CPU","valueFrom":{"resourceFieldRef":{"resource":"limits.cpu"}}},{"name":"K","valueFrom":{"configMapKeyRef":{"name":"c","key":"k"}}}],
           "envFrom":[{"configMapRef":{"name":"c"}},{"prefix":"S_","secretRef":{"name":"s"}}],
           "volumeMounts":[{"name":"data","mountPath":"/data"},{"name":"cfg","mountPath":"/cfg","readOnly":true,"subPath":"a"}],
           "resources":{"requests":{"cpu":"500m","memory":"64Mi","example.com/gpu":"1"},"limits":{"cpu":"1","memory":"128Mi","example.com/gpu":"1"}},
           "livenessProbe":{"httpGet":{"port":"http"}},"readinessProbe":{"exec":{"command":["cat","/ok"]},"periodSeconds":5},
           "startupProbe":{"grpc":{"port":8080}},"lifecycle":{"preStop":{"sleep":{"seconds":5}}},
           "securityContext":{"runAsUser":1000,"runAsNonRoot":true,"allowPrivilegeEscalation":false,"capabilities":{"drop":["ALL"]},"seccompProfile":{"type":"RuntimeDefault"}}}],
         "securityContext":{"fsGroup":2000,"supplementalGroups":[3000],"sysctls":[{"name":"net.core.somaxconn","value":"1024"}]},
         "affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"kubernetes.io/os","operator":"In","values":["linux"]}]}]},
           "preferredDuringSchedulingIgnoredDuringExecution":[{"weight":10,"preference":{"matchExpressions":[{"key":"zone","operator":"Exists"}]}}]},
           "podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":100,"podAffinityTerm":{"topologyKey":"kubernetes.io/hostname","labelSelector":{"matchLabels":{"app":"a"}}}}]}},
         "tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300},{"operator":"Exists"},{"key":"k","value":"v","effect":"NoSchedule"}],
         "topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule","minDomains":2,"labelSelector":{"matchLabels":{"app":"a"}}}],
         "nodeSelector":{"disk":"ssd"},"dnsPolicy":"None","dnsConfig":{"nameservers":["10.0.0.10","2001:db8::1"],"searches":["svc.cluster.local."],"options":[{"name":"ndots","value":"2"}]},
         "hostAliases":[{"ip":"127.0.0.1","hostnames":["foo.local"]}],"serviceAccountName":"default","hostname":"web-0","subdomain":"web",
         "activeDeadlineSeconds":600,"priorityClassName":"system-node-critical","readinessGates":[{"conditionType":"example.com/ready"}],"os":{"name":"linux"}}
        """);
    assertThat(pod.at("/spec/containers/0/livenessProbe")).hasToString(
        "{\"httpGet\":{\"port\":\"http\",\"path\":\"/\",\"scheme\":\"HTTP\"},\"timeoutSeconds\":1,\"periodSeconds\":10,\"successThreshold\":1,\"failureThreshold\":3}");
    assertThat(pod.at("/status/phase").asText()).isEqualTo("Pending");
  }

  @Test
  void hostNetworkPod_getsItsContainerPortsAsHostPorts() {
    ObjectNode pod = created("{\"hostNetwork\":true,\"containers\":[{\"name\":\"c\",\"image\":\"b\",\"ports\":[{\"containerPort\":8080}]}]}");
    assertThat(pod.at("/spec/containers/0/ports/0/hostPort").asInt()).isEqualTo(8080);
  }

  @Test
  void aWorkloadsTemplate_isHeldToTheSameRules_atItsOwnPath_butMayLeaveAHostNetworkHostPortUnset() {
    String deployment = "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"d\"},"
        + "\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"d\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"d\"}},"
        + "\"spec\":{\"hostNetwork\":true,\"containers\":[{\"name\":\"c\",\"image\":\"nginx\",\"ports\":[{\"containerPort\":80},"
        + "{\"containerPort\":81,\"hostPort\":82,\"protocol\":\"HTTP\"}]}]}}}}";
    StatusException e = core.refusal("POST", "/apis/apps/v1/namespaces/default/deployments", Map.of(), deployment);
    assertThat(e.status().details().causes()).extracting(c -> c.field() + ": " + c.message()).containsExactly(
        "spec.template.spec.containers[0].ports[1].protocol: Unsupported value: \"HTTP\": supported values: \"SCTP\", \"TCP\", \"UDP\"",
        "spec.template.spec.containers[0].ports[1].hostPort: Invalid value: 82: must match `containerPort` when `hostNetwork` is true");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "controller.kubernetes.io/pod-deletion-cost":"+10"                 | metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "+10": must be a 32bit integer
      "controller.kubernetes.io/pod-deletion-cost":"3000000000"          | metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "3000000000": must be a 32bit integer
      "kubernetes.io/config.mirror":"x"                                  | metadata.annotations[kubernetes.io/config.mirror]: Invalid value: "x": must set spec.nodeName if mirror pod annotation is set
      "seccomp.security.alpha.kubernetes.io/pod":"foo"                   | metadata.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: "foo": must be a valid seccomp profile
      "container.apparmor.security.beta.kubernetes.io/other":"runtime/default" | metadata.annotations[container.apparmor.security.beta.kubernetes.io/other]: Invalid value: "other": container not found
      """)
  void podAnnotations(String annotation, String cause) {
    StatusException e = core.refusal("POST", PODS, Map.of(), "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\","
        + "\"annotations\":{" + annotation + "}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"b\"}]}}");
    assertOnly(e.status().details().causes().stream().map(c -> c.field() + ": " + c.message()).toList(), cause);
  }
}
