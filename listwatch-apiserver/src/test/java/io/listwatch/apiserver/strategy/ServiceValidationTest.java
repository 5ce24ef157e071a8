package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.allocation.ServiceRequests.SERVICES;
import static io.listwatch.apiserver.allocation.ServiceRequests.causes;
import static io.listwatch.apiserver.allocation.ServiceRequests.create;
import static io.listwatch.apiserver.allocation.ServiceRequests.ok;
import static io.listwatch.apiserver.allocation.ServiceRequests.refusal;
import static io.listwatch.apiserver.allocation.ServiceRequests.service;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube's {@code ValidateService} and {@code ValidateServiceUpdate} through the core: each row a
 * Service spec kube 1.32 refuses (cases of kube's {@code TestValidateServiceCreate} and
 * {@code TestValidateServiceUpdate}) and every cause of its 422, or one kube takes.
 */
class ServiceValidationTest {

  private final InMemoryCore core = InMemoryCore.start();

  @AfterEach
  void stop() {
    core.close();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
      {"type":"Foo","ports":[{"port":80}]}                       | spec.type: Unsupported value: "Foo": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"
      {"ports":[]}                                              | spec.ports: Required value
      {}                                                        | spec.ports: Required value
      {"type":"ExternalName"}                                   | spec.externalName: Required value
      {"type":"ExternalName","externalName":"a.b","clusterIP":"10.96.0.10"} | spec.clusterIPs: Forbidden: may not be set for ExternalName services
      {"type":"ExternalName","externalName":"a.b","ipFamilyPolicy":"SingleStack"} | spec.ipFamilyPolicy: Forbidden: may not be set for ExternalName services
      {"type":"ExternalName","externalName":"a.b","ipFamilies":["IPv4"]} | spec.ipFamilies: Forbidden: may not be set for ExternalName services
      {"clusterIP":"None","type":"NodePort","ports":[{"port":80}]} | spec.clusterIPs[0]: Invalid value: "None": may not be set to 'None' for NodePort services
      {"clusterIP":"None","type":"LoadBalancer","ports":[{"port":80}]} | spec.clusterIPs[0]: Invalid value: "None": may not be set to 'None' for LoadBalancer services
      {"ports":[{"port":80,"protocol":"HTTP"}]}                 | spec.ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"
      {"ports":[{"port":80,"targetPort":"HTTP"}]}               | spec.ports[0].targetPort: Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-) ;; spec.ports[0].targetPort: Invalid value: "HTTP": must contain at least one letter (a-z)
      {"ports":[{"port":80,"targetPort":"123"}]}                | spec.ports[0].targetPort: Invalid value: "123": must contain at least one letter (a-z)
      {"ports":[{"port":80,"targetPort":"a--b"}]}               | spec.ports[0].targetPort: Invalid value: "a--b": must not contain consecutive hyphens
      {"ports":[{"port":80,"targetPort":"-ab"}]}                | spec.ports[0].targetPort: Invalid value: "-ab": must not begin or end with a hyphen
      {"ports":[{"port":80,"targetPort":"abcdefghijklmnop"}]}   | spec.ports[0].targetPort: Invalid value: "abcdefghijklmnop": must be no more than 15 characters
      {"ports":[{"port":80,"targetPort":65536}]}                | spec.ports[0].targetPort: Invalid value: 65536: must be between 1 and 65535, inclusive
      {"ports":[{"port":80,"nodePort":30001}]}                  | spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'
      {"ports":[{"name":"a","port":80},{"name":"b","port":80}]} | spec.ports[1]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}
      {"type":"NodePort","ports":[{"name":"a","port":80,"nodePort":30080},{"name":"b","port":81,"nodePort":30080}]} | spec.ports[1].nodePort: Duplicate value: 30080
      {"ports":[{"port":80}],"sessionAffinity":"Sticky"}        | spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"
      {"ports":[{"port":80}],"sessionAffinity":"ClientIP","sessionAffinityConfig":{"clientIP":{"timeoutSeconds":86401}}} | spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 86401: must be greater than 0 and less than 86400
      {"ports":[{"port":80}],"clusterIP":"10.96.0.300"}         | spec.clusterIPs[0]: Invalid value: "10.96.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)
      {"ports":[{"port":80}],"clusterIP":"10.96.0.10","clusterIPs":["10.96.0.11"]} | spec.clusterIPs: Invalid value: []string{"10.96.0.11"}: first value must match `clusterIP`
      {"ports":[{"port":80}],"clusterIPs":["10.96.0.11"]}       | spec.clusterIPs: Invalid value: []string{"10.96.0.11"}: must be empty when `clusterIP` is not specified
      {"ports":[{"port":80}],"clusterIP":"None","clusterIPs":["None","10.96.0.1"]} | spec.clusterIPs: Invalid value: []string{"None", "10.96.0.1"}: 'None' must be the first and only value
      {"ports":[{"port":80}],"clusterIP":"10.96.0.10","clusterIPs":["10.96.0.10","10.96.0.11"]} | spec.clusterIPs: Invalid value: []string{"10.96.0.10", "10.96.0.11"}: may specify no more than one IP for each IP family
      {"ports":[{"port":80}],"clusterIP":"10.96.0.10","ipFamilies":["IPv6"]} | spec.clusterIPs[0]: Invalid value: "10.96.0.10": expected an IPv6 value as indicated by `ipFamilies[0]`
      {"ports":[{"port":80}],"ipFamilies":["IPv5"]}             | spec.ipFamilies[0]: Unsupported value: "IPv5": supported values: "IPv4", "IPv6"
      {"ports":[{"port":80}],"ipFamilies":["IPv4","IPv4"]}      | spec.ipFamilies[1]: Duplicate value: "IPv4"
      {"ports":[{"port":80}],"ipFamilyPolicy":"Both"}           | spec.ipFamilyPolicy: Unsupported value: "Both": supported values: "PreferDualStack", "RequireDualStack", "SingleStack"
      {"ports":[{"port":80}],"externalIPs":["127.0.0.1"]}       | spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)
      {"ports":[{"port":80}],"externalIPs":["1.2.3"]}           | spec.externalIPs[0]: Invalid value: "1.2.3": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)
      {"ports":[{"port":80}],"externalTrafficPolicy":"Local"}   | spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services
      {"type":"NodePort","ports":[{"port":80}],"externalTrafficPolicy":"Nearest"} | spec.externalTrafficPolicy: Unsupported value: "Nearest": supported values: "Cluster", "Local"
      {"ports":[{"port":80}],"internalTrafficPolicy":"Foo"}     | spec.internalTrafficPolicy: Unsupported value: "Foo": supported values: "Cluster", "Local"
      {"ports":[{"port":80}],"allocateLoadBalancerNodePorts":true} | spec.allocateLoadBalancerNodePorts: Forbidden: may only be used when `type` is 'LoadBalancer'
      {"ports":[{"port":80}],"loadBalancerSourceRanges":["10.0.0.0/8"]} | spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'
      {"type":"LoadBalancer","ports":[{"port":80}],"loadBalancerSourceRanges":["10.0.0.0/8","1.2.3.4"]} | spec.LoadBalancerSourceRanges[1]: Invalid value: "1.2.3.4": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)
      {"type":"LoadBalancer","ports":[{"port":80}],"loadBalancerSourceRanges":["foo"," 10.0.0.300/8 "]} | spec.LoadBalancerSourceRanges[0]: Invalid value: "foo": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64) ;; spec.LoadBalancerSourceRanges[1]: Invalid value: "10.0.0.300/8": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)
      {"ports":[{"port":80}],"loadBalancerSourceRanges":["bar"]} | spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer' ;; spec.LoadBalancerSourceRanges[0]: Invalid value: "bar": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)
      {"type":"LoadBalancer","ports":[{"port":80}],"loadBalancerClass":"Bad/Class/x"} | spec.loadBalancerClass: Invalid value: "Bad/Class/x": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')
      {"type":"LoadBalancer","ports":[{"port":80}],"loadBalancerClass":"-bad"} | spec.loadBalancerClass: Invalid value: "-bad": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')
      {"ports":[{"port":80}],"loadBalancerClass":"example.com/lb"} | spec.loadBalancerClass: Forbidden: may only be used when `type` is 'LoadBalancer'
      {"type":"NodePort","ports":[{"port":80}],"loadBalancerClass":"example.com/lb"} | spec.loadBalancerClass: Forbidden: may only be used when `type` is 'LoadBalancer'
      {"ports":[{"port":80}],"healthCheckNodePort":30100}       | spec.healthCheckNodePort: Invalid value: 30100: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'
      {"ports":[{"port":80}],"trafficDistribution":"Anywhere"}  | spec.trafficDistribution: Unsupported value: "Anywhere": supported values: "PreferClose"
      {"ports":[{"port":80}],"clusterIP":"10.96.0.10","ipFamilyPolicy":"RequireDualStack"} | spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services
      {"ports":[{"port":80}],"ipFamilies":["IPv6"]}             | spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster
      """)
  void create_refused(String spec, String expected) {
    StatusException e = refusal(core.server, "POST", SERVICES, Map.of(), service("s", spec));
    assertThat(e.code()).isEqualTo(422);
    assertThat(causes(e)).containsExactlyElementsOf(Arrays.asList(expected.split(" ;; ")));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
      {"clusterIP":"None"}
      {"type":"ExternalName","externalName":"foo.example.com."}
      {"ports":[{"name":"a","port":53},{"name":"b","port":53,"protocol":"UDP"}]}
      {"ports":[{"port":80,"targetPort":"http-alt"}]}
      {"ports":[{"port":80}],"sessionAffinity":"ClientIP"}
      {"ports":[{"port":80}],"selector":{"app":"web"},"externalIPs":["192.0.2.10"]}
      {"type":"LoadBalancer","ports":[{"port":80}],"externalTrafficPolicy":"Local"}
      {"type":"LoadBalancer","ports":[{"port":80}],"loadBalancerSourceRanges":[" 10.0.0.0/8 ","2001:db8::/32","010.1.0.0/16"]}
      {"type":"LoadBalancer","ports":[{"port":80}],"loadBalancerClass":"example.com/internal-vip"}
      {"type":"LoadBalancer","ports":[{"port":80}],"loadBalancerClass":"MyLB"}
      """)
  void create_taken(String spec) {
    ObjectNode stored = create(core.server, "s", spec);
    assertThat(stored.path("metadata").path("uid").asText()).isNotEmpty();
  }

  @Test
  void selector_isCheckedAsLabels() {
    StatusException e = refusal(core.server, "POST", SERVICES, Map.of(),
        service("s", "{\"ports\":[{\"port\":80}],\"selector\":{\"app\":\"-x\"}}"));
    assertThat(causes(e)).singleElement().asString().startsWith("spec.selector: Invalid value: \"-x\": a valid label must");
  }

  @Test
  void externalName_isADnsSubdomain() {
    StatusException e = refusal(core.server, "POST", SERVICES, Map.of(),
        service("s", "{\"type\":\"ExternalName\",\"externalName\":\"Not_A_Name\"}"));
    assertThat(causes(e)).singleElement().asString()
        .startsWith("spec.externalName: Invalid value: \"Not_A_Name\": a lowercase RFC 1123 subdomain");
  }

  @Test
  void defaults_ofAClusterIpService() {
    ObjectNode svc = create(core.server, "web", "{\"ports\":[{\"port\":80}],\"selector\":{\"app\":\"web\"}}");
    ObjectNode spec = (ObjectNode) svc.path("spec");
    assertThat(spec.path("type").asText()).isEqualTo("ClusterIP");
    assertThat(spec.path("sessionAffinity").asText()).isEqualTo("None");
    assertThat(spec.path("internalTrafficPolicy").asText()).isEqualTo("Cluster");
    assertThat(spec.has("externalTrafficPolicy")).isFalse();
    assertThat(spec.path("ipFamilyPolicy").asText()).isEqualTo("SingleStack");
    assertThat(spec.path("ipFamilies").toString()).isEqualTo("[\"IPv4\"]");
    assertThat(spec.path("clusterIP").asText()).startsWith("10.9");
    assertThat(spec.path("clusterIPs").toString()).isEqualTo("[\"" + spec.path("clusterIP").asText() + "\"]");
    assertThat(spec.path("ports").toString()).isEqualTo("[{\"port\":80,\"protocol\":\"TCP\",\"targetPort\":80}]");
    assertThat(svc.path("status").toString()).isEqualTo("{\"loadBalancer\":{}}");
  }

  @Test
  void defaults_ofNodePortLoadBalancerAndClientIp() {
    ObjectNode lb = create(core.server, "lb", "{\"type\":\"LoadBalancer\",\"ports\":[{\"port\":80}],"
        + "\"sessionAffinity\":\"ClientIP\"}");
    assertThat(lb.path("spec").path("externalTrafficPolicy").asText()).isEqualTo("Cluster");
    assertThat(lb.path("spec").path("allocateLoadBalancerNodePorts").asBoolean()).isTrue();
    assertThat(lb.path("spec").path("sessionAffinityConfig").toString()).isEqualTo("{\"clientIP\":{\"timeoutSeconds\":10800}}");
    assertThat(lb.path("spec").path("ports").get(0).path("nodePort").asInt()).isBetween(30000, 32767);
  }

  @Test
  void headlessWithoutSelector_isDualStackByFamilies() {
    ObjectNode svc = create(core.server, "h", "{\"clusterIP\":\"None\"}");
    assertThat(svc.path("spec").path("ipFamilyPolicy").asText()).isEqualTo("RequireDualStack");
    assertThat(svc.path("spec").path("ipFamilies").toString()).isEqualTo("[\"IPv4\",\"IPv6\"]");
    assertThat(svc.path("spec").path("clusterIPs").toString()).isEqualTo("[\"None\"]");
  }

  /** kube's annotation form of the source ranges, checked only when the field is empty. */
  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
      LoadBalancer | 10.0.0.0/8, 192.168.0.0/16 | []            |
      LoadBalancer | ~  ~                      | []            |
      LoadBalancer | 10.0.0.0/8,foo            | []            | metadata.annotations[service.beta.kubernetes.io/load-balancer-source-ranges]: Invalid value: "foo": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)
      LoadBalancer | 10.0.0.0/8,,1.2.3.4/32    | []            | metadata.annotations[service.beta.kubernetes.io/load-balancer-source-ranges]: Invalid value: "": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)
      ClusterIP    | 10.0.0.0/8                | []            | metadata.annotations[service.beta.kubernetes.io/load-balancer-source-ranges]: Forbidden: may only be used when `type` is 'LoadBalancer'
      LoadBalancer | foo                       | ["10.0.0.0/8"] |
      """)
  void sourceRangesAnnotation(String type, String annotation, String field, String expected) {
    String body = "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"lb\",\"annotations\":"
        + "{\"service.beta.kubernetes.io/load-balancer-source-ranges\":\"" + annotation + "\"}},\"spec\":{\"type\":\"" + type
        + "\",\"ports\":[{\"port\":80}],\"loadBalancerSourceRanges\":" + field + "}}";
    if (expected == null) {
      ok(core.server, "POST", SERVICES, Map.of(), body);
      return;
    }
    assertThat(causes(refusal(core.server, "POST", SERVICES, Map.of(), body))).containsExactly(expected);
  }

  /**
   * kube's {@code validateLoadBalancerClassField} on update: fixed while the service stays a
   * LoadBalancer; a type change drops an unchanged class (kube's {@code dropTypeDependentFields}).
   * Each row: the stored spec, the new one, then the cause of the 422 or the class stored.
   */
  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
      "type":"LoadBalancer","loadBalancerClass":"example.com/a" | "type":"LoadBalancer","loadBalancerClass":"example.com/b" | spec.loadBalancerClass: Invalid value: "example.com/b": may not change once set
      "type":"LoadBalancer","loadBalancerClass":"example.com/a" | "type":"LoadBalancer"                                     | spec.loadBalancerClass: Invalid value: "null": may not change once set
      "type":"LoadBalancer"                                     | "type":"LoadBalancer","loadBalancerClass":"example.com/b" | spec.loadBalancerClass: Invalid value: "example.com/b": may not change once set
      "type":"LoadBalancer","loadBalancerClass":"example.com/a" | "type":"LoadBalancer","loadBalancerClass":"example.com/a" | example.com/a
      "type":"LoadBalancer","loadBalancerClass":"example.com/a" | "type":"ClusterIP"                                        |
      "type":"LoadBalancer","loadBalancerClass":"example.com/a" | "type":"NodePort","loadBalancerClass":"example.com/a"     |
      "type":"ClusterIP"                                        | "type":"LoadBalancer","loadBalancerClass":"example.com/b" | example.com/b
      "type":"LoadBalancer","loadBalancerClass":"example.com/a" | "type":"ClusterIP","loadBalancerClass":"example.com/b"    | spec.loadBalancerClass: Forbidden: may only be used when `type` is 'LoadBalancer'
      """)
  void update_loadBalancerClass(String before, String after, String outcome) {
    ObjectNode svc = create(core.server, "lb", "{" + before + ",\"ports\":[{\"port\":80}]}");
    ObjectNode spec = (ObjectNode) svc.path("spec");
    spec.remove("loadBalancerClass");
    spec.setAll(InMemoryCore.json("{" + after + "}"));
    if (outcome != null && outcome.startsWith("spec.")) {
      assertThat(causes(refusal(core.server, "PUT", SERVICES + "/lb", Map.of(), svc.toString()))).containsExactly(outcome);
      return;
    }
    ObjectNode updated = ok(core.server, "PUT", SERVICES + "/lb", Map.of(), svc.toString());
    assertThat(updated.path("spec").path("loadBalancerClass").asText(null)).isEqualTo(outcome);
  }

  @Test
  void externalName_getsNoClusterIpNorFamilies() {
    ObjectNode svc = create(core.server, "ext", "{\"type\":\"ExternalName\",\"externalName\":\"db.example.com\"}");
    assertThat(svc.path("spec").has("clusterIP")).isFalse();
    assertThat(svc.path("spec").has("ipFamilies")).isFalse();
    assertThat(svc.path("spec").has("internalTrafficPolicy")).isFalse();
  }

  @Test
  void update_mayNotChangeTheClusterIp() {
    ObjectNode svc = create(core.server, "web", "{\"ports\":[{\"port\":80}]}");
    ((ObjectNode) svc.path("spec")).put("clusterIP", "10.96.5.5").putArray("clusterIPs").add("10.96.5.5");
    StatusException e = refusal(core.server, "PUT", SERVICES + "/web", Map.of(), svc.toString());
    assertThat(causes(e)).containsExactly("spec.clusterIPs[0]: Invalid value: []string{\"10.96.5.5\"}: may not change once set");
  }

  @Test
  void update_changingOnlyClusterIp_isRefusedTheSame() {
    ObjectNode svc = create(core.server, "web", "{\"ports\":[{\"port\":80}]}");
    ((ObjectNode) svc.path("spec")).put("clusterIP", "10.96.5.5");
    StatusException e = refusal(core.server, "PUT", SERVICES + "/web", Map.of(), svc.toString());
    assertThat(causes(e)).containsExactly("spec.clusterIPs[0]: Invalid value: []string{\"10.96.5.5\"}: may not change once set");
  }

  @Test
  void update_withoutAllocatedValues_keepsThem() {
    ObjectNode svc = create(core.server, "np", "{\"type\":\"NodePort\",\"ports\":[{\"name\":\"http\",\"port\":80}]}");
    String ip = svc.path("spec").path("clusterIP").asText();
    int nodePort = svc.path("spec").path("ports").get(0).path("nodePort").asInt();
    String body = "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"np\"},\"spec\":{\"type\":\"NodePort\","
        + "\"ports\":[{\"name\":\"http\",\"port\":80}],\"selector\":{\"app\":\"x\"}}}";
    ObjectNode updated = ok(core.server, "PUT", SERVICES + "/np", Map.of(), body);
    assertThat(updated.path("spec").path("clusterIP").asText()).isEqualTo(ip);
    assertThat(updated.path("spec").path("clusterIPs").toString()).isEqualTo("[\"" + ip + "\"]");
    assertThat(updated.path("spec").path("ports").get(0).path("nodePort").asInt()).isEqualTo(nodePort);
  }

  @Test
  void update_toExternalName_dropsTheClusterIpAndFamilies() {
    ObjectNode svc = create(core.server, "web", "{\"ports\":[{\"port\":80}]}");
    ((ObjectNode) svc.path("spec")).put("type", "ExternalName").put("externalName", "db.example.com");
    ObjectNode updated = ok(core.server, "PUT", SERVICES + "/web", Map.of(), svc.toString());
    assertThat(updated.path("spec").has("clusterIP")).isFalse();
    assertThat(updated.path("spec").has("clusterIPs")).isFalse();
    assertThat(updated.path("spec").has("ipFamilies")).isFalse();
    assertThat(updated.path("spec").has("ipFamilyPolicy")).isFalse();
  }

  @Test
  void update_fromNodePortToClusterIp_dropsNodePortsAndExternalPolicy() {
    ObjectNode svc = create(core.server, "np", "{\"type\":\"NodePort\",\"ports\":[{\"port\":80}]}");
    ((ObjectNode) svc.path("spec")).put("type", "ClusterIP");
    ObjectNode updated = ok(core.server, "PUT", SERVICES + "/np", Map.of(), svc.toString());
    assertThat(updated.path("spec").path("ports").get(0).has("nodePort")).isFalse();
    assertThat(updated.path("spec").has("externalTrafficPolicy")).isFalse();
  }

  @Test
  void update_keepsTheStoredStatus() {
    ObjectNode svc = create(core.server, "web", "{\"ports\":[{\"port\":80}]}");
    svc.putObject("status").putObject("loadBalancer").putArray("ingress").addObject().put("ip", "192.0.2.1");
    ObjectNode updated = ok(core.server, "PUT", SERVICES + "/web", Map.of(), svc.toString());
    assertThat(updated.path("status").toString()).isEqualTo("{\"loadBalancer\":{}}");
  }
}
