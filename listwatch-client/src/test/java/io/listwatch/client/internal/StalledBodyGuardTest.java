package io.listwatch.client.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.client.internal.RestTransport.RestRequest;
import io.listwatch.testsupport.Await;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class StalledBodyGuardTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final Duration WAIT = Duration.ofSeconds(10);

  /**
   * A body whose bytes never come, as the JDK's response stream after a lost upgrade: a read
   * blocks until the stream is closed, then fails.
   */
  private static final class SilentBody extends InputStream {
    final CountDownLatch closed = new CountDownLatch(1);
    final CountDownLatch reading = new CountDownLatch(1);

    @Override
    public int read() throws IOException {
      reading.countDown();
      try {
        closed.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      throw new IOException("closed");
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return read();
    }

    @Override
    public void close() {
      closed.countDown();
    }
  }

  private final AtomicLong now = new AtomicLong(1_000);
  private final StalledBodyGuard guard = new StalledBodyGuard(TIMEOUT, now::get);
  private final AtomicInteger stalls = new AtomicInteger();

  private static CompletableFuture<Integer> readInBackground(InputStream in) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return in.read(new byte[16]);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }, r -> Thread.ofVirtual().start(r));
  }

  @Test
  void aReaderBlockedForTheTimeout_getsAnErrorThatSaysSo_andTheConnectionIsReplacedOnce() throws Exception {
    SilentBody silent = new SilentBody();
    InputStream body = guard.guard(silent, "GET http://127.0.0.1/api/v1/pods", stalls::incrementAndGet);
    CompletableFuture<Integer> read = readInBackground(body);
    assertThat(silent.reading.await(10, TimeUnit.SECONDS)).isTrue();

    now.addAndGet(TIMEOUT.toNanos() - 1);
    guard.check();
    assertThat(silent.closed.getCount()).as("not ended a nanosecond before the timeout").isEqualTo(1);
    assertThat(stalls).hasValue(0);

    now.addAndGet(1);
    guard.check();
    guard.check();
    assertThatThrownBy(() -> read.get(10, TimeUnit.SECONDS)).hasRootCauseInstanceOf(IOException.class)
        .rootCause().hasMessage("closed");
    assertThatThrownBy(() -> read.join()).cause()
        .hasMessage("java.io.IOException: GET http://127.0.0.1/api/v1/pods: no bytes of the response body for "
            + "30000 ms; the connection is replaced");
    assertThat(stalls).as("the connection is replaced once").hasValue(1);
    assertThat(guard.open()).isZero();
  }

  @Test
  void onlyTimeBlockedInARead_counts_notTimeTheReaderTakesBetweenReads() throws Exception {
    InputStream body = guard.guard(new ByteArrayInputStream(new byte[] {1, 2, 3}), "GET /x", stalls::incrementAndGet);
    assertThat(body.read()).isEqualTo(1);
    now.addAndGet(TIMEOUT.toNanos() * 10); // the reader is busy elsewhere for a long time
    guard.check();
    assertThat(body.read(new byte[8], 0, 8)).isEqualTo(2);
    assertThat(stalls).hasValue(0);
    assertThat(body.read()).isEqualTo(-1);
    assertThat(guard.open()).as("a body read to its end is no longer watched").isZero();
  }

  @Test
  void aSkipThatWaitsForBytes_isEndedAsARead() throws Exception {
    SilentBody silent = new SilentBody();
    InputStream body = guard.guard(silent, "GET /x", stalls::incrementAndGet);
    CompletableFuture<Long> skip = CompletableFuture.supplyAsync(() -> {
      try {
        return body.skip(100);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }, r -> Thread.ofVirtual().start(r));
    assertThat(silent.reading.await(10, TimeUnit.SECONDS)).isTrue();

    now.addAndGet(TIMEOUT.toNanos());
    guard.check();
    assertThatThrownBy(() -> skip.get(10, TimeUnit.SECONDS)).hasMessageContaining("no bytes of the response body");
    assertThat(stalls).hasValue(1);
  }

  @Test
  void aSkip_skipsAsAskedOrToTheEnd_soADiscardedBodyIsDrained() throws IOException {
    byte[] bytes = new byte[20_000];
    bytes[2] = 7;
    bytes[19_999] = 9;
    InputStream body = guard.guard(new ByteArrayInputStream(bytes), "GET /x", stalls::incrementAndGet);
    assertThat(body.skip(2)).isEqualTo(2);
    assertThat(body.read()).isEqualTo(7);
    assertThat(body.skip(0)).isZero();
    assertThat(body.skip(Long.MAX_VALUE)).as("to the end, over several reads").isEqualTo(19_997);
    assertThat(body.skip(5)).as("at the end").isZero();
    assertThat(guard.open()).as("a body skipped to its end is no longer watched").isZero();
  }

  @Test
  void aClosedBody_isNoLongerWatched() throws IOException {
    InputStream body = guard.guard(new SilentBody(), "GET /x", stalls::incrementAndGet);
    assertThat(guard.open()).isEqualTo(1);
    body.close();
    assertThat(guard.open()).isZero();
  }

  @Test
  void onItsOwnThread_theGuardEndsAStalledBody() throws Exception {
    try (StalledBodyGuard selfChecking = new StalledBodyGuard(Duration.ofMillis(200))) {
      SilentBody silent = new SilentBody();
      InputStream body = selfChecking.guard(silent, "GET /x", stalls::incrementAndGet);
      CompletableFuture<Integer> read = readInBackground(body);
      assertThatThrownBy(() -> read.get(WAIT.toSeconds(), TimeUnit.SECONDS)).hasMessageContaining("no bytes of the response body");
      Await.until("the connection is replaced", WAIT, () -> stalls.get() == 1);
    }
  }

  @Test
  void aWatch_isAGetWhoseQuerySetsWatchTrue_asTheServerParsesIt() {
    assertThat(RestRequest.get("/api/v1/pods?watch=true").isWatch()).isTrue();
    assertThat(RestRequest.get("/api/v1/pods?resourceVersion=5&watch=1&timeoutSeconds=300").isWatch()).isTrue();
    assertThat(RestRequest.get("/api/v1/pods?watch=TRUE").isWatch()).isTrue();
    assertThat(RestRequest.get("/api/v1/pods?watch=false").isWatch()).isFalse();
    assertThat(RestRequest.get("/api/v1/pods?limit=500&resourceVersion=0").isWatch()).isFalse();
    assertThat(RestRequest.get("/api/v1/namespaces/watch=true/pods").isWatch()).isFalse();
    assertThat(RestRequest.get("/api/v1/pods?allowWatchBookmarks=true").isWatch()).isFalse();
    assertThat(new RestRequest("DELETE", "/api/v1/pods?watch=true", "", new byte[0]).isWatch()).isFalse();
    // the server's own reading (ListOptions.parseBool): only "0" and "false" are false
    assertThat(RestRequest.get("/api/v1/pods?watch").isWatch()).isTrue();
    assertThat(RestRequest.get("/api/v1/pods?watch=yes").isWatch()).isTrue();
    assertThat(RestRequest.get("/api/v1/pods?watch=0").isWatch()).isFalse();
    assertThat(RestRequest.get("/api/v1/pods?watch=False").isWatch()).isFalse();
  }
}
