package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.ApiServer;
import io.listwatch.server.cacher.Cacher;
import io.listwatch.server.cacher.CacherConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
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
 * due to unresponsiveness") and never holds up the others (COMPAT.md 3.7; STYLE: slow
 * watchers are handled explicitly).
 *
 * <p>The fast watchers are real HTTP clients reading concurrently. Writes go in batches
 * smaller than the per-watcher queue, and the next batch starts when every fast watcher has
 * received the last one: so a fast watcher never has a reason to fall behind, while the slow
 * one, which never reads, piles up the whole burst until the server gives up on it.
 */
class SlowWatcherTest {

  private static final int FAST_WATCHERS = Integer.getInteger("f", 100);
  private static final int QUEUE_CAPACITY = Integer.getInteger("q", 64);
  private static final int BATCH = Integer.getInteger("b", 48);
  /** Enough to overflow the slow watcher's socket buffers, its 1 MiB channel buffer and its queue. */
  private static final int MAX_EVENTS = 12_000;
  private static final String PADDING = "p".repeat(Integer.getInteger("pad", 1000));

  @Test
  void slowWatcher_isClosedByTheServer_whileAHundredOthersReceiveEveryEvent() throws Exception {
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
      long start = http.listResourceVersion(pods);
      Cacher cacher = server.cacher("", "pods");

      slow.setReceiveBufferSize(4 * 1024);
      slow.connect(new InetSocketAddress("127.0.0.1", server.port()), (int) KubeHttp.WAIT.toMillis());
      KubeHttp.writeGet(slow.getOutputStream(), pods + "?watch=true&resourceVersion=" + start);
      for (int i = 0; i < FAST_WATCHERS; i++) {
        fast.add(new FastWatcher(http.watch(pods + "?resourceVersion=" + start, false), i));
      }
      KubeHttp.await("all " + (FAST_WATCHERS + 1) + " watches are registered", KubeHttp.WAIT,
          () -> cacher.watcherCount() == FAST_WATCHERS + 1);

      List<Long> written = new ArrayList<>();
      int batches = 0;
      long t0 = System.nanoTime();
      while (cacher.terminatedWatchers() == 0) {
        if (written.size() >= MAX_EVENTS) {
          fail("the slow watcher was not closed after " + written.size() + " events");
        }
        written.addAll(writeBatch(http, writers, pods, batches++));
        long last = written.getLast();
        for (FastWatcher w : fast) {
          w.awaitResourceVersion(last);
        }
      }
      System.out.println("DEBUG events until terminated: " + written.size() + " batches " + batches + " ms " + (System.nanoTime() - t0) / 1_000_000);
      // and the others keep going after the slow one is gone
      written.addAll(writeBatch(http, writers, pods, batches));
      for (FastWatcher w : fast) {
        w.awaitResourceVersion(written.getLast());
      }

      assertThat(cacher.terminatedWatchers()).as("only the slow watcher was dropped").isEqualTo(1);
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
      ObjectNode pod = KubeHttp.pod("p-" + batch + "-" + i, Map.of("batch", Integer.toString(batch)), null);
      ((ObjectNode) pod.get("metadata")).putObject("annotations").put("padding", PADDING);
      created.add(CompletableFuture.supplyAsync(() -> KubeHttp.rv(http.create(pods, pod)), writers));
    }
    List<Long> rvs = new ArrayList<>();
    for (CompletableFuture<Long> f : created) {
      rvs.add(f.get(KubeHttp.WAIT.toMillis(), TimeUnit.MILLISECONDS));
    }
    rvs.sort(null);
    return rvs;
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
    private static final byte[] RV_KEY = "\"resourceVersion\":\"".getBytes(StandardCharsets.US_ASCII);

    private final KubeHttp.WatchStream stream;
    private final int index;
    private final Object lock = new Object();
    private final List<Long> received = new ArrayList<>(); // guarded by lock
    private final AtomicReference<String> problem = new AtomicReference<>();
    private final Thread reader;

    FastWatcher(KubeHttp.WatchStream stream, int index) {
      this.stream = stream;
      this.index = index;
      this.reader = Thread.ofVirtual().name("fast-watcher-" + index).start(this::read);
    }

    private void read() {
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      byte[] buf = new byte[32 * 1024];
      try (InputStream in = stream.rawBody()) {
        int n;
        while ((n = in.read(buf)) >= 0) {
          for (int i = 0; i < n; i++) {
            if (buf[i] == '\n') {
              record(line.toString(StandardCharsets.UTF_8));
              line.reset();
            } else {
              line.write(buf[i]);
            }
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

    private void record(String event) {
      if (!event.startsWith("{\"type\":\"ADDED\"")) {
        problem.compareAndSet(null, "unexpected event " + KubeHttp.abbreviate(event));
        return;
      }
      int at = event.indexOf(new String(RV_KEY, StandardCharsets.US_ASCII));
      int from = at + RV_KEY.length;
      long rv = Long.parseLong(event.substring(from, event.indexOf('"', from)));
      synchronized (lock) {
        received.add(rv);
        lock.notifyAll();
      }
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
