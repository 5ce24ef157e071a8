package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.server.ApiServer;
import io.listwatch.apiserver.cacher.Cacher;
import io.listwatch.apiserver.cacher.CacherConfig;
import io.listwatch.testsupport.Await;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A watcher that stops reading is dropped by the server (kube's cacher "forcing watcher close
 * due to unresponsiveness") and never holds up the others (slow
 * watchers are named and handled explicitly).
 *
 * <p>The slow watcher is a raw socket that sends its request and never reads; it asks for a
 * large initial list first, so its buffers are full before the burst. The fast watchers are
 * real HTTP clients reading concurrently. Writes go in batches smaller than the per-watcher
 * queue, and the next batch starts when every fast watcher has received the last one: so a
 * fast watcher never has a reason to fall behind, while the slow one piles up the burst until
 * the server gives up on it.
 */
class SlowWatcherTest {

  private static final int FAST_WATCHERS = 100;
  private static final int QUEUE_CAPACITY = 64;
  private static final int BATCH = 48;
  /**
   * The slow watcher starts with resourceVersion 0, so the server first sends it these objects
   * (8 MiB): more than the kernel's socket buffers (on Linux the server's send buffer grows up
   * to tcp_wmem's maximum, 4 MiB by default) and the channel's 1 MiB write buffer hold. The
   * burst then only has to overflow its queue; the fast watchers start after these objects.
   */
  private static final int LARGE_PODS = 80;
  private static final String LARGE_PADDING = "l".repeat(100_000);
  /** The burst goes on at least this long, and until the server drops the slow watcher. */
  private static final int MIN_BATCHES = 5;
  private static final int MAX_EVENTS = 12_000;
  private static final String PADDING = "p".repeat(1_000);

  /** How the slow watcher asks for its watch: a request head written on its socket. */
  @FunctionalInterface
  private interface WatchRequest {
    void write(OutputStream out, String pathAndQuery) throws IOException;
  }

  @Test
  void slowWatcher_isClosedByTheServer_whileAHundredOthersReceiveEveryEvent() throws Exception {
    slowWatcherIsClosed_whileOthersReceiveEveryEvent(RawHttp::writeGet);
  }

  /** The same over WebSocket: the slow client upgrades and then never reads a frame. */
  @Test
  void slowWebSocketWatcher_isClosedByTheServer_whileAHundredOthersReceiveEveryEvent() throws Exception {
    slowWatcherIsClosed_whileOthersReceiveEveryEvent((out, path) -> RawWebSocket.writeUpgrade(out, path));
  }

  private void slowWatcherIsClosed_whileOthersReceiveEveryEvent(WatchRequest slowRequest) throws Exception {
    CacherConfig config = new CacherConfig(100_000, Duration.ofMinutes(5), QUEUE_CAPACITY, Duration.ofMinutes(1),
        Duration.ofSeconds(3));
    ExecutorService writers = Executors.newFixedThreadPool(8,
        r -> Thread.ofPlatform().name("burst-writer").daemon(true).unstarted(r));
    List<FastWatcher> fast = new ArrayList<>();
    try (ApiServer server = ApiServer.builder().cacherConfig(config).build().start();
        KubeHttp http = new KubeHttp(server);
        Socket slow = new Socket()) {
      String ns = http.createNamespace("slow");
      String pods = "/api/v1/namespaces/" + ns + "/pods";
      for (int i = 0; i < LARGE_PODS; i++) {
        http.create(pods, paddedPod("large-" + i, LARGE_PADDING));
      }
      long start = http.listResourceVersion(pods);
      Cacher cacher = server.cacher("", "pods");

      // the slow watcher's initial list is larger than its socket and channel buffers hold
      slow.setReceiveBufferSize(4 * 1024);
      slow.connect(new InetSocketAddress("127.0.0.1", server.port()), (int) KubeHttp.WAIT.toMillis());
      slowRequest.write(slow.getOutputStream(), pods + "?watch=true&resourceVersion=0");
      for (int i = 0; i < FAST_WATCHERS; i++) {
        fast.add(new FastWatcher(http.watch(pods + "?resourceVersion=" + start, false), i));
      }
      Await.until("all " + (FAST_WATCHERS + 1) + " watches are registered", KubeHttp.WAIT,
          () -> cacher.watcherCount() == FAST_WATCHERS + 1);

      List<Long> written = new ArrayList<>();
      int batches = 0;
      while (batches < MIN_BATCHES || cacher.terminatedWatchers() == 0) {
        if (written.size() >= MAX_EVENTS) {
          fail("the slow watcher was not closed after " + written.size() + " events");
        }
        written.addAll(writeBatch(http, writers, pods, batches++));
        long last = written.getLast();
        for (FastWatcher w : fast) {
          w.awaitResourceVersion(last);
        }
      }
      // and the others keep going after the slow one is gone
      written.addAll(writeBatch(http, writers, pods, batches));
      for (FastWatcher w : fast) {
        w.awaitResourceVersion(written.getLast());
      }

      assertThat(cacher.terminatedWatchers()).as("only the slow watcher was dropped").isEqualTo(1);
      PrometheusText metrics = PrometheusText.parse(http.get("/metrics", "text/plain").body());
      assertThat(metrics.sum("apiserver_terminated_watchers_total", Map.of("group", "", "resource", "pods")))
          .as("the dropped watcher in /metrics").isEqualTo(1);
      assertThat(metrics.sum("apiserver_registered_watchers", Map.of("group", "", "resource", "pods")))
          .isEqualTo(FAST_WATCHERS);
      assertThat(cacher.watcherCount()).isEqualTo(FAST_WATCHERS);
      List<Long> expected = written.stream().sorted().toList();
      for (FastWatcher w : fast) {
        assertThat(w.received()).as("watcher %d got every event once, in resourceVersion order", w.index)
            .containsExactlyElementsOf(expected);
      }
      assertClosedAfterDraining(slow);
    } finally {
      writers.shutdownNow();
      fast.forEach(FastWatcher::close);
    }
  }

  /** Creates BATCH pods of about 1 KB concurrently; returns their resourceVersions. */
  private static List<Long> writeBatch(KubeHttp http, ExecutorService writers, String pods, int batch)
      throws Exception {
    List<CompletableFuture<Long>> created = new ArrayList<>();
    for (int i = 0; i < BATCH; i++) {
      ObjectNode pod = paddedPod("p-" + batch + "-" + i, PADDING);
      created.add(CompletableFuture.supplyAsync(() -> KubeHttp.rv(http.create(pods, pod)), writers));
    }
    List<Long> rvs = new ArrayList<>();
    for (CompletableFuture<Long> f : created) {
      rvs.add(f.get(KubeHttp.WAIT.toMillis(), TimeUnit.MILLISECONDS));
    }
    rvs.sort(null);
    return rvs;
  }

  private static ObjectNode paddedPod(String name, String padding) {
    ObjectNode pod = KubeHttp.pod(name, Map.of(), null);
    ((ObjectNode) pod.get("metadata")).putObject("annotations").put("padding", padding);
    return pod;
  }

  /** Reads what the server still had buffered, then must see the connection closed. */
  private static void assertClosedAfterDraining(Socket slow) throws IOException {
    slow.setSoTimeout((int) KubeHttp.WAIT.toMillis());
    InputStream in = slow.getInputStream();
    byte[] buf = new byte[64 * 1024];
    long deadline = System.nanoTime() + KubeHttp.WAIT.toNanos();
    try {
      while (in.read(buf) >= 0) {
        if (System.nanoTime() - deadline > 0) {
          fail("the slow watcher's connection was still open after " + KubeHttp.WAIT);
        }
      }
    } catch (SocketTimeoutException e) {
      fail("the server did not close the slow watcher's connection", e);
    } catch (IOException e) {
      // a reset also closes it
    }
  }

  /**
   * One fast watcher: a virtual thread reads its stream as it comes and records the
   * resourceVersion of each ADDED event (the objects are only padding).
   */
  private static final class FastWatcher implements AutoCloseable {
    private static final byte[] ADDED = "{\"type\":\"ADDED\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] RV_KEY = "\"resourceVersion\":\"".getBytes(StandardCharsets.US_ASCII);

    private final WatchStream stream;
    private final int index;
    private final Object lock = new Object();
    @GuardedBy("lock")
    private final List<Long> received = new ArrayList<>();
    private final AtomicReference<String> problem = new AtomicReference<>();
    private final Thread reader;

    FastWatcher(WatchStream stream, int index) {
      this.stream = stream;
      this.index = index;
      this.reader = Thread.ofVirtual().name("fast-watcher-" + index).start(this::read);
    }

    /** Splits the body at newlines without copying more than the part of a line that spans reads. */
    private void read() {
      byte[] buf = new byte[64 * 1024];
      byte[] line = new byte[4 * 1024];
      int lineLength = 0;
      try (InputStream in = stream.rawBody()) {
        int n;
        while ((n = in.read(buf)) >= 0) {
          int from = 0;
          for (int i = 0; i < n; i++) {
            if (buf[i] != '\n') {
              continue;
            }
            if (lineLength == 0) {
              record(buf, from, i);
            } else {
              line = append(line, lineLength, buf, from, i);
              record(line, 0, lineLength + i - from);
              lineLength = 0;
            }
            from = i + 1;
          }
          if (from < n) {
            line = append(line, lineLength, buf, from, n);
            lineLength += n - from;
          }
        }
        problem.compareAndSet(null, "the stream ended");
      } catch (IOException | RuntimeException e) {
        problem.compareAndSet(null, "the stream failed: " + e);
      }
      synchronized (lock) {
        lock.notifyAll();
      }
    }

    private static byte[] append(byte[] line, int length, byte[] buf, int from, int to) {
      byte[] out = length + to - from <= line.length ? line : java.util.Arrays.copyOf(line, 2 * (length + to - from));
      System.arraycopy(buf, from, out, length, to - from);
      return out;
    }

    /** Records the event in {@code b[from, to)}: an ADDED event's metadata.resourceVersion. */
    private void record(byte[] b, int from, int to) {
      if (!startsWith(b, from, to, ADDED)) {
        problem.compareAndSet(null, "unexpected event " + KubeHttp.abbreviate(
            new String(b, from, to - from, StandardCharsets.UTF_8)));
        return;
      }
      int at = indexOf(b, from, to, RV_KEY);
      if (at < 0) {
        problem.compareAndSet(null, "an event without resourceVersion");
        return;
      }
      long rv = 0;
      for (int i = at + RV_KEY.length; i < to && b[i] != '"'; i++) {
        rv = rv * 10 + (b[i] - '0');
      }
      synchronized (lock) {
        received.add(rv);
        lock.notifyAll();
      }
    }

    private static boolean startsWith(byte[] b, int from, int to, byte[] prefix) {
      return to - from >= prefix.length && java.util.Arrays.equals(b, from, from + prefix.length, prefix, 0,
          prefix.length);
    }

    private static int indexOf(byte[] b, int from, int to, byte[] key) {
      outer:
      for (int i = from; i <= to - key.length; i++) {
        for (int j = 0; j < key.length; j++) {
          if (b[i + j] != key[j]) {
            continue outer;
          }
        }
        return i;
      }
      return -1;
    }

    void awaitResourceVersion(long rv) throws InterruptedException {
      long deadline = System.nanoTime() + KubeHttp.WAIT.toNanos();
      synchronized (lock) {
        while (received.isEmpty() || received.getLast() < rv) {
          if (problem.get() != null) {
            fail("watcher " + index + ": " + problem.get() + " after " + received.size() + " events");
          }
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            fail("watcher " + index + " did not receive resourceVersion " + rv + " within " + KubeHttp.WAIT
                + " (has " + received.size() + " events)");
          }
          TimeUnit.NANOSECONDS.timedWait(lock, left);
        }
      }
    }

    List<Long> received() {
      synchronized (lock) {
        return List.copyOf(received);
      }
    }

    @Override
    public void close() {
      stream.close();
      reader.interrupt();
    }
  }
}
