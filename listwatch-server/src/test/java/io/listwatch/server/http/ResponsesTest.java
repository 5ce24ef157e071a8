package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.flowcontrol.Rejection;
import io.listwatch.apiserver.request.ApiResponse;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http.FullHttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Error Statuses as the server answers them. */
class ResponsesTest {

  private static String body(FullHttpResponse r) {
    try {
      return r.content().toString(StandardCharsets.UTF_8);
    } finally {
      r.release();
    }
  }

  @Test
  void theRefusals429_isKubesStatus_everyTime_andNoAnswerSpendsAnother() {
    StatusException refusal = StatusException.tooManyRequests(Rejection.MESSAGE, Rejection.RETRY_AFTER_SECONDS);
    String expected = new String(ApiResponse.json(refusal.status()), StandardCharsets.UTF_8);

    FullHttpResponse first = Responses.status(refusal);
    FullHttpResponse second = Responses.status(refusal);
    assertThat(first.status().code()).isEqualTo(429);
    assertThat(first.headers().get("Retry-After")).isEqualTo("1");
    assertThat(first.headers().getInt("Content-Length")).isEqualTo(expected.length());
    assertThat(first.content().isReadOnly()).isTrue(); // one array behind every 429: nobody may write it
    assertThat(new String(ByteBufUtil.getBytes(first.content()), StandardCharsets.UTF_8)).isEqualTo(expected)
        .contains("\"reason\":\"TooManyRequests\"");
    first.content().skipBytes(first.content().readableBytes()); // one answer written out...
    body(first);
    assertThat(body(second)).isEqualTo(expected); // ...leaves the next one whole
  }

  @Test
  void theRefusals429_inProtobuf_isKubesStatusToo() {
    StatusException refusal = StatusException.tooManyRequests(Rejection.MESSAGE, Rejection.RETRY_AFTER_SECONDS);
    byte[] expected = io.listwatch.apiserver.protobuf.KubeProtobuf.encode(ApiResponse.json(refusal.status()));

    FullHttpResponse first = Responses.status(refusal, true);
    FullHttpResponse second = Responses.status(refusal, true);

    assertThat(first.headers().get("Retry-After")).isEqualTo("1");
    assertThat(first.content().isReadOnly()).isTrue();
    first.content().skipBytes(first.content().readableBytes());
    first.release();
    assertThat(ByteBufUtil.getBytes(second.content())).isEqualTo(expected);
    second.release();
  }

  @Test
  void another429_isEncodedAsItIs() {
    StatusException other = StatusException.tooManyRequests("too many watches for user alice", 2);

    FullHttpResponse r = Responses.status(other);

    assertThat(r.headers().get("Retry-After")).isEqualTo("2");
    assertThat(body(r)).isEqualTo(new String(ApiResponse.json(other.status()), StandardCharsets.UTF_8));
  }
}
