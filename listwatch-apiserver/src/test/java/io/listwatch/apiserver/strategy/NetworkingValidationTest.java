package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube's validation of Ingresses and NetworkPolicies, from the cases of kube's
 * {@code pkg/apis/networking/validation/validation_test.go} ({@code TestValidateIngress},
 * {@code TestValidateIngressTLS}, {@code TestValidateNetworkPolicy}, ...).
 */
class NetworkingValidationTest {

  private static final String BACKEND = "{\"service\":{\"name\":\"web\",\"port\":{\"number\":80}}}";

  private static String ingress(String spec) {
    return "{\"metadata\":{\"name\":\"i\"},\"spec\":{" + spec + "}}";
  }

  private static String rule(String host, String path) {
    return "\"rules\":[{" + (host == null ? "" : "\"host\":\"" + host + "\",") + "\"http\":{\"paths\":[" + path + "]}}]";
  }

  private static String path(String pathType, String path, String backend) {
    return "{" + (pathType == null ? "" : "\"pathType\":\"" + pathType + "\",") + "\"path\":\"" + path + "\",\"backend\":"
        + backend + "}";
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      foo.bar.com    | Exact                  | /foo
      *.bar.com      | Prefix                 | /
      foo.com        | ImplementationSpecific | ''
      """)
  void ingress_valid(String host, String pathType, String path) {
    assertThat(StrategyCases.create(new IngressStrategy(), ingress(rule(host, path(pathType, path, BACKEND))))).isEmpty();
    assertThat(StrategyCases.create(new IngressStrategy(), ingress("\"defaultBackend\":" + BACKEND))).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      1.2.3.4     | Exact  | /a    | spec.rules[0].host: Invalid value: "1.2.3.4": must be a DNS name, not an IP address
      *.*.bar.com | Exact  | /a    | spec.rules[0].host: Invalid value: "*.*.bar.com": a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
      foo.com     | Exact  | a     | spec.rules[0].http.paths[0].path: Invalid value: "a": must be an absolute path
      foo.com     | Prefix | /a//b | spec.rules[0].http.paths[0].path: Invalid value: "/a//b": must not contain '//'
      foo.com     | Prefix | /a/.. | spec.rules[0].http.paths[0].path: Invalid value: "/a/..": cannot end with '/..'
      foo.com     | Regex  | /a    | spec.rules[0].http.paths[0].pathType: Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix"
      """)
  void ingress_invalidRule(String host, String pathType, String path, String error) {
    assertThat(StrategyCases.create(new IngressStrategy(), ingress(rule(host, path(pathType, path, BACKEND)))))
        .containsExactly(error);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      {"service":{"name":"web"}}                                      | spec.rules[0].http.paths[0].backend: Required value: port name or number is required
      {"service":{"name":"web","port":{"name":"http","number":80}}}   | spec.rules[0].http.paths[0].backend: Invalid value: "": cannot set both port name & port number
      {"service":{"name":"Web","port":{"number":80}}}                 | spec.rules[0].http.paths[0].backend.service.name: Invalid value: "Web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')
      {"service":{"name":"web","port":{"number":70000}}}              | spec.rules[0].http.paths[0].backend.service.port.number: Invalid value: 70000: must be between 1 and 65535, inclusive
      {"service":{"name":"web","port":{"name":"http--x"}}}            | spec.rules[0].http.paths[0].backend.service.port.name: Invalid value: "http--x": must not contain consecutive hyphens
      {}                                                              | spec.rules[0].http.paths[0].backend: Invalid value: "": resource or service backend is required
      {"resource":{"kind":"Bucket","name":"b"},"service":{"name":"w"}} | spec.rules[0].http.paths[0].backend: Invalid value: "": cannot set both resource and service backends
      {"resource":{"name":"b"}}                                       | spec.rules[0].http.paths[0].backend.resource.kind: Required value: kind is required
      """)
  void ingress_invalidBackend(String backend, String error) {
    assertThat(StrategyCases.create(new IngressStrategy(), ingress(rule("foo.com", path("Prefix", "/", backend)))))
        .containsExactly(error);
  }

  @Test
  void ingress_needsRulesOrADefaultBackend_andPathTypes() {
    assertThat(StrategyCases.create(new IngressStrategy(), ingress(""))).containsExactly(
        "spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified");
    assertThat(StrategyCases.create(new IngressStrategy(), ingress(rule("foo.com", path(null, "/", BACKEND)))))
        .containsExactly("spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified");
    assertThat(StrategyCases.create(new IngressStrategy(), ingress("\"rules\":[{\"http\":{\"paths\":[]}}]")))
        .containsExactly("spec.rules[0].http.paths: Required value");
  }

  @Test
  void ingress_tls() {
    assertThat(StrategyCases.create(new IngressStrategy(), ingress("\"defaultBackend\":" + BACKEND
        + ",\"tls\":[{\"hosts\":[\"*.foo.com\",\"Foo.com\"],\"secretName\":\"a_b\"}]"))).extracting(e -> e.substring(0, e.indexOf(": ")))
        .containsExactly("spec.tls[0].hosts[1]", "spec.tls[0].secretName");
  }

  private static String policy(String spec) {
    return "{\"metadata\":{\"name\":\"n\"},\"spec\":{\"podSelector\":{}," + spec + "}}";
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "ingress":[{"from":[{"podSelector":{},"namespaceSelector":{"matchLabels":{"a":"b"}}}],"ports":[{"protocol":"TCP","port":80,"endPort":90}]}]
      "egress":[{"to":[{"ipBlock":{"cidr":"10.0.0.0/8","except":["10.1.0.0/16"]}}],"ports":[{"port":"http"}]}]
      "egress":[{"to":[{"ipBlock":{"cidr":"fd00::/8","except":["fd00:1::/32"]}}]}],"policyTypes":["Egress"]
      """)
  void networkPolicy_valid(String spec) {
    assertThat(StrategyCases.create(new NetworkPolicyStrategy(), policy(spec))).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "ingress":[{"ports":[{"protocol":"ICMP"}]}]                       | spec.ingress[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"
      "ingress":[{"ports":[{"port":0}]}]                                | spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive
      "ingress":[{"ports":[{"port":90,"endPort":80}]}]                  | spec.ingress[0].ports[0].endPort: Invalid value: 90: must be greater than or equal to `port`
      "ingress":[{"ports":[{"port":"http","endPort":80}]}]              | spec.ingress[0].ports[0].endPort: Invalid value: 80: may not be specified when `port` is non-numeric
      "ingress":[{"ports":[{"endPort":80}]}]                            | spec.ingress[0].ports[0].endPort: Invalid value: 80: may not be specified when `port` is not specified
      "ingress":[{"from":[{}]}]                                         | spec.ingress[0].from[0]: Required value: must specify a peer
      "egress":[{"to":[{"podSelector":{},"ipBlock":{"cidr":"10.0.0.0/8"}}]}] | spec.egress[0].to[0]: Forbidden: may not specify both ipBlock and another peer
      "egress":[{"to":[{"ipBlock":{"cidr":""}}]}]                       | spec.egress[0].to[0].ipBlock.cidr: Required value
      "egress":[{"to":[{"ipBlock":{"cidr":"10.0.0.0"}}]}]               | spec.egress[0].to[0].ipBlock.cidr: Invalid value: "10.0.0.0": not a valid CIDR
      "egress":[{"to":[{"ipBlock":{"cidr":"10.0.0.0/16","except":["10.0.0.0/8"]}}]}] | spec.egress[0].to[0].ipBlock.except[0]: Invalid value: "10.0.0.0/8": must be a strict subset of `cidr`
      "egress":[{"to":[{"ipBlock":{"cidr":"10.0.0.0/16","except":["192.168.0.0/24"]}}]}] | spec.egress[0].to[0].ipBlock.except[0]: Invalid value: "192.168.0.0/24": must be a strict subset of `cidr`
      "policyTypes":["Both"]                                            | spec.policyTypes[0]: Unsupported value: "Both": supported values: "Ingress", "Egress"
      "policyTypes":["Ingress","Egress","Ingress"]                      | spec.policyTypes: Invalid value: []networking.PolicyType{"Ingress", "Egress", "Ingress"}: may not specify more than two policyTypes
      """)
  void networkPolicy_invalid(String spec, String error) {
    assertThat(StrategyCases.create(new NetworkPolicyStrategy(), policy(spec))).containsExactly(error);
  }

  @Test
  void endToEnd_anIngressWithoutPathType_isRefused() {
    try (InMemoryCore core = InMemoryCore.start()) {
      StatusException e = core.refusal("POST", "/apis/networking.k8s.io/v1/namespaces/default/ingresses", Map.of(),
          "{\"apiVersion\":\"networking.k8s.io/v1\",\"kind\":\"Ingress\"," + ingress(rule("foo.com", path(null, "/", BACKEND)))
              .substring(1));
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.getMessage()).isEqualTo("Ingress.networking.k8s.io \"i\" is invalid: spec.rules[0].http.paths[0].pathType: "
          + "Required value: pathType must be specified");
    }
  }
}
