package io.listwatch.bench.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PodsTest {

  @Test
  void aHundredThousandPods_haveUniqueIps_andAtMost110PerNode() {
    Set<String> ips = new HashSet<>();
    Map<String, Integer> perNode = new HashMap<>();
    for (int i = 0; i < 100_000; i++) {
      ips.add(Pods.podIp(i));
      perNode.merge(Pods.nodeName(i), 1, Integer::sum);
    }
    assertThat(ips).hasSize(100_000);
    assertThat(perNode.values()).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(110));
    assertThat(perNode).hasSize(1_000);
  }

  @Test
  void theBody_carriesThePodsNodeAndIp() {
    String body = new String(new Pods(1024).create("default", "p-12345", 12345), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(body).contains("\"nodeName\":\"node-0123\"").contains("\"podIP\":\"10.0.123.46\"");
  }
}
