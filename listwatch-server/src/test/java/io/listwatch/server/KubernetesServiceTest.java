package io.listwatch.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * What a client of a running server finds of kube's {@code default/kubernetes} Service: the
 * Service on the first address of the Service range, port 443 to the server's port, and its
 * Endpoints and EndpointSlice naming the server's advertised address.
 */
class KubernetesServiceTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(15);
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(WAIT).build();

  private JsonNode get(ApiServer server, String path) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(server.url() + path)).timeout(WAIT).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
    return JSON.readTree(r.body());
  }

  @Test
  void theKubernetesService_andItsEndpoints_nameThisServer() throws Exception {
    String address = ApiServer.advertiseAddress("127.0.0.1").orElse(null);
    org.junit.jupiter.api.Assumptions.assumeTrue(address != null, "this machine has no address but loopback");
    try (ApiServer server = ApiServer.builder().build().start()) {
      JsonNode svc = get(server, "/api/v1/namespaces/default/services/kubernetes");
      assertThat(svc.at("/spec/clusterIP").asText()).isEqualTo("10.96.0.1");
      assertThat(svc.at("/spec/ports/0/name").asText()).isEqualTo("https");
      assertThat(svc.at("/spec/ports/0/port").asInt()).isEqualTo(443);
      assertThat(svc.at("/spec/ports/0/targetPort").asInt()).isEqualTo(server.port());
      JsonNode ep = get(server, "/api/v1/namespaces/default/endpoints/kubernetes");
      assertThat(ep.at("/subsets/0/addresses/0/ip").asText()).isEqualTo(address);
      assertThat(ep.at("/subsets/0/ports/0/port").asInt()).isEqualTo(server.port());
      JsonNode slices = get(server,
          "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3Dkubernetes");
      assertThat(slices.at("/items/0/endpoints/0/addresses/0").asText()).isEqualTo(address);
      assertThat(slices.at("/items/0/ports/0/name").asText()).isEqualTo("https");
    }
  }

  @Test
  void advertiseAddress_isASpecificBindAddress_elseAnInterfaceAddress() {
    assertThat(ApiServer.advertiseAddress("192.0.2.50")).contains("192.0.2.50");
    assertThat(ApiServer.advertiseAddress("0.0.0.0")).isEqualTo(ApiServer.advertiseAddress("127.0.0.1"));
    ApiServer.advertiseAddress("127.0.0.1").ifPresent(ip -> assertThat(ip).doesNotStartWith("127."));
  }
}
