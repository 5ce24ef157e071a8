package io.listwatch.server.filters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.request.UserInfo;
import java.util.List;
import org.junit.jupiter.api.Test;

class WatchLimitTest {

  private static final UserInfo ALICE = UserInfo.of("alice", List.of(UserInfo.AUTHENTICATED));
  private static final UserInfo BOB = UserInfo.of("bob", List.of(UserInfo.AUTHENTICATED));

  @Test
  void oneWatchOverTheLimit_isTooManyRequests_onlyForThatUser() {
    WatchLimit limit = new WatchLimit(2);
    limit.acquire(ALICE);
    limit.acquire(ALICE);
    assertThatThrownBy(() -> limit.acquire(ALICE)).isInstanceOfSatisfying(StatusException.class, e -> {
      assertThat(e.code()).isEqualTo(429);
      assertThat(e.status().reason()).isEqualTo("TooManyRequests");
      assertThat(e.status().message()).contains("alice").contains("limit 2");
      assertThat(e.status().details().retryAfterSeconds()).isEqualTo(1);
    });
    limit.acquire(BOB);
    assertThat(limit.watches("alice")).isEqualTo(2);
    assertThat(limit.watches("bob")).isEqualTo(1);
  }

  @Test
  void endedWatch_freesItsPlace() {
    WatchLimit limit = new WatchLimit(1);
    MaxInFlightLimit.Slot w = limit.acquire(ALICE);
    w.release();
    assertThat(limit.watches("alice")).isZero();
    limit.acquire(ALICE);
  }

  @Test
  void systemMasters_andZero_areUnlimited() {
    WatchLimit limit = new WatchLimit(1);
    UserInfo admin = UserInfo.of("admin", List.of(UserInfo.MASTERS));
    for (int i = 0; i < 10; i++) {
      limit.acquire(admin);
    }
    WatchLimit unlimited = new WatchLimit(0);
    for (int i = 0; i < 10; i++) {
      unlimited.acquire(ALICE);
    }
  }
}
