package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube 1.32's {@code ValidateIngressStatusUpdate} through the core's {@code /status}: each row
 * the ingress entries of {@code status.loadBalancer} (cases of kube's
 * {@code TestValidateIngressStatusUpdate}) and every cause of the 422, or none.
 */
class IngressStatusValidationTest {

  private static final String INGRESSES = "/apis/networking.k8s.io/v1/namespaces/default/ingresses";
  private static final String INGRESS = "{\"apiVersion\":\"networking.k8s.io/v1\",\"kind\":\"Ingress\",\"metadata\":{\"name\":\"web\"},"
      + "\"spec\":{\"defaultBackend\":{\"service\":{\"name\":\"web\",\"port\":{\"number\":80}}}}%s}";

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
      [{"ip":"127.0.0.1","hostname":"foo.bar.com"}]                   |
      [{"ip":"2001:db8::1"},{"hostname":"lb.example.com","ports":[{"port":-1,"protocol":"BAD"}]}] |
      [{"ip":"010.001.002.003"}]                                       |
      [{"ip":"999.0.0.0","hostname":"foo.bar.com"}]                   | status.loadBalancer.ingress[0].ip: Invalid value: "999.0.0.0": must be a valid IP address
      [{"ip":"127.0.0.1","hostname":"127.0.0.1"}]                     | status.loadBalancer.ingress[0].hostname: Invalid value: "127.0.0.1": must be a DNS name, not an IP address
      [{"hostname":"Foo_Bar"}]                                          | status.loadBalancer.ingress[0].hostname: Invalid value: "Foo_Bar": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
      [{"ip":"1.2.3.4"},{"ip":"foo","hostname":"::1"}]                 | status.loadBalancer.ingress[1].ip: Invalid value: "foo": must be a valid IP address ;; status.loadBalancer.ingress[1].hostname: Invalid value: "::1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*') ;; status.loadBalancer.ingress[1].hostname: Invalid value: "::1": must be a DNS name, not an IP address
      """)
  void statusUpdate(String ingress, String causes) {
    try (InMemoryCore core = InMemoryCore.start()) {
      core.send("POST", INGRESSES, Map.of(), INGRESS.formatted(""));
      String body = INGRESS.formatted(",\"status\":{\"loadBalancer\":{\"ingress\":" + ingress + "}}");
      if (causes == null) {
        ObjectNode stored = StrategyCases.body(core.send("PUT", INGRESSES + "/web/status", Map.of(), body));
        assertThat(stored.path("status").path("loadBalancer").path("ingress").size()).isEqualTo(InMemoryCore.json(
            "{\"i\":" + ingress + "}").path("i").size());
        return;
      }
      StatusException e = core.refusal("PUT", INGRESSES + "/web/status", Map.of(), body);
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.status().details().causes()).extracting(c -> c.field() + ": " + c.message())
          .containsExactlyElementsOf(List.of(causes.split(" ;; ")));
    }
  }

  @Test
  void mainResourceUpdate_keepsTheStoredStatus_andIsNotHeldToStatusRules() {
    try (InMemoryCore core = InMemoryCore.start()) {
      core.send("POST", INGRESSES, Map.of(), INGRESS.formatted(""));
      ObjectNode updated = StrategyCases.body(core.send("PUT", INGRESSES + "/web", Map.of(),
          INGRESS.formatted(",\"status\":{\"loadBalancer\":{\"ingress\":[{\"ip\":\"bad\"}]}}")));
      assertThat(updated.path("status").path("loadBalancer").path("ingress").isEmpty()).isTrue();
    }
  }
}
