package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.allocation.ServiceRequests.causes;
import static io.listwatch.apiserver.allocation.ServiceRequests.ok;
import static io.listwatch.apiserver.allocation.ServiceRequests.refusal;
import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube's {@code ValidateEndpoints} (create and update) and {@code ValidateEndpointSlice}
 * through the core: each row a body kube 1.32 refuses (cases of kube's
 * {@code TestValidateEndpointsCreate} and {@code TestValidateEndpointSlice}) and every cause of
 * its 422.
 */
class EndpointsValidationTest {

  private static final String ENDPOINTS = "/api/v1/namespaces/default/endpoints";
  private static final String SLICES = "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices";

  private final InMemoryCore core = InMemoryCore.start();

  @AfterEach
  void stop() {
    core.close();
  }

  private static String endpoints(String subsets) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Endpoints\",\"metadata\":{\"name\":\"e\"},\"subsets\":" + subsets + "}";
  }

  private static String slice(String rest) {
    return "{\"apiVersion\":\"discovery.k8s.io/v1\",\"kind\":\"EndpointSlice\",\"metadata\":{\"name\":\"s\"}" + rest + "}";
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
      [{"ports":[{"port":80}]}]                                      | subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`
      [{"addresses":[{"ip":"10.1.2.300"}]}]                          | subsets[0].addresses[0].ip: Invalid value: "10.1.2.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff) ;; subsets[0].addresses[0].ip: Invalid value: "10.1.2.300": must be a valid IP address
      [{"addresses":[{"ip":"127.0.0.1"}]}]                           | subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)
      [{"notReadyAddresses":[{"ip":"169.254.1.1"}]}]                 | subsets[0].notReadyAddresses[0].ip: Invalid value: "169.254.1.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)
      [{"addresses":[{"ip":"224.0.0.1"}]}]                           | subsets[0].addresses[0].ip: Invalid value: "224.0.0.1": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)
      [{"addresses":[{"ip":"0.0.0.0"}]}]                             | subsets[0].addresses[0].ip: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)
      [{"addresses":[{"ip":"10.1.2.3"}],"ports":[{"port":0}]}]        | subsets[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive
      [{"addresses":[{"ip":"10.1.2.3"}],"ports":[{"port":80,"protocol":"HTTP"}]}] | subsets[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"
      [{"addresses":[{"ip":"10.1.2.3"}],"ports":[{"name":"a","port":80},{"port":81}]}] | subsets[0].ports[1].name: Required value
      """)
  void endpoints_refused(String subsets, String expected) {
    StatusException e = refusal(core.server, "POST", ENDPOINTS, Map.of(), endpoints(subsets));
    assertThat(e.code()).isEqualTo(422);
    assertThat(causes(e)).containsExactlyElementsOf(Arrays.asList(expected.split(" ;; ")));
  }

  @Test
  void endpoints_taken_andCheckedOnUpdateToo() {
    ok(core.server, "POST", ENDPOINTS, Map.of(), endpoints("[{\"addresses\":[{\"ip\":\"10.1.2.3\",\"hostname\":\"a\","
        + "\"nodeName\":\"node-1\"}],\"notReadyAddresses\":[{\"ip\":\"2001:db8::1\"}],\"ports\":[{\"name\":\"http\",\"port\":80},"
        + "{\"name\":\"dns\",\"port\":53,\"protocol\":\"UDP\"}]}]"));
    StatusException e = refusal(core.server, "PUT", ENDPOINTS + "/e", Map.of(),
        endpoints("[{\"addresses\":[{\"ip\":\"127.0.0.2\"}]}]"));
    assertThat(causes(e)).containsExactly(
        "subsets[0].addresses[0].ip: Invalid value: \"127.0.0.2\": may not be in the loopback range (127.0.0.0/8, ::1/128)");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
      ,"endpoints":[]                                               | addressType: Required value
      ,"addressType":"IP","endpoints":[]                            | addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"
      ,"addressType":"IPv4","endpoints":[{"addresses":[]}]          | endpoints[0].addresses: Required value: must contain at least 1 address
      ,"addressType":"IPv4","endpoints":[{"addresses":["2001:db8::1"]}] | endpoints[0].addresses[0]: Invalid value: "2001:db8::1": must be a valid IPv4 address
      ,"addressType":"IPv6","endpoints":[{"addresses":["10.1.2.3"]}] | endpoints[0].addresses[0]: Invalid value: "10.1.2.3": must be a valid IPv6 address
      ,"addressType":"IPv4","endpoints":[{"addresses":["127.0.0.1"]}] | endpoints[0].addresses[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)
      ,"addressType":"IPv4","endpoints":[{"addresses":["10.1.2.3"],"hostname":"A_B"}] | endpoints[0].hostname: Invalid value: "A_B": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')
      ,"addressType":"IPv4","endpoints":[],"ports":[{"name":"http","port":80},{"name":"http","port":81}] | ports[1].name: Duplicate value: "http"
      ,"addressType":"IPv4","endpoints":[{"addresses":["10.1.2.3"],"hints":{"forZones":[{"name":"a"},{"name":"a"}]}}] | endpoints[0].hints.forZones[1].name: Duplicate value: "a"
      ,"addressType":"IPv4","endpoints":[{"addresses":["x"]}]       | endpoints[0].addresses[0]: Invalid value: "x": must be a valid IPv4 address ;; endpoints[0].addresses[0]: Invalid value: "x": must be a valid IP address
      ,"addressType":"IPv4","endpoints":[],"ports":[{"port":80,"protocol":"HTTP"}] | ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"
      """)
  void endpointSlice_refused(String rest, String expected) {
    StatusException e = refusal(core.server, "POST", SLICES, Map.of(), slice(rest));
    assertThat(e.code()).isEqualTo(422);
    assertThat(causes(e)).containsExactlyElementsOf(Arrays.asList(expected.split(" ;; ")));
  }

  @Test
  void endpointSlice_defaults_andAddressTypeIsImmutable() {
    var stored = ok(core.server, "POST", SLICES, Map.of(), slice(",\"addressType\":\"IPv4\",\"endpoints\":[{\"addresses\":"
        + "[\"10.1.2.3\"],\"conditions\":{\"ready\":true}}],\"ports\":[{\"port\":80}]"));
    assertThat(stored.path("ports").toString()).isEqualTo("[{\"port\":80,\"name\":\"\",\"protocol\":\"TCP\"}]");
    stored.put("addressType", "IPv6");
    stored.set("endpoints", stored.arrayNode());
    StatusException e = refusal(core.server, "PUT", SLICES + "/s", Map.of(), stored.toString());
    assertThat(causes(e)).containsExactly("addressType: Invalid value: \"IPv6\": field is immutable");
  }
}
