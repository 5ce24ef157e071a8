package io.listwatch.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.StatusException;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatusErrorsTest {

  private static StatusException error(int code, Map<String, List<String>> headers, String body) {
    return StatusErrors.fromResponse(code, new RestTransport.RestResponse(code, headers, InputStream.nullInputStream()).header("Retry-After"),
        new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void aStatusBody_isThrownAsTheServerSentIt() {
    StatusException e = error(409, Map.of(), """
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
         "message":"pods \\"web\\" already exists","reason":"AlreadyExists",
         "details":{"name":"web","kind":"pods"},"code":409}""");
    assertThat(e.code()).isEqualTo(409);
    assertThat(e.reason()).isEqualTo("AlreadyExists");
    assertThat(e.getMessage()).isEqualTo("pods \"web\" already exists");
    assertThat(e.status().details().name()).isEqualTo("web");
  }

  @Test
  void aNonStatusBody_givesAKubeShapedStatusFromTheCode_withTheBodyInTheMessage() {
    StatusException e = error(503, Map.of(), "<html>upstream down</html>");
    assertThat(e.status().kind()).isEqualTo("Status");
    assertThat(e.status().status()).isEqualTo("Failure");
    assertThat(e.code()).isEqualTo(503);
    assertThat(e.reason()).isEqualTo("ServiceUnavailable");
    assertThat(e.getMessage()).contains("upstream down");
  }

  @Test
  void tooManyRequests_keepsRetryAfterInTheDetails() {
    StatusException synthesized = error(429, Map.of("Retry-After", List.of("7")), "");
    assertThat(synthesized.reason()).isEqualTo("TooManyRequests");
    assertThat(synthesized.status().details().retryAfterSeconds()).isEqualTo(7);

    StatusException fromBody = error(429, Map.of("Retry-After", List.of("3")),
        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"TooManyRequests\",\"code\":429}");
    assertThat(fromBody.status().details().retryAfterSeconds()).isEqualTo(3);
  }
}
