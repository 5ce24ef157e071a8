package io.listwatch.bench.server;

import java.nio.charset.StandardCharsets;

/**
 * The head of an HTTP/1.1 response, taken byte by byte until the blank line that ends it; of
 * it only the start of the status line is kept ({@code HTTP/1.1 200}), which is all the watch
 * readers judge. Confined to the one thread that reads the connection.
 */
final class ResponseHead {

  private final byte[] status = new byte[16];
  private int statusLen;
  /** Progress through "\r\n\r\n": 0 none, 1 "\r", 2 "\r\n", 3 "\r\n\r", 4 done. */
  private int crlf;

  /** Takes the next byte of the response; true once the head has ended with it. */
  boolean take(byte x) {
    if (statusLen < status.length) {
      status[statusLen++] = x;
    }
    if (x == '\r') {
      crlf = crlf == 2 ? 3 : 1;
    } else if (x == '\n') {
      crlf = crlf == 1 ? 2 : crlf == 3 ? 4 : 0;
    } else {
      crlf = 0;
    }
    return crlf == 4;
  }

  /** The status line's first 12 characters, e.g. {@code HTTP/1.1 200}. */
  String statusLine() {
    return new String(status, 0, Math.min(statusLen, 12), StandardCharsets.US_ASCII);
  }
}
