package io.listwatch.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StatusExceptionTest {

  @Test
  void tooManyRequests_carriesKubesStatusAndRetryAfter_withoutAStackTrace() {
    StatusException e = StatusException.tooManyRequests("Too many requests, please try again later.", 1);

    assertThat(e.code()).isEqualTo(429);
    assertThat(e.reason()).isEqualTo("TooManyRequests");
    assertThat(e.getMessage()).isEqualTo("Too many requests, please try again later.");
    assertThat(e.status().details().retryAfterSeconds()).isEqualTo(1);
    // the overload answer: a flood gets thousands a second, so none walks the stack
    assertThat(e.getStackTrace()).isEmpty();
  }

  @Test
  void otherErrors_keepTheirStackTrace() {
    assertThat(StatusException.badRequest("bad").getStackTrace()).isNotEmpty();
  }
}
