package io.listwatch.bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FanOutFiguresTest {

  @Test
  void figureKeys_nameTransportsAndTopologies_inLowerCamelCase() {
    assertThat(FanOutFigures.lowerCamel("http1-tls")).isEqualTo("http1Tls");
    assertThat(FanOutFigures.lowerCamel("etcd-2-haproxy")).isEqualTo("etcd2Haproxy");
    assertThat(FanOutFigures.lowerCamel("ws")).isEqualTo("ws");
  }
}
