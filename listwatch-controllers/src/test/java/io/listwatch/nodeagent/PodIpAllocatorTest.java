package io.listwatch.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PodIpAllocatorTest {

  @Test
  void allocate_skipsNetworkAndBridge_stopsBeforeBroadcast_andIsStablePerPod() {
    PodIpAllocator ips = new PodIpAllocator("10.0.0.0/30");
    assertThat(ips.allocate("a")).contains("10.0.0.2");
    assertThat(ips.allocate("a")).contains("10.0.0.2");
    assertThat(ips.allocate("b")).isEmpty();
    ips.release("a");
    assertThat(ips.allocate("b")).contains("10.0.0.2");
  }

  @Test
  void reserve_refusesAnotherPodsIp_andIpsOutsideTheRange() {
    PodIpAllocator ips = new PodIpAllocator("10.244.1.0/24");
    assertThat(ips.reserve("a", "10.244.1.9")).isTrue();
    assertThat(ips.reserve("b", "10.244.1.9")).isFalse();
    assertThat(ips.reserve("b", "10.244.2.9")).isFalse();
  }

  @Test
  void badCidr_isRefused() {
    assertThatThrownBy(() -> new PodIpAllocator("fd00::/64")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new PodIpAllocator("10.0.0.0")).isInstanceOf(IllegalArgumentException.class);
  }
}
