package io.listwatch.bench.apf;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLSocketFactory;

/**
 * How the light user sends one GET ({@link OpenLoopGets} calls it at each due time): it must not
 * block the caller, and completes with the answer's status code, or exceptionally when there was
 * no answer.
 *
 * <p>Two clients of the JDK. {@link #async} is {@code java.net.http}: a selector thread writes each
 * request and reads its answer, and completes it on another thread; its {@code sendAsync} call
 * alone took milliseconds at p99, quiet or flooded (docs/reliability.md), which every latency
 * includes. {@link #blocking} is {@link HttpURLConnection}: each GET
 * runs on one of a few worker threads, which writes it and reads its answer on its own kept-alive
 * connection, with no other thread in between.
 *
 * <p>{@link #blocking} also times each GET in its worker's CPU time: a GET's request wakes the
 * server's thread on another CPU, and in the seconds when this machine's host makes such a wake
 * cost the waker a scheduler tick (docs/reliability.md, "The quiet minute's stretches are the
 * host's") the GET costs its client milliseconds of CPU instead of about a tenth of one.
 *
 * <p>Implementations are thread-safe; {@link #close} stops what they own.
 */
interface LightClient extends AutoCloseable {

  /**
   * One GET's answer: its status code, and the CPU time the client's thread spent on it (writing
   * the request, reading the answer), -1 where the client cannot tell.
   */
  record Answer(int code, long cpuNanos) {}

  /** Sends the GET; completes with its answer once its body is read. */
  CompletableFuture<Answer> get();

  @Override
  void close();

  /**
   * Sends {@code count} GETs back to back, at most {@code inFlight} at a time, and waits for every
   * answer; returns how many were not answered 200. A warm-up for the server's JIT: C2 compiles a
   * method only after thousands of calls, which an open loop of 50 GETs a second takes minutes to
   * make, so that without it the server compiles its GET path during the quiet measure.
   */
  default long backToBack(int count, int inFlight) throws InterruptedException {
    if (count < 0 || inFlight < 1) {
      throw new IllegalArgumentException("count >= 0 and inFlight >= 1, got " + count + " and " + inFlight);
    }
    Semaphore slots = new Semaphore(inFlight);
    AtomicLong failed = new AtomicLong();
    for (int i = 0; i < count; i++) {
      slots.acquire();
      get().whenComplete((answer, e) -> {
        if (e != null || answer.code() != 200) {
          failed.incrementAndGet();
        }
        slots.release();
      });
    }
    slots.acquire(inFlight);
    slots.release(inFlight);
    return failed.get();
  }

  /** {@code client.sendAsync} of a GET of {@code uri} with {@code token}; closing closes the client. */
  static LightClient async(HttpClient client, URI uri, String token) {
    HttpRequest request = HttpRequest.newBuilder(uri).header("Authorization", "Bearer " + token)
        .timeout(Duration.ofSeconds(60)).GET().build();
    return new LightClient() {
      @Override
      public CompletableFuture<Answer> get() {
        // the work is the client's selector thread's, shared by every GET: not timed
        return client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
            .thenApply(r -> new Answer(r.statusCode(), -1));
      }

      @Override
      public void close() {
        client.close();
      }
    };
  }

  /**
   * GETs of {@code uri} with {@code token} through {@link HttpURLConnection} on {@code workers}
   * threads of their own, each reusing its kept-alive connection (the JDK keeps up to 5 per
   * server) and timing each GET in its CPU time; a GET due while every worker is busy waits for
   * one, and its latency shows it.
   *
   * @param tls the socket factory of an https {@code uri} (its CA), or null for http
   */
  static LightClient blocking(URI uri, String token, SSLSocketFactory tls, int workers) {
    if (workers < 1 || workers > 5) {
      throw new IllegalArgumentException("1 to 5 workers (the JDK keeps 5 connections alive per server), got "
          + workers);
    }
    ExecutorService pool = Executors.newFixedThreadPool(workers, Thread.ofPlatform().daemon().name("light-get-", 0)
        .factory());
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    boolean timed = threads.isCurrentThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled();
    return new LightClient() {
      @Override
      public CompletableFuture<Answer> get() {
        return CompletableFuture.supplyAsync(this::getNow, pool);
      }

      private Answer getNow() {
        long cpu = timed ? threads.getCurrentThreadCpuTime() : 0;
        int code = send();
        return new Answer(code, timed ? threads.getCurrentThreadCpuTime() - cpu : -1);
      }

      private int send() {
        try {
          HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection();
          if (c instanceof HttpsURLConnection https && tls != null) {
            https.setSSLSocketFactory(tls); // the same factory each time, so the connection is reused
          }
          c.setRequestProperty("Authorization", "Bearer " + token);
          c.setConnectTimeout(30_000);
          c.setReadTimeout(60_000);
          int code = c.getResponseCode();
          // reading the body to its end and closing it hands the connection back for the next GET
          try (InputStream body = code < 400 ? c.getInputStream() : c.getErrorStream()) {
            if (body != null) {
              body.readAllBytes();
            }
          }
          return code;
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }

      @Override
      public void close() {
        pool.shutdownNow();
      }
    };
  }
}
