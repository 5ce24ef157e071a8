package io.listwatch.bench.apf;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.listwatch.bench.LatencyRecorder;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The light user sends on its schedule, and its timeline has each request's due time and
 * latency in the order sent, to line up with the server's logs ({@code bench apf --timeline-dir}).
 */
class OpenLoopGetsTest {

  private HttpServer server;
  /** The client port of each request's connection, and its Authorization header. */
  private final java.util.Set<Integer> connections = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private final java.util.Set<String> tokens = java.util.concurrent.ConcurrentHashMap.newKeySet();

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/ok", exchange -> {
      connections.add(exchange.getRemoteAddress().getPort());
      tokens.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
      byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(exchange.getRequestURI().getQuery() == null ? 200 : 500, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private URI uri(String query) {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/ok" + query);
  }

  @Test
  void run_sendsEachRequestAtItsDueTime_andTimesThemAll() throws Exception {
    try (HttpClient client = HttpClient.newHttpClient()) {
      OpenLoopGets.Result r = new OpenLoopGets(LightClient.async(client, uri(""), "t"), 100).run(Duration.ofMillis(200));

      assertThat(r.sent()).isEqualTo(20);
      assertThat(r.errors()).isZero();
      assertThat(r.latencies().count()).isEqualTo(20);
      long[] due = r.timeline().dueEpochMillis();
      assertThat(due).hasSize(20);
      for (int i = 1; i < due.length; i++) {
        assertThat(due[i] - due[i - 1]).as("request %d is due 10 ms after the one before", i).isBetween(9L, 11L);
      }
      assertThat(java.util.Arrays.stream(r.timeline().latencyMicros()).min().orElseThrow()).as("every request answered").isNotNegative();
      String[] lines = r.timeline().tsv().split("\n");
      assertThat(lines).hasSize(21);
      assertThat(lines[0]).isEqualTo("due\tlatency_us\tsend_lag_us\tclient_cpu_us");
      assertThat(lines[1]).as("the JDK's HttpClient does not time a GET's CPU")
          .matches("\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z\t\\d+\t\\d+\t-1");
      assertThat(r.timeline().timed()).isFalse();
      assertThat(r.timeline().hostSlowSeconds()).as("none known without timed GETs").isEmpty();
      assertThat(r.sendLags().count()).as("a send lag for each request").isEqualTo(20);
      assertThat(r.sendLags().max()).as("never sent before its due time").isNotNegative();
    }
  }

  @Test
  void run_countsAnswersOtherThan200_asErrors_withTheFirst() throws Exception {
    try (HttpClient client = HttpClient.newHttpClient()) {
      OpenLoopGets.Result r = new OpenLoopGets(LightClient.async(client, uri("?fail"), "t"), 100).run(Duration.ofMillis(50));

      assertThat(r.errors()).isEqualTo(r.sent()).isEqualTo(5);
      assertThat(r.firstError()).isEqualTo("HTTP 500");
    }
  }

  @Test
  void blockingClient_sendsOnSchedule_onItsKeptAliveConnections() throws Exception {
    try (LightClient client = LightClient.blocking(uri(""), "t", null, 2)) {
      OpenLoopGets.Result r = new OpenLoopGets(client, 100).run(Duration.ofMillis(300));

      assertThat(r.sent()).isEqualTo(30);
      assertThat(r.errors()).isZero();
      assertThat(r.latencies().count()).isEqualTo(30);
      assertThat(tokens).containsExactly("Bearer t");
      assertThat(connections).as("30 GETs on at most its 2 threads' connections, none opened per GET").hasSizeBetween(1, 2);
      assertThat(java.util.Arrays.stream(r.timeline().clientCpuMicros()).min().orElseThrow())
          .as("each GET timed in its worker's CPU time").isNotNegative();
      assertThat(r.timeline().timed()).isTrue();
    }
  }

  @Test
  void blockingClient_countsAnswersOtherThan200_andRefusedConnections_asErrors() throws Exception {
    try (LightClient client = LightClient.blocking(uri("?fail"), "t", null, 1)) {
      OpenLoopGets.Result r = new OpenLoopGets(client, 100).run(Duration.ofMillis(50));

      assertThat(r.errors()).isEqualTo(r.sent()).isEqualTo(5);
      assertThat(r.firstError()).isEqualTo("HTTP 500");
    }
    server.stop(0);
    try (LightClient client = LightClient.blocking(uri(""), "t", null, 1)) {
      OpenLoopGets.Result r = new OpenLoopGets(client, 100).run(Duration.ofMillis(30));

      assertThat(r.errors()).isEqualTo(3);
      assertThat(r.firstError()).startsWith("java.io.UncheckedIOException: java.net.ConnectException");
    }
  }

  @Test
  void backToBack_sendsEveryGet_neverMoreThanItsLimitInFlight_andCountsAnswersOtherThan200() throws Exception {
    java.util.concurrent.atomic.AtomicInteger outstanding = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicInteger most = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicInteger sent = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.ExecutorService answers = java.util.concurrent.Executors.newSingleThreadExecutor();
    try (LightClient slowToAnswer = new LightClient() {
      @Override
      public java.util.concurrent.CompletableFuture<Answer> get() {
        int n = sent.incrementAndGet();
        most.accumulateAndGet(outstanding.incrementAndGet(), Math::max);
        return java.util.concurrent.CompletableFuture.supplyAsync(() -> {
          outstanding.decrementAndGet();
          return new Answer(n % 10 == 0 ? 429 : 200, -1);
        }, answers);
      }

      @Override
      public void close() {
        answers.shutdownNow();
      }
    }) {
      assertThat(slowToAnswer.backToBack(1_000, 3)).as("every tenth answered 429").isEqualTo(100);
    }
    assertThat(sent).hasValue(1_000);
    assertThat(outstanding).as("each answered before it returned").hasValue(0);
    assertThat(most.get()).as("at most 3 in flight").isBetween(1, 3);
  }

  @Test
  void backToBack_overHttp_answersEach_orCountsTheFailures() throws Exception {
    try (LightClient client = LightClient.blocking(uri(""), "t", null, 2)) {
      assertThat(client.backToBack(40, 2)).isZero();
    }
    try (LightClient client = LightClient.blocking(uri("?fail"), "t", null, 2)) {
      assertThat(client.backToBack(20, 2)).isEqualTo(20);
    }
    assertThat(connections).as("on its 2 threads' kept-alive connections").hasSizeBetween(1, 4);
  }

  @Test
  void blockingClient_takesOneToFiveWorkers() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> LightClient.blocking(uri(""), "t", null, 6))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("5 connections alive");
  }

  @Test
  void p99ByPart_isEachConsecutiveSharesTail_inTheOrderSent_withoutUnansweredRequests() {
    long[] latencies = new long[300];
    for (int i = 0; i < latencies.length; i++) {
      latencies[i] = 1_000 + i % 100; // 1.000-1.099 ms in every share
    }
    // the p99 of 100 (nearest rank) is the second slowest
    latencies[50] = 90_000;
    latencies[51] = 80_000;
    latencies[150] = -1; // unanswered: not a latency, so the second share's p99 is its slowest answer
    latencies[250] = 40_000;
    latencies[251] = 30_000;
    OpenLoopGets.Timeline t = new OpenLoopGets.Timeline(new long[300], latencies, new long[300], new long[300]);

    assertThat(t.p99ByPart(3)).containsExactly(80_000_000L, 1_099_000L, 30_000_000L);
    // all 299 answers: rank 297, the fourth slowest
    assertThat(t.p99ByPart(1)).containsExactly(40_000_000L);
  }

  @Test
  void latenciesOutside_leaveOutTheRequestsDueInTheGivenSeconds_andUnansweredOnes() {
    // four requests a second for three seconds, due from 10:00:00.000 UTC on
    long start = 1_796_133_600_000L;
    long[] due = new long[12];
    long[] latencies = new long[12];
    for (int i = 0; i < 12; i++) {
      due[i] = start + i * 250L;
      latencies[i] = 1_000 * (i / 4 + 1); // 1 ms in the first second, 2 in the second, 3 in the third
    }
    latencies[11] = -1;
    OpenLoopGets.Timeline t = new OpenLoopGets.Timeline(due, latencies, new long[12], new long[12]);

    LatencyRecorder kept = t.latenciesOutside(java.util.Set.of(start / 1000 + 1));
    assertThat(kept.count()).isEqualTo(7);
    assertThat(kept.max()).isEqualTo(3_000_000L);
    assertThat(kept.percentile(4 / 7.0)).isEqualTo(1_000_000L);
    assertThat(t.latenciesOutside(java.util.Set.of()).count()).isEqualTo(11);
  }

  @Test
  void hostSlowSeconds_areThoseInWhichATenthOfTheTimedGetsCostTheirClientOverAMillisecondOfCpu() {
    // twenty GETs a second for four seconds, due from 10:00:00.000 UTC on, each costing 100 µs
    long start = 1_796_133_600_000L;
    long[] due = new long[80];
    long[] cpu = new long[80];
    for (int i = 0; i < 80; i++) {
      due[i] = start + i * 50L;
      cpu[i] = 100;
    }
    cpu[0] = 3_700; // the first second: one slow GET of twenty, not enough
    cpu[20] = 3_700; // the second: two of twenty, a tenth
    cpu[21] = 2_900;
    cpu[40] = 3_700; // the third: two, but one of them exactly at the bound, not over it
    cpu[41] = 1_000;
    for (int i = 60; i < 80; i++) {
      cpu[i] = i < 70 ? 4_000 : -1; // the fourth: ten slow, ten not timed
    }
    OpenLoopGets.Timeline t = new OpenLoopGets.Timeline(due, new long[80], new long[80], cpu);

    assertThat(t.hostSlowSeconds()).containsExactly(start / 1000 + 1, start / 1000 + 3);
  }
}
