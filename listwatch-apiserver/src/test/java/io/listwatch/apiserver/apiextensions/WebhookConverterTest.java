package io.listwatch.apiserver.apiextensions;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** What a conversion webhook's HTTP error answers become (kube's REST client's generic messages). */
class WebhookConverterTest {

  @Test
  void anHttpErrorAnswer_isDescribedAsKubesClientDoes() throws Exception {
    assertThat(WebhookConverter.httpError(500, null))
        .isEqualTo("an error on the server (\"unknown\") has prevented the request from succeeding");
    assertThat(WebhookConverter.httpError(404, null)).isEqualTo("the server could not find the requested resource");
    assertThat(WebhookConverter.httpError(418, null))
        .isEqualTo("the server responded with the status code 418 but did not return more information");
    assertThat(WebhookConverter.httpError(403, new ObjectMapper().readTree(
        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\"go away\"}")))
        .isEqualTo("go away");
  }
}
