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
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.api.clock.Clock;
import io.listwatch.apiserver.flowcontrol.FlowControl;
import io.listwatch.apiserver.flowcontrol.FlowControlObserver;
import io.listwatch.apiserver.flowcontrol.Rejection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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

  @Test
  void priorityAndFairness_refusingAtOnce_failsWithItsRejection_andGivesTheWatchSlotBack() throws Exception {
    // one level of one seat that refuses rather than queues, and every user in it
    ObjectMapper json = new ObjectMapper();
    JsonNode level = json.readTree("""
        {"metadata":{"name":"one","uid":"l1"},"spec":{"type":"Limited","limited":{"nominalConcurrencyShares":1,
          "limitResponse":{"type":"Reject"}}}}""");
    JsonNode schema = json.readTree("""
        {"metadata":{"name":"all","uid":"s1"},"spec":{"priorityLevelConfiguration":{"name":"one"},
          "matchingPrecedence":1,"rules":[{"subjects":[{"kind":"Group","group":{"name":"system:unauthenticated"}}],
          "resourceRules":[{"verbs":["*"],"apiGroups":["*"],"resources":["*"],"clusterScope":true}]}]}}""");
    try (FlowControl apf = new FlowControl(1, Duration.ofSeconds(15), Clock.system(), (g, r) -> 0,
        FlowControlObserver.NONE)) {
      apf.configure(List.of(schema), List.of(level));
      HandlerChain chain = HandlerChain.builder().flowControl(apf).watchLimit(new WatchLimit(1)).build();
      ApiRequest get = request("GET", "/api/v1/pods");
      CompletableFuture<HandlerChain.Admission> executing = chain.admitAsync(get, info(get), null);
      assertThat(executing).as("the one seat is free").isCompleted();

      ApiRequest watch = request("GET", "/api/v1/pods?watch=true");
      CompletableFuture<HandlerChain.Admission> refused = chain.admitAsync(watch, info(watch), null);
      assertThat(refused).as("no seat and no queue: refused at once").isCompletedExceptionally();
      assertThat(refused.exceptionNow()).as("kube's 429 as it is, with its classification, not wrapped")
          .isInstanceOfSatisfying(Rejection.class, r -> {
            assertThat(r.reason()).isEqualTo("concurrency-limit");
            assertThat(r.classification().orElseThrow().priorityLevelUid()).isEqualTo("l1");
          });

      executing.join().release();
      CompletableFuture<HandlerChain.Admission> again = chain.admitAsync(watch, info(watch), null);
      assertThat(again).as("the refused watch held no place in the user's watch limit of 1").isCompleted();
      again.join().release();
    }
  }
}
