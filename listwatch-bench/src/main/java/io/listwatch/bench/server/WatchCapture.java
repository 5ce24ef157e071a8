package io.listwatch.bench.server;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The bytes of one plain HTTP/1.1 watch as a server sent them: the response head and the first
 * chunk of its body (size line, data, CRLF), which {@link CeilingServer} then writes to its own
 * watchers. {@link #capture} takes them from a running API server: it opens the watch, has a
 * write made (one event), and reads that event's chunk. Immutable.
 */
record WatchCapture(byte[] head, byte[] chunk) {

  private static final int TIMEOUT_MS = 10_000;
  private static final int MAX_HEAD = 16 * 1024;

  /** Makes the write whose event is captured. */
  @FunctionalInterface
  interface Write {
    void run() throws IOException;
  }

  /**
   * Opens {@code GET pathAndQuery} (a watch) on {@code server} over plain HTTP/1.1, reads the
   * response head, runs {@code write}, and reads the first chunk of the body. Fails if the
   * watch is not answered 200 chunked, or nothing arrives within 10 s.
   */
  static WatchCapture capture(InetSocketAddress server, String pathAndQuery, Write write) throws IOException {
    try (Socket s = new Socket(server.getAddress(), server.getPort())) {
      s.setSoTimeout(TIMEOUT_MS);
      s.setTcpNoDelay(true);
      s.getOutputStream().write(("GET " + pathAndQuery + " HTTP/1.1\r\nHost: " + server.getHostString() + ":"
          + server.getPort() + "\r\nAccept: application/json\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      InputStream in = new BufferedInputStream(s.getInputStream());
      byte[] head = readHead(in);
      String text = new String(head, StandardCharsets.ISO_8859_1);
      if (!text.startsWith("HTTP/1.1 200") || !text.toLowerCase(java.util.Locale.ROOT)
          .contains("transfer-encoding: chunked")) {
        throw new IOException("the watch was not answered 200 chunked: " + text.lines().findFirst().orElse(""));
      }
      write.run();
      return new WatchCapture(head, readChunk(in));
    }
  }

  /** The head, up to and including the blank line. */
  private static byte[] readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    ResponseHead end = new ResponseHead();
    while (true) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("connection closed in the response head");
      }
      head.write(b);
      if (end.take((byte) b)) {
        return head.toByteArray();
      }
      if (head.size() > MAX_HEAD) {
        throw new IOException("a response head over " + MAX_HEAD + " bytes");
      }
    }
  }

  /** One chunk: its size line, its data and the CRLF after them. */
  private static byte[] readChunk(InputStream in) throws IOException {
    ByteArrayOutputStream chunk = new ByteArrayOutputStream();
    StringBuilder sizeLine = new StringBuilder();
    for (int b; (b = in.read()) != '\n'; ) {
      if (b < 0) {
        throw new EOFException("connection closed before a chunk");
      }
      chunk.write(b);
      sizeLine.append((char) b);
    }
    chunk.write('\n');
    String hex = sizeLine.toString().trim();
    int semicolon = hex.indexOf(';');
    int size = Integer.parseInt(semicolon < 0 ? hex : hex.substring(0, semicolon), 16);
    if (size == 0) {
      throw new IOException("the watch ended before its first event");
    }
    chunk.write(in.readNBytes(size + 2));
    byte[] all = chunk.toByteArray();
    if (all.length != sizeLine.length() + 1 + size + 2 || all[all.length - 2] != '\r' || all[all.length - 1] != '\n') {
      throw new IOException("a chunk not ended by CRLF");
    }
    return all;
  }

  /** Events in the chunk: its data's newlines. */
  int events() {
    int n = 0;
    int dataFrom = indexOf(chunk, (byte) '\n') + 1;
    for (int i = dataFrom; i < chunk.length - 2; i++) {
      if (chunk[i] == '\n') {
        n++;
      }
    }
    return n;
  }

  /** Writes the head and the chunk to {@code head.bin} and {@code chunk.bin} in {@code dir}; returns their paths. */
  Path[] writeTo(Path dir) throws IOException {
    Files.createDirectories(dir);
    return new Path[] {Files.write(dir.resolve("head.bin"), head), Files.write(dir.resolve("chunk.bin"), chunk)};
  }

  private static int indexOf(byte[] b, byte x) {
    for (int i = 0; i < b.length; i++) {
      if (b[i] == x) {
        return i;
      }
    }
    return -1;
  }
}
