package io.listwatch.server.http;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * Bare WebSocket over a socket, for what the JDK client hides: the exact frames (one per
 * event, unfragmented), and clients that misbehave (garbage after the upgrade, oversized
 * frames). Stateless; every read is bounded by the socket's read timeout, which callers set.
 */
final class RawWebSocket {

  /** The key every request here sends (16 bytes, base64), and the accept value it must get. */
  static final String KEY = Base64.getEncoder().encodeToString("listwatch-ws-key".getBytes(StandardCharsets.US_ASCII));
  static final String ACCEPT = accept(KEY);

  static final int TEXT = 0x1;
  static final int CLOSE = 0x8;

  /** One frame as received. */
  record Frame(boolean fin, int opcode, byte[] payload) {
    String text() {
      return new String(payload, StandardCharsets.UTF_8);
    }

    /** The status code of a Close frame. */
    int closeStatus() {
      return payload.length >= 2 ? ((payload[0] & 0xff) << 8) | (payload[1] & 0xff) : 1005;
    }
  }

  private RawWebSocket() {
  }

  /** Writes a WebSocket upgrade GET for {@code pathAndQuery}, with extra header lines. */
  static void writeUpgrade(OutputStream out, String pathAndQuery, String... extraHeaders) throws IOException {
    StringBuilder req = new StringBuilder("GET " + pathAndQuery + " HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    boolean custom = extraHeaders.length > 0;
    if (!custom) {
      req.append("Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n")
          .append("Sec-WebSocket-Key: ").append(KEY).append("\r\n");
    }
    for (String h : extraHeaders) {
      req.append(h).append("\r\n");
    }
    out.write(req.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  /** Reads one frame (server frames are not masked). */
  static Frame readFrame(InputStream in) throws IOException {
    int b0 = readByte(in);
    int b1 = readByte(in);
    if ((b1 & 0x80) != 0) {
      throw new IOException("a server frame must not be masked");
    }
    long length = b1 & 0x7f;
    if (length == 126) {
      length = (readByte(in) << 8) | readByte(in);
    } else if (length == 127) {
      length = 0;
      for (int i = 0; i < 8; i++) {
        length = (length << 8) | readByte(in);
      }
    }
    byte[] payload = in.readNBytes((int) length);
    if (payload.length < length) {
      throw new EOFException("the connection ended inside a frame");
    }
    return new Frame((b0 & 0x80) != 0, b0 & 0x0f, payload);
  }

  /** A masked client frame (as a client must send it), FIN set. */
  static byte[] clientFrame(int opcode, byte[] payload) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0x80 | opcode);
    if (payload.length < 126) {
      out.write(0x80 | payload.length);
    } else if (payload.length <= 0xffff) {
      out.write(0x80 | 126);
      out.write(payload.length >>> 8);
      out.write(payload.length & 0xff);
    } else {
      out.write(0x80 | 127);
      for (int i = 7; i >= 0; i--) {
        out.write((int) ((long) payload.length >>> (8 * i)) & 0xff);
      }
    }
    byte[] mask = {0x11, 0x22, 0x33, 0x44};
    out.writeBytes(mask);
    for (int i = 0; i < payload.length; i++) {
      out.write(payload[i] ^ mask[i % 4]);
    }
    return out.toByteArray();
  }

  private static int readByte(InputStream in) throws IOException {
    int b = in.read();
    if (b < 0) {
      throw new EOFException("the connection ended");
    }
    return b;
  }

  /** The Sec-WebSocket-Accept value for {@code key} (RFC 6455 section 4.2.2). */
  static String accept(String key) {
    try {
      byte[] sha1 = MessageDigest.getInstance("SHA-1")
          .digest((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").getBytes(StandardCharsets.US_ASCII));
      return Base64.getEncoder().encodeToString(sha1);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
