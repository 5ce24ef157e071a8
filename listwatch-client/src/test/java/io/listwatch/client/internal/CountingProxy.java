package io.listwatch.client.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback TCP proxy that counts the connections it accepts, so a test can see how many
 * connections a client opened. Bytes are piped unchanged by virtual threads. Thread-safe.
 */
final class CountingProxy implements AutoCloseable {

  private final ServerSocket listener;
  private final int targetPort;
  private final AtomicInteger accepted = new AtomicInteger();
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();

  CountingProxy(int targetPort) throws IOException {
    this.targetPort = targetPort;
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread.ofVirtual().name("counting-proxy-accept").start(this::acceptLoop);
  }

  String url() {
    return "http://127.0.0.1:" + listener.getLocalPort();
  }

  int connections() {
    return accepted.get();
  }

  private void acceptLoop() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        accepted.incrementAndGet();
        Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        sockets.add(client);
        sockets.add(server);
        Thread.ofVirtual().name("counting-proxy-up").start(() -> pipe(client, server));
        Thread.ofVirtual().name("counting-proxy-down").start(() -> pipe(server, client));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private static void pipe(Socket from, Socket to) {
    try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
      in.transferTo(out);
    } catch (IOException e) {
      // one side closed
    } finally {
      try {
        to.close();
        from.close();
      } catch (IOException e) {
        // closing
      }
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
    for (Socket s : sockets) {
      s.close();
    }
  }
}
