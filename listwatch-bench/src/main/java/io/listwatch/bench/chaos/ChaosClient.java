package io.listwatch.bench.chaos;

import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * One client process of a chaos run: in a loop until stopped, on a random key of
 * {@code k0..k(keys-1)} and a random server, it reads the key and then creates it (absent) or
 * updates it with the read resourceVersion as precondition (present); or updates it from the
 * resourceVersion it last saw, which may be stale (a 409 then); or deletes it; or lists the
 * namespace; or only reads. Each request is one operation of the history, and the next begins
 * when the last ended, as a Jepsen process does.
 *
 * <p>Confined to its own thread ({@code chaos-client-N}); {@link #stop} from any thread.
 */
final class ChaosClient implements Runnable {

  private final int process;
  private final int keys;
  private final int servers;
  private final ConfigMapCalls calls;
  private final Random random;
  private final Map<String, Long> lastSeen = new HashMap<>();
  private int sequence;
  private volatile boolean stopped;

  ChaosClient(int process, List<URI> servers, int keys, History history, long seed) {
    this.process = process;
    this.keys = keys;
    this.servers = servers.size();
    this.calls = new ConfigMapCalls(process, servers, history);
    this.random = new Random(seed);
  }

  void stop() {
    stopped = true;
  }

  @Override
  public void run() {
    try {
      while (!stopped) {
        if (!step()) {
          Thread.sleep(100); // the server did not answer (down or paused): a moment before the next try
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** One step; false if the server answered nothing (no status). */
  private boolean step() throws InterruptedException {
    String key = "k" + random.nextInt(keys);
    int dice = random.nextInt(100);
    Operation last;
    if (dice < 45) {
      last = calls.read(server(), key);
      if (last.ok()) {
        remember(key, last);
        last = write(key, last.seen().isEmpty() ? 0 : last.rv());
      }
    } else if (dice < 55 && lastSeen.containsKey(key)) {
      last = write(key, lastSeen.get(key));
    } else if (dice < 65) {
      last = calls.delete(server(), key);
      lastSeen.remove(key);
    } else if (dice < 75) {
      last = calls.list(server());
      for (Version v : last.seen()) {
        lastSeen.put(v.key(), v.rv());
      }
    } else {
      last = calls.read(server(), key);
      remember(key, last);
    }
    return last.status() >= 0;
  }

  /** Creates {@code key} ({@code rv} 0) or updates it from {@code rv}. */
  private Operation write(String key, long rv) throws InterruptedException {
    String value = "p" + process + "-" + (sequence++);
    Operation w = rv == 0 ? calls.create(server(), key, value) : calls.update(server(), key, value, rv);
    if (w.ok()) {
      lastSeen.put(key, w.rv());
    }
    return w;
  }

  private void remember(String key, Operation read) {
    if (read.ok() && !read.seen().isEmpty()) {
      lastSeen.put(key, read.rv());
    }
  }

  private int server() {
    return random.nextInt(servers);
  }
}
