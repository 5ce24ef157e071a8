package io.listwatch.server.filters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.api.StatusException;
import io.listwatch.server.authz.Decision;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.ConnectionInfo;
import io.listwatch.apiserver.request.RequestInfo;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The limits inside the chain: taken after authentication, given back on release or refusal. */
class HandlerChainLimitsTest {

  private static final ConnectionInfo SECURE = new ConnectionInfo(ConnectionInfo.Listener.SECURE, List.of(), null);

  private static ApiRequest request(String method, String uri) {
    return io.listwatch.server.http.ApiRequests.from(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.valueOf(method), uri), SECURE);
  }

  private static RequestInfo info(ApiRequest r) {
    return RequestInfo.parse(r.method(), r.path(), r.query(), (g, res) -> !res.equals("namespaces"));
  }

  @Test
  void admittedRequest_holdsItsSlot_untilReleased_once() {
    HandlerChain chain = HandlerChain.builder().maxInFlight(new MaxInFlightLimit(1, 1)).build();
    ApiRequest get = request("GET", "/api/v1/pods");
    HandlerChain.Admission a = chain.admit(get, info(get));
    assertThatThrownBy(() -> chain.admit(get, info(get))).isInstanceOf(StatusException.class);
    a.release();
    a.release(); // idempotent: must not free a slot it no longer holds
    HandlerChain.Admission b = chain.admit(get, info(get));
    assertThat(chain.inFlightLimit().readOnlyInFlight()).isEqualTo(1);
    assertThatThrownBy(() -> chain.admit(get, info(get))).isInstanceOf(StatusException.class);
    b.release();
  }

  @Test
  void requestRefusedByAuthorization_givesItsSlotBack() {
    HandlerChain chain = HandlerChain.builder().maxInFlight(new MaxInFlightLimit(1, 1))
        .authorizer(attributes -> Decision.deny("no")).anonymousAuth(true).build();
    ApiRequest get = request("GET", "/api/v1/pods");
    for (int i = 0; i < 3; i++) {
      assertThatThrownBy(() -> chain.admit(get, info(get)))
          .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(401));
    }
    assertThat(chain.inFlightLimit().readOnlyInFlight()).isZero();
  }

  @Test
  void watches_countAgainstTheUsersWatchLimit_untilReleased() {
    HandlerChain chain = HandlerChain.builder().watchLimit(new WatchLimit(1)).build();
    ApiRequest watch = request("GET", "/api/v1/pods?watch=true");
    HandlerChain.Admission w = chain.admit(watch, info(watch));
    assertThatThrownBy(() -> chain.admit(watch, info(watch)))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(429));
    w.release();
    chain.admit(watch, info(watch));
  }
}
