package io.listwatch.bench.apf;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The heavy user: {@code lists} threads each listing the whole collection again as soon as the
 * last list is answered, and {@code watches} threads each watching it from its current state
 * (every object sent as ADDED first) for one second ({@code timeoutSeconds=1}), then again. A
 * 429 is retried at once: the flood does not honour {@code Retry-After}, the worst client there is.
 * Counts answers by kind.
 *
 * <p>Thread-safe: {@link #start} and {@link #close} from one thread, counters read from any.
 */
final class Flood implements AutoCloseable {

  private final AtomicBoolean running = new AtomicBoolean(true);
  private final List<Thread> threads = new ArrayList<>();
  final AtomicLong listsServed = new AtomicLong();
  final AtomicLong watchesServed = new AtomicLong();
  final AtomicLong rejected = new AtomicLong();
  final AtomicLong failed = new AtomicLong();

  /** Starts the flood of {@code collection} (a URL of a list) as the user of {@code token}. */
  static Flood start(HttpClient client, URI collection, String token, int lists, int watches) {
    Flood f = new Flood();
    HttpRequest list = HttpRequest.newBuilder(collection).header("Authorization", "Bearer " + token)
        .timeout(Duration.ofSeconds(120)).GET().build();
    HttpRequest watch = HttpRequest.newBuilder(URI.create(collection + "?watch=true&timeoutSeconds=1"))
        .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(120)).GET().build();
    for (int i = 0; i < lists + watches; i++) {
      boolean isList = i < lists;
      f.threads.add(Thread.ofPlatform().name((isList ? "flood-list-" : "flood-watch-") + i).daemon()
          .start(() -> f.loop(client, isList ? list : watch, isList ? f.listsServed : f.watchesServed)));
    }
    return f;
  }

  private void loop(HttpClient client, HttpRequest request, AtomicLong served) {
    while (running.get()) {
      try {
        int code = client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        (code == 200 ? served : code == 429 ? rejected : failed).incrementAndGet();
      } catch (java.io.IOException e) {
        failed.incrementAndGet();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Stops the flood and waits (a few seconds at most) for its threads. */
  @Override
  public void close() throws InterruptedException {
    running.set(false);
    for (Thread t : threads) {
      t.join(Duration.ofSeconds(5));
      if (t.isAlive()) {
        t.interrupt();
      }
    }
  }
}
