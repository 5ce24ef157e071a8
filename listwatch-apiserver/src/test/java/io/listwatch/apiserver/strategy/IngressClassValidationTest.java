package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube's validation of IngressClasses, from the cases of kube's
 * {@code TestValidateIngressClass} and {@code TestValidateIngressClassUpdate}, and the kind
 * served by the core with the DefaultIngressClass admission plug-in now live.
 */
class IngressClassValidationTest {

  private static final String PATH = "/apis/networking.k8s.io/v1/ingressclasses";

  private static String ingressClass(String spec) {
    return "{\"apiVersion\":\"networking.k8s.io/v1\",\"kind\":\"IngressClass\",\"metadata\":{\"name\":\"test123\"},"
        + "\"spec\":{" + spec + "}}";
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "controller":"foo.co/bar"
      "controller":"example.com/ingress-controller"
      "controller":"foo.co/bar","parameters":{"apiGroup":"example.com","kind":"foo","name":"bar","scope":"Cluster"}
      "controller":"foo.co/bar","parameters":{"kind":"foo","name":"bar"}
      "controller":"foo.co/bar","parameters":{"apiGroup":"example.com","kind":"foo","name":"bar","scope":"Namespace","namespace":"foo-ns"}
      """)
  void valid(String spec) {
    assertThat(StrategyCases.create(new IngressClassStrategy(), ingressClass(spec))).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "controller":""                                                                                        | spec.controller: Required value
      "controller":"foo"                                                                                     | spec.controller: Invalid value: "foo": must be a domain-prefixed path (such as "acme.io/foo")
      "controller":"Foo.co/bar"                                                                              | spec.controller: Invalid value: "Foo.co": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
      "controller":"foo.co/b ar"                                                                             | spec.controller: Invalid value: "b ar": Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')
      "controller":"foo.co/bar","parameters":{"apiGroup":"example.com","name":"bar"}                         | spec.parameters.kind: Required value: kind is required
      "controller":"foo.co/bar","parameters":{"apiGroup":"example.com","kind":"foo"}                         | spec.parameters.name: Required value: name is required
      "controller":"foo.co/bar","parameters":{"apiGroup":"example.com","kind":"foo/","name":"bar"}           | spec.parameters.kind: Invalid value: "foo/": may not contain '/'
      "controller":"foo.co/bar","parameters":{"apiGroup":"example..com","kind":"foo","name":"bar"}           | spec.parameters.apiGroup: Invalid value: "example..com": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
      "controller":"foo.co/bar","parameters":{"kind":"foo","name":"bar","scope":"bad-scope"}                 | spec.parameters.scope: Unsupported value: "bad-scope": supported values: "Cluster", "Namespace"
      "controller":"foo.co/bar","parameters":{"kind":"foo","name":"bar","scope":"Namespace"}                 | spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'
      "controller":"foo.co/bar","parameters":{"kind":"foo","name":"bar","scope":"Cluster","namespace":"n"}   | spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'
      "controller":"foo.co/bar","parameters":{"kind":"foo","name":"bar","scope":"Namespace","namespace":"N"} | spec.parameters.namespace: Invalid value: "N": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')
      """)
  void invalid(String spec, String error) {
    assertThat(StrategyCases.create(new IngressClassStrategy(), ingressClass(spec))).containsExactly(error);
  }

  @Test
  void controller_atMost250Bytes() {
    String longest = "foo.co/" + "a".repeat(243);
    assertThat(StrategyCases.create(new IngressClassStrategy(), ingressClass("\"controller\":\"" + longest + "\""))).isEmpty();
    assertThat(StrategyCases.create(new IngressClassStrategy(), ingressClass("\"controller\":\"" + longest + "a\"")))
        .containsExactly("spec.controller: Too long: may not be more than 250 bytes");
  }

  @Test
  void tableRow_controllerAndParameters() {
    var printer = new io.listwatch.apiserver.printers.IngressClassTableConvertor();
    ObjectNode withGroup = InMemoryCore.json(ingressClass(
        "\"controller\":\"foo.co/bar\",\"parameters\":{\"apiGroup\":\"k8s.example.com\",\"kind\":\"P\",\"name\":\"n\"}"));
    assertThat(printer.row(withGroup, java.time.Instant.EPOCH).cells().subList(0, 3))
        .containsExactly("test123", "foo.co/bar", "P.k8s.example.com/n");
    ObjectNode none = InMemoryCore.json(ingressClass("\"controller\":\"foo.co/bar\""));
    assertThat(printer.row(none, java.time.Instant.EPOCH).cells().get(2)).isEqualTo("<none>");
  }

  @Test
  void parametersWithoutScope_defaultToCluster() {
    ObjectNode obj = InMemoryCore.json(ingressClass("\"controller\":\"foo.co/bar\",\"parameters\":{\"kind\":\"k\",\"name\":\"n\"}"));
    new IngressClassStrategy().defaults(obj);
    assertThat(obj.at("/spec/parameters/scope").asText()).isEqualTo("Cluster");
  }

  @Test
  void update_controllerIsImmutable_parametersMayChange() {
    String old = ingressClass("\"controller\":\"foo.co/bar\"");
    assertThat(StrategyCases.update(new IngressClassStrategy(), old, ingressClass("\"controller\":\"foo.co/bar2\"")))
        .containsExactly("spec.controller: Invalid value: \"foo.co/bar2\": field is immutable");
    assertThat(StrategyCases.update(new IngressClassStrategy(), old,
        ingressClass("\"controller\":\"foo.co/bar\",\"parameters\":{\"kind\":\"foo\",\"name\":\"bar\"}"))).isEmpty();
  }

  @Test
  void served_theDocsExample_isCreatedListedAndUpdated() {
    try (InMemoryCore core = InMemoryCore.start()) {
      // the example of kubernetes.io's Ingress page (IngressClass with cluster-scoped parameters)
      String example = """
          {"apiVersion":"networking.k8s.io/v1","kind":"IngressClass","metadata":{"name":"external-lb"},
           "spec":{"controller":"example.com/ingress-controller",
                   "parameters":{"apiGroup":"k8s.example.com","kind":"IngressParameters","name":"external-lb"}}}""";
      assertThat(core.send("POST", PATH, Map.of(), example).code()).isEqualTo(201);
      ObjectNode got = StrategyCases.body(core.send("GET", PATH + "/external-lb", Map.of(), null));
      assertThat(got.at("/spec/parameters/scope").asText()).isEqualTo("Cluster");

      got.with("spec").put("controller", "example.com/other");
      StatusException e = core.refusal("PUT", PATH + "/external-lb", Map.of(), got.toString());
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.getMessage()).isEqualTo("IngressClass.networking.k8s.io \"external-lb\" is invalid: spec.controller: "
          + "Invalid value: \"example.com/other\": field is immutable");

      got.with("spec").put("controller", "example.com/ingress-controller");
      got.with("metadata").putObject("labels").put("a", "b");
      assertThat(core.send("PUT", PATH + "/external-lb", Map.of(), got.toString()).code()).isEqualTo(200);

      ObjectNode table = StrategyCases.body(core.send("GET", PATH, Map.of("includeObject", java.util.List.of("None")), null));
      assertThat(table.path("items").size()).isEqualTo(1);
    }
  }

  @Test
  void served_anIngressWithoutClass_getsTheDefaultClass_theNewestOfTwo() {
    try (InMemoryCore core = InMemoryCore.start()) {
      createClass(core, "first");
      assertThat(createIngress(core, "i1").at("/spec/ingressClassName").asText()).isEqualTo("first");
      core.clock.advance(java.time.Duration.ofSeconds(5));
      createClass(core, "second");
      assertThat(createIngress(core, "i2").at("/spec/ingressClassName").asText()).isEqualTo("second");
      ObjectNode named = InMemoryCore.json(ingressBody("i3"));
      named.with("spec").put("ingressClassName", "mine");
      assertThat(core.send("POST", "/apis/networking.k8s.io/v1/namespaces/default/ingresses", Map.of(), named.toString()).code())
          .isEqualTo(201);
      assertThat(ingress(core, "i3").at("/spec/ingressClassName").asText()).isEqualTo("mine");
    }
  }

  private static void createClass(InMemoryCore core, String name) {
    assertThat(core.send("POST", PATH, Map.of(), "{\"apiVersion\":\"networking.k8s.io/v1\",\"kind\":\"IngressClass\","
        + "\"metadata\":{\"name\":\"" + name + "\",\"annotations\":{\"ingressclass.kubernetes.io/is-default-class\":\"true\"}},"
        + "\"spec\":{\"controller\":\"example.com/c\"}}").code()).isEqualTo(201);
    // a list without a resourceVersion is served once the watch cache, which the plug-ins read, caught up
    core.send("GET", PATH, Map.of(), null);
  }

  private static String ingressBody(String name) {
    return "{\"apiVersion\":\"networking.k8s.io/v1\",\"kind\":\"Ingress\",\"metadata\":{\"name\":\"" + name + "\"},"
        + "\"spec\":{\"defaultBackend\":{\"service\":{\"name\":\"web\",\"port\":{\"number\":80}}}}}";
  }

  private static ObjectNode createIngress(InMemoryCore core, String name) {
    assertThat(core.send("POST", "/apis/networking.k8s.io/v1/namespaces/default/ingresses", Map.of(), ingressBody(name)).code())
        .isEqualTo(201);
    return ingress(core, name);
  }

  private static ObjectNode ingress(InMemoryCore core, String name) {
    return StrategyCases.body(core.send("GET", "/apis/networking.k8s.io/v1/namespaces/default/ingresses/" + name, Map.of(), null));
  }
}
