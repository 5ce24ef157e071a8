package io.listwatch.bench.server;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * A minimal blocking HTTP/1.1 client on one keep-alive connection: writes a request in one
 * go and reads the response (Content-Length or chunked), keeping only as much of the body as
 * the caller asks for. Much cheaper per request than {@code java.net.http.HttpClient}, so on
 * a 2-core machine the load generator leaves the CPU to the server it measures.
 *
 * <p>Plain TCP, or TLS through a given {@link SSLSocketFactory}. Reconnects when the server closed the connection between requests. Not thread-safe:
 * one connection per thread.
 */
final class RawHttp implements AutoCloseable {

  /** A response: status, total body bytes, and the first bytes of the body as asked. */
  record Response(int status, long bodyBytes, byte[] body) {
    String bodyText() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  private final InetSocketAddress address;
  private final SSLSocketFactory tls;
  private final String hostHeader;
  private final byte[] buf = new byte[256 * 1024];
  private int pos;
  private int limit;
  private byte[] kept; // the body being kept, during readResponse
  private int keepLimit;
  private Socket socket;
  private InputStream in;
  private OutputStream out;

  RawHttp(InetSocketAddress address) {
    this(address, null);
  }

  /** A client that speaks TLS through {@code tls} (null: plain TCP). */
  RawHttp(InetSocketAddress address, SSLSocketFactory tls) {
    this.address = address;
    this.tls = tls;
    this.hostHeader = address.getHostString() + ":" + address.getPort();
  }

  /**
   * Sends a request and reads its whole response. A GET whose keep-alive connection the
   * server had closed is sent once more on a new one; any other request that fails is not
   * sent again (the server may have applied it) and leaves the client to connect anew on its
   * next request.
   *
   * @param contentType null for a request without a body
   * @param keepBodyBytes how many bytes of the body to return (the rest is read and counted)
   */
  Response send(String method, String path, String contentType, byte[] body, int keepBodyBytes)
      throws IOException {
    return send(method, path, "application/json", contentType, body, keepBodyBytes);
  }

  /** As {@link #send(String, String, String, byte[], int)}, asking for the {@code accept} media type. */
  Response send(String method, String path, String accept, String contentType, byte[] body, int keepBodyBytes)
      throws IOException {
    StringBuilder head = new StringBuilder(128)
        .append(method).append(' ').append(path).append(" HTTP/1.1\r\nHost: ").append(hostHeader)
        .append("\r\nAccept: ").append(accept).append("\r\n");
    if (contentType != null) {
      head.append("Content-Type: ").append(contentType).append("\r\nContent-Length: ")
          .append(body.length).append("\r\n");
    }
    head.append("\r\n");
    byte[] h = head.toString().getBytes(StandardCharsets.US_ASCII);
    byte[] request = h;
    if (contentType != null) {
      request = new byte[h.length + body.length];
      System.arraycopy(h, 0, request, 0, h.length);
      System.arraycopy(body, 0, request, h.length, body.length);
    }
    boolean fresh = socket == null;
    if (fresh) {
      connect();
    }
    try {
      out.write(request);
      out.flush();
      return readResponse(keepBodyBytes);
    } catch (EOFException | java.net.SocketException e) {
      close();
      if (fresh || !method.equals("GET")) {
        // a write may have been applied before the connection broke: sending it again could
        // apply it twice (a second event), so only a read is sent again
        throw e;
      }
      // the server closed an idle keep-alive connection: the read once more on a new one
      connect();
      out.write(request);
      out.flush();
      return readResponse(keepBodyBytes);
    }
  }

  private void connect() throws IOException {
    socket = new Socket();
    socket.setTcpNoDelay(true);
    socket.connect(address, 5_000);
    if (tls != null) {
      SSLSocket s = (SSLSocket) tls.createSocket(socket, address.getHostString(), address.getPort(), true);
      s.startHandshake();
      socket = s;
    }
    in = socket.getInputStream();
    out = socket.getOutputStream();
    pos = 0;
    limit = 0;
  }

  private Response readResponse(int keep) throws IOException {
    String statusLine = readLine();
    if (!statusLine.startsWith("HTTP/1.")) {
      throw new IOException("not an HTTP response: " + statusLine);
    }
    int status = Integer.parseInt(statusLine.substring(9, 12));
    long contentLength = -1;
    boolean chunked = false;
    boolean closeAfter = false;
    for (String line = readLine(); !line.isEmpty(); line = readLine()) {
      int colon = line.indexOf(':');
      if (colon < 0) {
        continue;
      }
      String name = line.substring(0, colon).trim();
      String value = line.substring(colon + 1).trim();
      if (name.equalsIgnoreCase("content-length")) {
        contentLength = Long.parseLong(value);
      } else if (name.equalsIgnoreCase("transfer-encoding")) {
        chunked = value.equalsIgnoreCase("chunked");
      } else if (name.equalsIgnoreCase("connection")) {
        closeAfter = value.equalsIgnoreCase("close");
      }
    }
    kept = new byte[Math.min(keep, 8192)];
    keepLimit = keep;
    int keptLen = 0;
    long total = 0;
    if (chunked) {
      while (true) {
        String sizeLine = readLine();
        int semi = sizeLine.indexOf(';');
        long size = Long.parseLong((semi < 0 ? sizeLine : sizeLine.substring(0, semi)).trim(), 16);
        if (size == 0) {
          while (!readLine().isEmpty()) {
            // trailers
          }
          break;
        }
        keptLen = readBody(size, keptLen);
        total += size;
        readLine(); // CRLF after the chunk
      }
    } else if (contentLength >= 0) {
      keptLen = readBody(contentLength, keptLen);
      total = contentLength;
    } else {
      throw new IOException("response without Content-Length or chunked encoding");
    }
    if (closeAfter) {
      close();
    }
    byte[] body = keptLen == kept.length ? kept : java.util.Arrays.copyOf(kept, keptLen);
    kept = null;
    return new Response(status, total, body);
  }

  /**
   * Reads {@code n} body bytes, copying into {@link #kept} (grown as needed) up to
   * {@link #keepLimit} bytes in all; returns how many it holds.
   */
  private int readBody(long n, int keptLen) throws IOException {
    while (n > 0) {
      if (pos == limit) {
        fill();
      }
      int take = (int) Math.min(n, limit - pos);
      if (keptLen < keepLimit) {
        int copy = Math.min(take, keepLimit - keptLen);
        if (keptLen + copy > kept.length) {
          kept = java.util.Arrays.copyOf(kept, (int) Math.min(keepLimit,
              Math.max((long) kept.length * 2, (long) keptLen + copy)));
        }
        System.arraycopy(buf, pos, kept, keptLen, copy);
        keptLen += copy;
      }
      pos += take;
      n -= take;
    }
    return keptLen;
  }

  private String readLine() throws IOException {
    StringBuilder b = new StringBuilder(64);
    while (true) {
      if (pos == limit) {
        fill();
      }
      byte c = buf[pos++];
      if (c == '\n') {
        int len = b.length();
        if (len > 0 && b.charAt(len - 1) == '\r') {
          b.setLength(len - 1);
        }
        return b.toString();
      }
      b.append((char) (c & 0xff));
    }
  }

  private void fill() throws IOException {
    int n = in.read(buf, 0, buf.length);
    if (n < 0) {
      throw new EOFException("connection closed by the server");
    }
    pos = 0;
    limit = n;
  }

  @Override
  public void close() {
    if (socket != null) {
      try {
        socket.close();
      } catch (IOException ignored) {
        // closing anyway
      }
      socket = null;
    }
  }
}
