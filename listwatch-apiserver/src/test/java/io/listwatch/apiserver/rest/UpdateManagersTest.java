package io.listwatch.apiserver.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.apiserver.request.ConnectionInfo;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.Headers;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How kube names the manager of an ordinary write. */
class UpdateManagersTest {

  private static ApiRequest request(Map<String, List<String>> query, String userAgent) {
    Headers headers = userAgent == null ? Headers.empty() : Headers.of("User-Agent", userAgent);
    return new ApiRequest(ApiRequest.POST, "/api/v1/namespaces/default/configmaps", query, headers, new byte[0],
        new ConnectionInfo(ConnectionInfo.Listener.INSECURE, List.of(), null), null);
  }

  @Test
  void manager_isTheFieldManagerParameter_whenGiven() {
    assertThat(UpdateManagers.manager(request(Map.of("fieldManager", List.of("alice")), "kubectl/v1.32.0")))
        .isEqualTo("alice");
  }

  @Test
  void manager_isWhatPrecedesTheUserAgentsFirstSlash() {
    assertThat(UpdateManagers.manager(request(Map.of(), "kubectl/v1.32.0 (linux/amd64) kubernetes/70d3cc9")))
        .isEqualTo("kubectl");
    assertThat(UpdateManagers.manager(request(Map.of(), "Go-http-client/1.1"))).isEqualTo("Go-http-client");
    assertThat(UpdateManagers.manager(request(Map.of(), "my operator"))).isEqualTo("my operator");
  }

  @Test
  void manager_dropsUnprintableCharacters_andStopsAt128Bytes() {
    assertThat(UpdateManagers.manager(request(Map.of(), "a\tb\u200bc/1"))).isEqualTo("abc");
    String tooLong = "é".repeat(70); // 140 bytes in UTF-8
    assertThat(UpdateManagers.manager(request(Map.of(), tooLong))).isEqualTo("é".repeat(64));
  }
}
