package io.listwatch.server.filters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.apiserver.request.RequestInfo;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MaxInFlightLimitTest {

  private static final UserInfo ALICE = UserInfo.of("alice", List.of(UserInfo.AUTHENTICATED));
  private static final UserInfo ADMIN = UserInfo.of("admin", List.of(UserInfo.MASTERS, UserInfo.AUTHENTICATED));

  private static RequestInfo info(String method, String path) {
    return RequestInfo.parse(method, path, Map.of(), (g, r) -> !r.equals("namespaces"));
  }

  private static RequestInfo watch(String path) {
    return RequestInfo.parse("GET", path, Map.of("watch", List.of("true")), (g, r) -> !r.equals("namespaces"));
  }

  @Test
  void readOnly_overTheLimit_isTooManyRequests_withRetryAfterOneSecond() {
    MaxInFlightLimit limit = new MaxInFlightLimit(2, 1);
    limit.acquire(ALICE, info("GET", "/api/v1/namespaces/default/pods"));
    limit.acquire(ALICE, info("GET", "/api/v1/namespaces/default/pods/a"));
    assertThatThrownBy(() -> limit.acquire(ALICE, info("GET", "/api/v1/pods")))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.code()).isEqualTo(429);
          assertThat(e.status().reason()).isEqualTo("TooManyRequests");
          assertThat(e.status().message()).isEqualTo("Too many requests, please try again later.");
          assertThat(e.status().details().retryAfterSeconds()).isEqualTo(1);
        });
    assertThat(limit.readOnlyInFlight()).isEqualTo(2);
  }

  @Test
  void readOnlyAndMutating_areCountedSeparately() {
    MaxInFlightLimit limit = new MaxInFlightLimit(1, 1);
    limit.acquire(ALICE, info("GET", "/api/v1/namespaces/default/pods"));
    MaxInFlightLimit.Slot write = limit.acquire(ALICE, info("POST", "/api/v1/namespaces/default/pods"));
    assertThat(limit.mutatingInFlight()).isEqualTo(1);
    assertThatThrownBy(() -> limit.acquire(ALICE, info("DELETE", "/api/v1/namespaces/default/pods/a")))
        .isInstanceOf(StatusException.class);
    assertThatThrownBy(() -> limit.acquire(ALICE, info("GET", "/version")))
        .as("a non-resource GET is read-only").isInstanceOf(StatusException.class);
    write.release();
    limit.acquire(ALICE, info("PATCH", "/api/v1/namespaces/default/pods/a"));
    assertThat(limit.mutatingInFlight()).isEqualTo(1);
  }

  @Test
  void releasedSlot_isFreeAgain() {
    MaxInFlightLimit limit = new MaxInFlightLimit(1, 1);
    MaxInFlightLimit.Slot s = limit.acquire(ALICE, info("GET", "/api/v1/pods"));
    s.release();
    assertThat(limit.readOnlyInFlight()).isZero();
    limit.acquire(ALICE, info("GET", "/api/v1/pods"));
  }

  @Test
  void watches_areLongRunning_andNotCounted() {
    MaxInFlightLimit limit = new MaxInFlightLimit(1, 1);
    for (int i = 0; i < 5; i++) {
      assertThat(limit.acquire(ALICE, watch("/api/v1/pods"))).isSameAs(MaxInFlightLimit.Slot.NONE);
    }
    assertThat(limit.readOnlyInFlight()).isZero();
    assertThat(MaxInFlightLimit.isLongRunning(info("GET", "/api/v1/namespaces/default/pods/a/log"))).isTrue();
    assertThat(MaxInFlightLimit.isLongRunning(info("POST", "/api/v1/namespaces/default/pods/a/exec"))).isTrue();
    assertThat(MaxInFlightLimit.isLongRunning(info("GET", "/api/v1/namespaces/default/pods/a/status"))).isFalse();
  }

  @Test
  void systemMasters_overTheLimit_areStillServed_asInKube() {
    MaxInFlightLimit limit = new MaxInFlightLimit(1, 1);
    limit.acquire(ALICE, info("GET", "/api/v1/pods"));
    assertThat(limit.acquire(ADMIN, info("GET", "/api/v1/pods"))).isSameAs(MaxInFlightLimit.Slot.NONE);
    assertThatThrownBy(() -> limit.acquire(ALICE, info("GET", "/api/v1/pods"))).isInstanceOf(StatusException.class);
  }

  @Test
  void zero_isUnlimited_butStillCounted() {
    MaxInFlightLimit limit = new MaxInFlightLimit(0, 0);
    for (int i = 0; i < 1000; i++) {
      limit.acquire(ALICE, info("GET", "/api/v1/pods"));
    }
    assertThat(limit.readOnlyInFlight()).isEqualTo(1000);
  }
}
