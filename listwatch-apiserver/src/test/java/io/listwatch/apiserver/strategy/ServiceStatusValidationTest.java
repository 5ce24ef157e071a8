package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube 1.32's {@code ValidateServiceStatusUpdate} through the core's {@code /status}: each row a
 * Service type, the entries of {@code status.loadBalancer.ingress} (cases of kube's
 * {@code TestValidateLoadBalancerStatus}), and every cause of the 422, or (none) the entries as
 * stored, an address's {@code ipMode} defaulted to {@code VIP} as kube 1.32 defaults it.
 */
class ServiceStatusValidationTest {

  private static final String SERVICES = "/api/v1/namespaces/default/services";
  private static final String SERVICE = "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"lb\"},"
      + "\"spec\":{\"type\":\"%s\",\"ports\":[{\"port\":80}]}%s}";

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
      LoadBalancer | [{"ip":"1.2.3.4"}]                        | | [{"ip":"1.2.3.4","ipMode":"VIP"}]
      LoadBalancer | [{"ip":"1.2.3.4","ipMode":"Proxy"}]       | | [{"ip":"1.2.3.4","ipMode":"Proxy"}]
      LoadBalancer | [{"hostname":"lb.example.com"}]           | | [{"hostname":"lb.example.com"}]
      LoadBalancer | [{"ip":"1.2.3.4","ipMode":"Foo"}]         | status.loadBalancer.ingress[0].ipMode: Unsupported value: "Foo": supported values: "Proxy", "VIP" |
      LoadBalancer | [{"hostname":"lb.example.com","ipMode":"VIP"}] | status.loadBalancer.ingress[0].ipMode: Forbidden: may not be specified when `ip` is not set |
      LoadBalancer | [{"ip":"999.0.0.0"}]                      | status.loadBalancer.ingress[0].ip: Invalid value: "999.0.0.0": must be a valid IP address |
      LoadBalancer | [{"hostname":"10.0.0.1"}]                 | status.loadBalancer.ingress[0].hostname: Invalid value: "10.0.0.1": must be a DNS name, not an IP address |
      ClusterIP    | [{"ip":"1.2.3.4"}]                        | status.loadBalancer.ingress: Forbidden: may only be used when `spec.type` is 'LoadBalancer' |
      NodePort     | []                                        | | []
      """)
  void statusUpdate(String type, String ingress, String causes, String stored) {
    try (InMemoryCore core = InMemoryCore.start()) {
      core.send("POST", SERVICES, Map.of(), SERVICE.formatted(type, ""));
      String body = SERVICE.formatted(type, ",\"status\":{\"loadBalancer\":{\"ingress\":" + ingress + "}}");
      if (causes == null) {
        ObjectNode written = StrategyCases.body(core.send("PUT", SERVICES + "/lb/status", Map.of(), body));
        assertThat(written.path("status").path("loadBalancer").path("ingress").toString())
            .isEqualTo(stored.equals("[]") ? "" : stored);
        return;
      }
      StatusException e = core.refusal("PUT", SERVICES + "/lb/status", Map.of(), body);
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.status().details().causes()).extracting(c -> c.field() + ": " + c.message())
          .containsExactlyElementsOf(List.of(causes.split(" ;; ")));
    }
  }
}
