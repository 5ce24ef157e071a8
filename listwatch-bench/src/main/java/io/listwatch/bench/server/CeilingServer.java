package io.listwatch.bench.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;

/**
 * The raw-socket ceiling of {@code bench server-fanout}: a server that does nothing but write
 * one watch event, as fast as the sockets take it, to every watch connection. It accepts the
 * connections the watch fleet opens (plain HTTP/1.1), answers each {@code GET ...?watch=true}
 * with a captured response head ({@link WatchCapture}: the API server's own, chunked), then
 * writes the captured chunk (one event of the benchmark's pods, its chunk size line and CRLF
 * included) again and again. What the fleet counts against this server is the most a server
 * could deliver to that many watchers on this machine with this client: the cost of the
 * sockets and of the reader, without any of the API server's work.
 *
 * <p>How it writes: one acceptor thread hands connections round robin to {@code threads}
 * writer threads (by default 2, the API server's I/O threads), each a {@link Selector} over its
 * connections. The writers share one direct buffer holding the chunk repeated to at least
 * {@value #BUFFER_BYTES} bytes; each connection keeps its offset within the chunk, so a write is
 * one {@code write} from the shared bytes, with no copy and no allocation per event. A request
 * that is not a {@code GET} of a watch is answered 400 and closed. A connection whose client has
 * gone is closed.
 *
 * <p>Run as the main class of a child JVM ({@link io.listwatch.bench.ServerJvm}) with the
 * arguments {@code HEAD_FILE CHUNK_FILE [THREADS]}, it prints {@code listening on
 * http://127.0.0.1:<port>} and runs until SIGTERM.
 *
 * <p>Thread-safe: {@link #start} and {@link #close} from any thread; each connection is
 * confined to its writer thread.
 */
final class CeilingServer implements AutoCloseable {

  /** The least size of the shared buffer of repeated chunks. */
  static final int BUFFER_BYTES = 256 * 1024;

  /** The longest request head read; a longer one is refused. */
  private static final int MAX_REQUEST = 16 * 1024;

  private static final byte[] BAD_REQUEST = ("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n"
      + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII);

  private final ServerSocketChannel listener;
  private final byte[] head;
  private final int chunkLength;
  private final List<Writer> writers = new ArrayList<>();
  private final int sendBuffer;
  private final Thread acceptor;
  private volatile boolean closed;

  private CeilingServer(byte[] head, byte[] chunk, int threads, int sendBuffer) throws IOException {
    if (chunk.length == 0 || threads < 1) {
      throw new IllegalArgumentException("a chunk of at least one byte and at least one writer thread");
    }
    this.head = head.clone();
    this.chunkLength = chunk.length;
    this.sendBuffer = sendBuffer;
    int copies = Math.max(1, (BUFFER_BYTES + chunk.length - 1) / chunk.length);
    ByteBuffer repeated = ByteBuffer.allocateDirect(copies * chunk.length);
    for (int i = 0; i < copies; i++) {
      repeated.put(chunk);
    }
    this.listener = ServerSocketChannel.open();
    try {
      listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4096);
      for (int i = 0; i < threads; i++) {
        writers.add(new Writer(i, repeated.duplicate()));
      }
    } catch (IOException | RuntimeException e) {
      listener.close();
      writers.forEach(Writer::close);
      throw e;
    }
    this.acceptor = Thread.ofPlatform().name("ceiling-acceptor").daemon(true).unstarted(this::accept);
  }

  /**
   * Starts a server on a free port of 127.0.0.1 that answers every watch with {@code head} and
   * then {@code chunk} repeated, over {@code threads} writer threads; each connection's socket
   * send buffer is {@code sendBuffer} bytes (0: the kernel's default, which grows with use).
   */
  static CeilingServer start(byte[] head, byte[] chunk, int threads, int sendBuffer) throws IOException {
    CeilingServer s = new CeilingServer(head, chunk, threads, sendBuffer);
    s.writers.forEach(w -> w.thread.start());
    s.acceptor.start();
    return s;
  }

  /** Where it listens. */
  InetSocketAddress address() throws IOException {
    return (InetSocketAddress) listener.getLocalAddress();
  }

  /** Stops accepting, stops the writers and closes every connection. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      listener.close();
    } catch (IOException ignored) {
      // closing anyway
    }
    writers.forEach(Writer::close);
    boolean interrupted = false;
    for (Thread t : threadsToJoin()) {
      while (true) {
        try {
          t.join();
          break;
        } catch (InterruptedException e) {
          interrupted = true; // each stops within one select round: wait anyway
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private List<Thread> threadsToJoin() {
    List<Thread> all = new ArrayList<>();
    all.add(acceptor);
    writers.forEach(w -> all.add(w.thread));
    return all.stream().filter(Thread::isAlive).toList();
  }

  private void accept() {
    int next = 0;
    while (!closed) {
      try {
        SocketChannel ch = listener.accept();
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        if (sendBuffer > 0) {
          ch.setOption(StandardSocketOptions.SO_SNDBUF, sendBuffer);
        }
        ch.configureBlocking(false);
        writers.get(next).add(ch);
        next = (next + 1) % writers.size();
      } catch (ClosedChannelException e) {
        return;
      } catch (IOException e) {
        if (closed) {
          return;
        }
        System.err.println("ceiling: accept failed: " + e);
      }
    }
  }

  /** Whether {@code request} (a whole request head) asks for a watch: a GET with watch=true. */
  static boolean isWatch(String request) {
    int lineEnd = request.indexOf("\r\n");
    String line = lineEnd < 0 ? request : request.substring(0, lineEnd);
    return line.startsWith("GET ") && line.endsWith(" HTTP/1.1")
        && (line.contains("?watch=true") || line.contains("&watch=true") || line.contains("?watch=1")
            || line.contains("&watch=1"));
  }

  /** One writer thread and the connections it serves. */
  private final class Writer {
    private final Thread thread;
    private final Selector selector;
    private final ByteBuffer chunks;
    private final ConcurrentLinkedQueue<SocketChannel> added = new ConcurrentLinkedQueue<>();
    private final List<SocketChannel> mine = new ArrayList<>(); // writer thread

    Writer(int index, ByteBuffer chunks) throws IOException {
      this.chunks = chunks;
      this.selector = Selector.open();
      this.thread = Thread.ofPlatform().name("ceiling-writer-" + index).daemon(true).unstarted(this::loop);
    }

    void add(SocketChannel ch) {
      added.add(ch);
      selector.wakeup();
    }

    void close() {
      selector.wakeup();
      if (!thread.isAlive()) {
        closeAll();
      }
    }

    private void loop() {
      try {
        while (!closed) {
          for (SocketChannel ch; (ch = added.poll()) != null; ) {
            ch.register(selector, SelectionKey.OP_READ, new Conn());
            mine.add(ch);
          }
          selector.select();
          var keys = selector.selectedKeys();
          for (SelectionKey key : keys) {
            serve(key);
          }
          keys.clear();
        }
      } catch (IOException | ClosedSelectorException e) {
        if (!closed) {
          System.err.println("ceiling: " + thread.getName() + " failed: " + e);
        }
      } finally {
        closeAll();
      }
    }

    private void closeAll() {
      for (SocketChannel ch : mine) {
        closeQuietly(ch);
      }
      for (SocketChannel ch; (ch = added.poll()) != null; ) {
        closeQuietly(ch);
      }
      try {
        selector.close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }

    private void serve(SelectionKey key) {
      SocketChannel ch = (SocketChannel) key.channel();
      Conn c = (Conn) key.attachment();
      try {
        if (c.out == null) {
          readRequest(ch, c, key);
        } else if (c.out.hasRemaining()) {
          ch.write(c.out);
          if (!c.out.hasRemaining() && c.refused) {
            drop(ch, key);
          }
        } else {
          writeChunks(ch, c);
        }
      } catch (IOException e) {
        drop(ch, key); // the client has gone
      }
    }

    private void readRequest(SocketChannel ch, Conn c, SelectionKey key) throws IOException {
      int n = ch.read(c.in);
      if (n < 0) {
        drop(ch, key);
        return;
      }
      String seen = new String(c.in.array(), 0, c.in.position(), StandardCharsets.ISO_8859_1);
      if (!seen.contains("\r\n\r\n")) {
        if (!c.in.hasRemaining()) {
          refuse(c, key);
        }
        return;
      }
      if (isWatch(seen)) {
        c.out = ByteBuffer.wrap(head);
      } else {
        refuse(c, key);
        return;
      }
      key.interestOps(SelectionKey.OP_WRITE);
    }

    private void refuse(Conn c, SelectionKey key) {
      c.out = ByteBuffer.wrap(BAD_REQUEST);
      c.refused = true;
      key.interestOps(SelectionKey.OP_WRITE);
    }

    /** Up to four writes from the shared chunks, fewer if the socket fills. */
    private void writeChunks(SocketChannel ch, Conn c) throws IOException {
      for (int round = 0; round < 4; round++) {
        chunks.limit(chunks.capacity()).position(c.offset);
        int n = ch.write(chunks);
        c.offset = (int) ((c.offset + (long) n) % chunkLength);
        if (chunks.hasRemaining()) {
          return;
        }
      }
    }

    private void drop(SocketChannel ch, SelectionKey key) {
      key.cancel();
      closeQuietly(ch);
      mine.remove(ch);
    }
  }

  /** One connection's state; confined to its writer thread. */
  private static final class Conn {
    /** The request head read so far. */
    final ByteBuffer in = ByteBuffer.allocate(MAX_REQUEST);
    /** The response head (or the refusal) being written; null until the request is read. */
    ByteBuffer out;
    boolean refused;
    /** Where in the chunk the next write starts. */
    int offset;
  }

  private static void closeQuietly(SocketChannel ch) {
    try {
      ch.close();
    } catch (IOException ignored) {
      // closing anyway
    }
  }

  /** {@code HEAD_FILE CHUNK_FILE [THREADS [SEND_BUFFER]]}: serves until SIGTERM. */
  public static void main(String[] args) throws IOException, InterruptedException {
    if (args.length < 2) {
      System.err.println("usage: CeilingServer HEAD_FILE CHUNK_FILE [THREADS [SEND_BUFFER]]");
      System.exit(2);
    }
    CeilingServer server = start(Files.readAllBytes(Path.of(args[0])), Files.readAllBytes(Path.of(args[1])),
        args.length > 2 ? Integer.parseInt(args[2]) : 2, args.length > 3 ? Integer.parseInt(args[3]) : 0);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("ceiling-shutdown").unstarted(() -> {
      server.close();
      stopped.countDown();
    }));
    InetSocketAddress a = server.address();
    System.out.println("listening on http://127.0.0.1:" + a.getPort());
    System.out.flush();
    stopped.await();
  }
}
