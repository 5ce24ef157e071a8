package io.listwatch.client.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on 127.0.0.1 for failure tests: forwards every connection to a target port, and
 * can {@link #blackholeExisting() black-hole} the connections open so far — bytes stop
 * flowing in both directions but no FIN or RST is sent, as when a NAT or load balancer
 * silently forgets a connection. New connections are forwarded normally. It can also
 * {@link #pause() cut every connection and refuse new ones} until {@link #resume()}, as
 * when the server is unreachable for a while.
 *
 * <p>Thread-safe. Each direction of each connection is pumped by a virtual thread.
 */
final class TcpProxy implements AutoCloseable {

  private static final InetAddress LOCALHOST = localhost();

  private final ServerSocket server;
  private final int targetPort;
  private final List<Link> links = new CopyOnWriteArrayList<>();
  private final AtomicInteger accepted = new AtomicInteger();
  private volatile boolean closed;
  private volatile boolean refusing;

  TcpProxy(int targetPort) throws IOException {
    this.targetPort = targetPort;
    this.server = new ServerSocket(0, 50, LOCALHOST);
    Thread.ofVirtual().name("tcp-proxy-accept").start(this::acceptLoop);
  }

  private static InetAddress localhost() {
    try {
      return InetAddress.getByName("127.0.0.1"); // the server's address, whatever the JVM prefers
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  int port() {
    return server.getLocalPort();
  }

  String url() {
    return "http://127.0.0.1:" + port();
  }

  /** Connections accepted so far. */
  int accepted() {
    return accepted.get();
  }

  /** Stops forwarding on every connection open now, without closing them. */
  void blackholeExisting() {
    for (Link link : links) {
      link.blackholed = true;
    }
  }

  /** Closes every open connection and refuses new ones until {@link #resume()}. */
  void pause() {
    refusing = true;
    for (Link link : links) {
      link.close();
    }
    links.clear();
  }

  /** Accepts and forwards connections again. */
  void resume() {
    refusing = false;
  }

  private void acceptLoop() {
    while (!closed) {
      try {
        Socket client = server.accept();
        if (refusing) {
          client.setSoLinger(true, 0); // reset, like a refused connection
          client.close();
          continue;
        }
        accepted.incrementAndGet();
        Socket upstream = new Socket();
        try {
          upstream.connect(new InetSocketAddress(LOCALHOST, targetPort));
        } catch (IOException e) {
          client.close();
          upstream.close();
          continue;
        }
        Link link = new Link(client, upstream);
        links.add(link);
        Thread.ofVirtual().name("tcp-proxy-up").start(() -> pump(link, client, upstream));
        Thread.ofVirtual().name("tcp-proxy-down").start(() -> pump(link, upstream, client));
      } catch (IOException e) {
        if (closed) {
          return;
        }
      }
    }
  }

  private void pump(Link link, Socket from, Socket to) {
    byte[] buf = new byte[16 * 1024];
    try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
      int n;
      while ((n = in.read(buf)) >= 0) {
        if (link.blackholed) {
          continue; // swallow silently; the peer never hears of it
        }
        out.write(buf, 0, n);
        out.flush();
      }
    } catch (IOException e) {
      // one side went away
    } finally {
      if (!link.blackholed) {
        link.close();
        links.remove(link);
      }
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    server.close();
    for (Link link : links) {
      link.close();
    }
  }

  private static final class Link {
    final Socket a;
    final Socket b;
    volatile boolean blackholed;

    Link(Socket a, Socket b) {
      this.a = a;
      this.b = b;
    }

    void close() {
      try {
        a.close();
      } catch (IOException ignored) {
        // closing
      }
      try {
        b.close();
      } catch (IOException ignored) {
        // closing
      }
    }
  }
}
