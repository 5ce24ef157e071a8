package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Bare HTTP/1.1 over a socket, for what {@link java.net.http.HttpClient} hides: the exact
 * response head, chunk boundaries, and a client that sends a request and then never reads.
 * Stateless; every read is bounded by the socket's read timeout, which callers set.
 */
final class RawHttp {

  private RawHttp() {
  }

  /** Writes a bare HTTP/1.1 GET on {@code out}. */
  static void writeGet(OutputStream out, String pathAndQuery) throws IOException {
    out.write(("GET " + pathAndQuery + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n"
        + "User-Agent: listwatch-http-test\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  /**
   * Reads a response head (status line and headers, up to the blank line); the socket's read
   * timeout bounds the wait. Header names are lower-cased; the status line is under "".
   */
  static Map<String, String> readHead(InputStream in) throws IOException {
    Map<String, String> head = new HashMap<>();
    String line = readCrLfLine(in);
    head.put("", line);
    while (!(line = readCrLfLine(in)).isEmpty()) {
      int colon = line.indexOf(':');
      head.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
    }
    return head;
  }

  /** Reads one chunk of a chunked body; an empty array is the last chunk. */
  static byte[] readChunk(InputStream in) throws IOException {
    String sizeLine = readCrLfLine(in);
    int semi = sizeLine.indexOf(';');
    int size = Integer.parseInt((semi < 0 ? sizeLine : sizeLine.substring(0, semi)).trim(), 16);
    byte[] data = in.readNBytes(size);
    if (data.length < size) {
      throw new EOFException("the connection ended inside a chunk");
    }
    String crlf = readCrLfLine(in);
    assertThat(crlf).as("a chunk ends with CRLF").isEmpty();
    return data;
  }

  private static String readCrLfLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int c;
    while ((c = in.read()) != '\n') {
      if (c < 0) {
        throw new EOFException("the connection ended inside a line: " + line);
      }
      line.write(c);
    }
    String s = line.toString(StandardCharsets.ISO_8859_1);
    assertThat(s).as("an HTTP line ends with CRLF").endsWith("\r");
    return s.substring(0, s.length() - 1);
  }
}
