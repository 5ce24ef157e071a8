package io.listwatch.storage.etcd.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

class LocalProcessesTest {

  @Test
  void freePort_isBindable_andBelowTheEphemeralRange_soNoConnectionTakesItFirst() throws Exception {
    int ephemeralLow = LocalProcesses.ephemeralLow();
    for (int i = 0; i < 20; i++) {
      int port = LocalProcesses.freePort();
      if (ephemeralLow >= 16_000) { // room below the range (Linux's default starts at 32768)
        assertThat(port).isBetween(10_000, ephemeralLow - 1);
      }
      try (ServerSocket s = new ServerSocket()) {
        s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
        assertThat(s.getLocalPort()).isEqualTo(port);
      }
    }
  }
}
