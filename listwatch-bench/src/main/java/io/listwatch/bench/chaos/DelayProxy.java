package io.listwatch.bench.chaos;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A TCP proxy on 127.0.0.1 in front of one etcd member, standing in for {@code tc netem}, which
 * this machine's kernel lacks: while {@link #delay} is set, every chunk of bytes either way is
 * held that long before it is passed on (order kept); {@link #dropConnections} resets every
 * connection through it, as a lossy link that gives up would; while {@link #hold} is on, nothing
 * is passed on either way (the bytes wait, as TCP's would be retransmitted across a partition
 * that heals), so the connections hang. Each API server reaches each member only through a proxy
 * of its own. A delay is latency, not a slower link: bytes read are queued with the time they
 * are due and written then, so a second chunk does not wait for the first one's delay.
 *
 * <p>Thread-safe; two virtual threads (reader, writer) per direction of each connection;
 * {@link #close} stops it.
 */
final class DelayProxy implements AutoCloseable {

  private final String name;
  private final InetSocketAddress target;
  private final ServerSocket listener;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  /** Guards {@link #held}'s changes and the writers waiting for it to end. */
  private final Object gate = new Object();
  private volatile long delayMillis;
  private volatile boolean held;
  private volatile boolean closed;

  private DelayProxy(String name, InetSocketAddress target, ServerSocket listener) {
    this.name = name;
    this.target = target;
    this.listener = listener;
  }

  /** A proxy named {@code name} (e.g. {@code server-0 to etcd-1}) to {@code target}, on a free port of 127.0.0.1. */
  static DelayProxy start(String name, InetSocketAddress target) throws IOException {
    DelayProxy p = new DelayProxy(name, target, new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
    Thread.ofVirtual().name("chaos-proxy-accept-" + target.getPort()).start(p::accept);
    return p;
  }

  /** Which server's link to which member, e.g. {@code server-0 to etcd-1}. */
  String name() {
    return name;
  }

  /** The URL clients use instead of the member's, {@code http://127.0.0.1:<port>}. */
  String url() {
    return "http://127.0.0.1:" + listener.getLocalPort();
  }

  /** Holds every chunk {@code millis} before passing it on; 0: none. */
  void delay(long millis) {
    delayMillis = millis;
  }

  /** Passes nothing on, either way, until {@link #release}: a partition between the server and the member. */
  void hold() {
    synchronized (gate) {
      held = true;
    }
  }

  /** Ends {@link #hold}: what waited is passed on at once. */
  void release() {
    synchronized (gate) {
      held = false;
      gate.notifyAll();
    }
  }

  /** Resets every connection open through the proxy. */
  void dropConnections() {
    for (Socket s : open) {
      closeQuietly(s);
    }
  }

  private void accept() {
    while (!closed) {
      try {
        Socket client = listener.accept();
        Socket server = new Socket();
        try {
          server.connect(target, 2_000);
        } catch (IOException e) {
          closeQuietly(client); // the member is down or cut off: so is the connection
          closeQuietly(server);
          continue;
        }
        open.add(client);
        open.add(server);
        Thread.ofVirtual().start(() -> pump(client, server));
        Thread.ofVirtual().start(() -> pump(server, client));
      } catch (IOException e) {
        // closed, or one accept failed: the loop ends when closed
      }
    }
  }

  /** Bytes read at one moment, to be written at {@code dueNanos}; an empty chunk ends the direction. */
  private record Chunk(byte[] bytes, long dueNanos) {
  }

  private void pump(Socket from, Socket to) {
    LinkedBlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
    Thread writer = Thread.ofVirtual().start(() -> write(queue, to));
    byte[] buf = new byte[16 * 1024];
    try (InputStream in = from.getInputStream()) {
      for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
        queue.add(new Chunk(Arrays.copyOf(buf, n), System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMillis)));
      }
    } catch (IOException e) {
      // one side closed or was reset
    } finally {
      queue.add(new Chunk(new byte[0], System.nanoTime()));
      try {
        writer.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      closeQuietly(from);
      closeQuietly(to);
      open.remove(from);
      open.remove(to);
    }
  }

  private void write(LinkedBlockingQueue<Chunk> queue, Socket to) {
    try {
      OutputStream out = to.getOutputStream();
      for (Chunk c = queue.take(); c.bytes().length > 0; c = queue.take()) {
        long wait = c.dueNanos() - System.nanoTime();
        if (wait > 0) {
          TimeUnit.NANOSECONDS.sleep(wait); // the injected latency itself
        }
        synchronized (gate) {
          while (held && !closed) {
            gate.wait(); // the partition: until release() or close()
          }
        }
        out.write(c.bytes());
        out.flush();
      }
    } catch (IOException e) {
      closeQuietly(to);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // closing
    }
  }

  @Override
  public void close() {
    closed = true;
    release();
    try {
      listener.close();
    } catch (IOException e) {
      // closing
    }
    dropConnections();
  }
}
