package io.listwatch.bench.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Plain HTTP/1.1 watches read by one thread: a {@link Selector} over non-blocking sockets,
 * each carrying one {@code GET ...?watch=true} whose chunked body is parsed by hand
 * ({@link ChunkedWatchResponse}, {@link EventLines}); or, for plain WebSocket, each carrying
 * one upgraded watch whose frames are parsed by hand too ({@link WebSocketWatchResponse}).
 *
 * <p>Why this shape: with 1,000 watchers, 1,000 threads (or 1,000 HttpClient streams) would
 * take the CPU the server needs on a 2-core machine. Here one thread reads into one direct
 * buffer, finds newlines eight bytes at a time, and allocates nothing per event.
 *
 * <p>Threads: the constructor starts the reader thread; {@link #open} (connecting and
 * sending the requests, blocking) runs on the caller's thread and hands the sockets over
 * through a queue. The tally is published about every select round.
 */
final class RawWatchFleet implements WatchFleet {

  private static final int READ_BUFFER = 256 * 1024;

  private final InetSocketAddress address;
  private final WatchTally tally;
  private final Selector selector;
  private final Thread reader;
  private final ConcurrentLinkedQueue<Conn> pending = new ConcurrentLinkedQueue<>();
  private final List<Conn> conns = new ArrayList<>(); // reader thread
  private final ByteBuffer rb = ByteBuffer.allocateDirect(READ_BUFFER).order(ByteOrder.LITTLE_ENDIAN);
  private volatile boolean stop;

  private final WatchWire wire;
  private final boolean webSocket;

  /** @param webSocket whether the watches are WebSocket upgrades (JSON, one message per event) */
  RawWatchFleet(InetSocketAddress address, WatchWire wire, boolean webSocket) throws IOException {
    this.address = address;
    this.wire = wire;
    this.webSocket = webSocket;
    this.tally = wire.tally();
    this.selector = Selector.open();
    this.reader = Thread.ofPlatform().name("watch-fleet-reader").daemon(true).start(this::loop);
  }

  @Override
  public WatchTally tally() {
    return tally;
  }

  @Override
  public void open(String pathAndQuery, int count) throws IOException {
    byte[] request = ("GET " + pathAndQuery + " HTTP/1.1\r\nHost: " + address.getHostString() + ":"
        + address.getPort() + "\r\nAccept: " + wire.accept
        + (webSocket ? "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13"
            + "\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==" : "")
        + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    for (int i = 0; i < count; i++) {
      SocketChannel ch = SocketChannel.open();
      ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
      ch.connect(address);
      ByteBuffer req = ByteBuffer.wrap(request);
      while (req.hasRemaining()) {
        ch.write(req);
      }
      ch.configureBlocking(false);
      pending.add(new Conn(ch, webSocket ? new WebSocketWatchResponse(tally) : new ChunkedWatchResponse(tally, wire)));
      if ((i & 63) == 63) {
        selector.wakeup();
      }
    }
    selector.wakeup();
  }

  @Override
  public void close() {
    stop = true;
    selector.wakeup();
    boolean interrupted = false;
    while (true) {
      try {
        reader.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true; // the reader stops within one select round: wait for it anyway
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  // ---- reader thread ---------------------------------------------------------------------

  private void loop() {
    try {
      while (!stop) {
        for (Conn c; (c = pending.poll()) != null; ) {
          c.ch.register(selector, SelectionKey.OP_READ, c);
          conns.add(c);
        }
        selector.select(10);
        var keys = selector.selectedKeys();
        if (!keys.isEmpty()) {
          for (SelectionKey key : keys) {
            read((Conn) key.attachment(), key);
          }
          keys.clear();
        }
        tally.publish();
      }
    } catch (IOException | RuntimeException e) {
      tally.stopped(null, false, "reader: " + e);
      tally.publish();
    } finally {
      for (Conn c : conns) {
        closeQuietly(c);
      }
      for (Conn c; (c = pending.poll()) != null; ) {
        closeQuietly(c);
      }
      try {
        selector.close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }
  }

  private void read(Conn c, SelectionKey key) {
    try {
      for (int round = 0; round < 4; round++) {
        rb.clear();
        int n = c.ch.read(rb);
        if (n < 0) {
          c.response.connectionClosed(null);
          finish(c, key);
          return;
        }
        if (n == 0) {
          return;
        }
        if (!c.response.read(rb, 0, n, System.nanoTime())) {
          finish(c, key);
          return;
        }
        if (n < READ_BUFFER) {
          return;
        }
      }
    } catch (IOException | RuntimeException e) {
      c.response.connectionClosed(e.toString());
      finish(c, key);
    }
  }

  private void finish(Conn c, SelectionKey key) {
    key.cancel();
    closeQuietly(c);
  }

  private static void closeQuietly(Conn c) {
    try {
      c.ch.close();
    } catch (IOException ignored) {
      // closing anyway
    }
  }

  /** One watch connection; reader thread only. */
  private record Conn(SocketChannel ch, WatchResponse response) {
  }
}
