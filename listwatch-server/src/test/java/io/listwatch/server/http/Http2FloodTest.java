package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import io.listwatch.server.tls.TlsConfig;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * HTTP/2 floods, written frame by frame on a prior-knowledge h2c connection: each ends with the
 * server closing the attacker's connection after a bounded number of frames, and another client
 * is served meanwhile.
 *
 * <ul>
 *   <li><b>rapid reset</b> (CVE-2023-44487): streams opened and reset at once, so none counts
 *       against the concurrent-stream limit;
 *   <li><b>CONTINUATION flood</b> (CVE-2024-27316 and kin): a header block that never ends;
 *   <li><b>SETTINGS flood</b>: SETTINGS frames whose acknowledgements the client never reads,
 *       so they pile up: the server stops reading the connection instead.
 * </ul>
 */
@ExtendWith(ApiServerExtension.class)
class Http2FloodTest {

  private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
  private static final int DATA = 0;
  private static final int HEADERS = 1;
  private static final int RST_STREAM = 3;
  private static final int SETTINGS = 4;
  private static final int PING = 6;
  private static final int GOAWAY = 7;
  private static final int CONTINUATION = 9;
  private static final int END_STREAM = 0x1;
  private static final int END_HEADERS = 0x4;
  /** PROTOCOL_ERROR, the GOAWAY code of a malformed frame. */
  private static final int PROTOCOL_ERROR = 0x1;
  /** ENHANCE_YOUR_CALM, the GOAWAY code of a peer that misbehaves. */
  private static final int ENHANCE_YOUR_CALM = 0xb;
  /** Most frames an attack may send before the server must have closed the connection. */
  private static final int MAX_FRAMES = 200_000;

  /** {@code GET /version} with {@code :authority 127.0.0.1}, HPACK without indexing or Huffman. */
  private static byte[] getVersionBlock() {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.write(0x82); // :method GET (static table 2)
    b.write(0x86); // :scheme http (static 6)
    b.write(0x04); // :path, literal value, name from static table 4
    byte[] path = "/version".getBytes(StandardCharsets.US_ASCII);
    b.write(path.length);
    b.writeBytes(path);
    b.write(0x01); // :authority, literal value, name from static table 1
    byte[] authority = "127.0.0.1".getBytes(StandardCharsets.US_ASCII);
    b.write(authority.length);
    b.writeBytes(authority);
    return b.toByteArray();
  }

  private static byte[] frame(int type, int flags, int stream, byte[] payload) {
    byte[] f = new byte[9 + payload.length];
    f[0] = (byte) (payload.length >>> 16);
    f[1] = (byte) (payload.length >>> 8);
    f[2] = (byte) payload.length;
    f[3] = (byte) type;
    f[4] = (byte) flags;
    f[5] = (byte) (stream >>> 24);
    f[6] = (byte) (stream >>> 16);
    f[7] = (byte) (stream >>> 8);
    f[8] = (byte) stream;
    System.arraycopy(payload, 0, f, 9, payload.length);
    return f;
  }

  /** What an attacker saw: how many frames it got out, and the GOAWAY codes the server sent. */
  private record Outcome(int framesSent, boolean closedByServer, List<Integer> goAwayCodes) {
  }

  /** The frames of an attack after the preface: the {@code i}-th frame to send. */
  private interface Attack {
    byte[] frame(int i);
  }

  /**
   * Opens a prior-knowledge h2c connection, sends the preface and an empty SETTINGS, then the
   * attack's frames until the server closes the connection or {@link #MAX_FRAMES} went out;
   * reads the server's frames on another thread unless {@code neverRead}.
   */
  private static Outcome attack(ApiServer server, Attack attack, boolean neverRead) throws Exception {
    URI uri = URI.create(server.url());
    try (Socket s = new Socket(uri.getHost(), uri.getPort())) {
      s.setSoTimeout((int) KubeHttp.WAIT.toMillis());
      OutputStream out = s.getOutputStream();
      out.write(PREFACE);
      out.write(frame(SETTINGS, 0, 0, new byte[0]));
      CompletableFuture<Frames> read = neverRead ? null : CompletableFuture.supplyAsync(() -> readGoAways(s));
      int sent = 0;
      boolean closed = false;
      try {
        for (; sent < MAX_FRAMES; sent++) {
          out.write(attack.frame(sent));
        }
        out.flush();
      } catch (SocketException reset) {
        closed = true;
      }
      if (read == null) {
        // every frame went out (into socket buffers): the server must still close the connection
        return new Outcome(sent, closed || closedWithin(s), List.of());
      }
      // the reader alone reads the socket, to its end: a second reader here could take the GOAWAY
      Frames frames = read.get(2 * KubeHttp.WAIT.toMillis(), TimeUnit.MILLISECONDS);
      return new Outcome(sent, closed || frames.ended(), frames.goAwayCodes());
    }
  }

  /** True if the server closes (or resets) the connection within the socket's timeout. */
  private static boolean closedWithin(Socket s) throws IOException {
    InputStream in = s.getInputStream();
    byte[] buf = new byte[8192];
    try {
      while (in.read(buf) >= 0) {
        // discard
      }
      return true;
    } catch (SocketException reset) {
      return true;
    } catch (java.net.SocketTimeoutException stillOpen) {
      return false;
    }
  }

  /** The GOAWAY codes a reader saw, and whether the connection ended (rather than fell silent). */
  private record Frames(List<Integer> goAwayCodes, boolean ended) {
  }

  /** Reads frames until the connection ends or is silent for the socket's timeout, collecting GOAWAY codes. */
  private static Frames readGoAways(Socket s) {
    List<Integer> codes = new ArrayList<>();
    try {
      DataInputStream in = new DataInputStream(s.getInputStream());
      while (true) {
        int length = (in.readUnsignedByte() << 16) | in.readUnsignedShort();
        int type = in.readUnsignedByte();
        in.readUnsignedByte(); // flags
        in.readInt(); // stream
        byte[] payload = in.readNBytes(length);
        if (type == GOAWAY && payload.length >= 8) {
          codes.add(((payload[4] & 0xff) << 24) | ((payload[5] & 0xff) << 16) | ((payload[6] & 0xff) << 8)
              | (payload[7] & 0xff));
        }
      }
    } catch (EOFException | SocketException ended) {
      return new Frames(codes, true);
    } catch (IOException silent) {
      return new Frames(codes, false);
    }
  }

  private static void assertOthersAreServed(ApiServer server) {
    try (KubeHttp http = new KubeHttp(server)) {
      assertThat(http.get("/version").expect(200).path("gitVersion").asText()).isNotEmpty();
    }
  }

  @Test
  void rapidReset_closesTheConnection_withEnhanceYourCalm(ApiServer server) throws Exception {
    byte[] block = getVersionBlock();
    Outcome o = attack(server, i -> {
      int stream = 1 + 2 * (i / 2);
      return i % 2 == 0 ? frame(HEADERS, END_HEADERS | END_STREAM, stream, block)
          : frame(RST_STREAM, 0, stream, new byte[] {0, 0, 0, 8}); // CANCEL
    }, false);
    assertThat(o.closedByServer()).isTrue();
    assertThat(o.goAwayCodes()).contains(ENHANCE_YOUR_CALM);
    assertOthersAreServed(server);
  }

  @Test
  void continuationFlood_closesTheConnection(ApiServer server) throws Exception {
    byte[] block = getVersionBlock();
    byte[] filler = new byte[] {0x40, 0x01, 'x', 0x01, 'y'}; // literal x: y, with indexing: grows the header list
    Outcome o = attack(server, i -> i == 0 ? frame(HEADERS, END_STREAM, 1, block)
        : frame(CONTINUATION, 0, 1, filler), false);
    assertThat(o.closedByServer()).isTrue();
    assertThat(o.goAwayCodes()).isNotEmpty();
    assertOthersAreServed(server);
  }

  @Test
  void emptyContinuationFlood_closesTheConnection(ApiServer server) throws Exception {
    byte[] block = getVersionBlock();
    Outcome o = attack(server, i -> i == 0 ? frame(HEADERS, END_STREAM, 1, block)
        : frame(CONTINUATION, 0, 1, new byte[0]), false);
    assertThat(o.closedByServer()).isTrue();
    assertOthersAreServed(server);
  }

  /**
   * A client still sending when the server ends its connection for a protocol error reads the
   * GOAWAY that says why, then the end of the stream: the server stops writing and reads what
   * comes meanwhile, rather than closing on unread bytes, which makes the kernel answer with a
   * reset and the client's kernel drop what it had not read yet, GOAWAY and all.
   */
  @Test
  void aConnectionError_reachesAClientThatKeepsSending_asGoAwayThenTheEnd(ApiServer server) throws Exception {
    URI uri = URI.create(server.url());
    try (Socket s = new Socket()) {
      s.setSendBufferSize(64 * 1024); // so the bytes below cannot all wait in this side's buffer
      s.connect(new java.net.InetSocketAddress(uri.getHost(), uri.getPort()));
      assertGoAwayThenTheEnd_whileSending(s);
    }
    assertOthersAreServed(server);
  }

  /**
   * The same on a connection that switched from HTTP/1.1 by {@code Upgrade: h2c} (the JDK's
   * client does this for every new plain-text connection): its HTTP/2 pipeline ends a failed
   * connection as the others do.
   */
  @Test
  void aConnectionError_onAConnectionUpgradedFromHttp1_reachesAClientThatKeepsSending_asGoAwayThenTheEnd(
      ApiServer server) throws Exception {
    URI uri = URI.create(server.url());
    try (Socket s = new Socket()) {
      s.setSendBufferSize(64 * 1024);
      s.connect(new java.net.InetSocketAddress(uri.getHost(), uri.getPort()));
      s.setSoTimeout((int) KubeHttp.WAIT.toMillis());
      s.getOutputStream().write(("GET /version HTTP/1.1\r\nHost: 127.0.0.1\r\n"
          + "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: \r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      assertThat(readHttp1Head(s)).startsWith("HTTP/1.1 101");
      assertGoAwayThenTheEnd_whileSending(s);
    }
    assertOthersAreServed(server);
  }

  /** Reads a response's status line and headers, byte by byte, up to the blank line after them. */
  private static String readHttp1Head(Socket s) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    InputStream in = s.getInputStream();
    while (head.size() < 4 || !head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("the connection ended in the response's head: " + head);
      }
      head.write(b);
    }
    return head.toString(StandardCharsets.US_ASCII);
  }

  /** The same over TLS (h2 by ALPN), where the server's end is a close_notify before the FIN. */
  @ParameterizedTest
  @EnumSource(value = TlsConfig.Provider.class, names = {"JDK", "OPENSSL"})
  void aConnectionError_overTls_reachesAClientThatKeepsSending_asGoAwayThenTheEnd(TlsConfig.Provider provider)
      throws Exception {
    try (ApiServer tls = ApiServer.builder().tls(TlsConfig.DEFAULTS.withProvider(provider)).build().start()) {
      SSLSocket s = (SSLSocket) tls.clientSslContext("admin", "system:masters").getSocketFactory().createSocket();
      try (s) {
        s.setSendBufferSize(64 * 1024);
        s.connect(new java.net.InetSocketAddress("127.0.0.1", tls.port()));
        SSLParameters params = s.getSSLParameters();
        params.setApplicationProtocols(new String[] {"h2"});
        s.setSSLParameters(params);
        s.startHandshake();
        assertThat(s.getApplicationProtocol()).isEqualTo("h2");
        assertGoAwayThenTheEnd_whileSending(s);
      }
    }
  }

  /**
   * Opens HTTP/2 on {@code s}, sends a frame that is a connection error, then 16 MiB of PINGs
   * without reading; then reads: a GOAWAY with PROTOCOL_ERROR, then the end of the stream.
   */
  private static void assertGoAwayThenTheEnd_whileSending(Socket s) throws IOException {
    s.setSoTimeout((int) KubeHttp.WAIT.toMillis());
    OutputStream out = s.getOutputStream();
    out.write(PREFACE);
    out.write(frame(SETTINGS, 0, 0, new byte[0]));
    out.write(frame(DATA, 0, 0, new byte[] {1})); // DATA on stream 0: a connection error, PROTOCOL_ERROR
    ByteArrayOutputStream pings = new ByteArrayOutputStream();
    while (pings.size() < 64 * 1024) {
      pings.writeBytes(frame(PING, 0, 0, new byte[8]));
    }
    byte[] batch = pings.toByteArray();
    for (int sent = 0; sent < 16 * 1024 * 1024; sent += batch.length) {
      out.write(batch); // more than the server's socket can hold unread: it must keep reading
    }
    out.flush();
    Frames frames = readGoAways(s);
    assertThat(frames.goAwayCodes()).containsExactly(PROTOCOL_ERROR);
    assertThat(frames.ended()).isTrue();
  }

  /**
   * The server answers each SETTINGS with an acknowledgement the client never reads: once they
   * fill the connection's buffers the server stops reading from it (or closes it), so the flood
   * holds a bounded amount of memory; then the connection is closed and nothing stays paused.
   */
  @Test
  void settingsFlood_fromAClientThatNeverReads_isNoLongerRead(ApiServer server) throws Exception {
    URI uri = URI.create(server.url());
    try (KubeHttp http = new KubeHttp(server)) {
      java.util.concurrent.atomic.AtomicBoolean ended = new java.util.concurrent.atomic.AtomicBoolean();
      CompletableFuture<Void> flood;
      try (Socket s = new Socket(uri.getHost(), uri.getPort())) {
        OutputStream out = s.getOutputStream();
        out.write(PREFACE);
        byte[] settings = frame(SETTINGS, 0, 0, new byte[0]);
        flood = CompletableFuture.runAsync(() -> {
          try {
            for (int i = 0; i < 50 * MAX_FRAMES; i++) {
              out.write(settings);
            }
          } catch (IOException closed) {
            // the server closed the connection, or the test did
          } finally {
            ended.set(true);
          }
        });
        io.listwatch.testsupport.Await.until("the server stops reading the flood or closes it", KubeHttp.WAIT,
            () -> ended.get() || readingPaused(http) >= 1);
        assertOthersAreServed(server);
      }
      flood.get(KubeHttp.WAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(ended).as("the flood did not get all its frames read").isTrue();
      io.listwatch.testsupport.Await.until("no connection stays paused", KubeHttp.WAIT, () -> readingPaused(http) == 0);
    }
  }

  private static int readingPaused(KubeHttp http) {
    for (String line : http.get("/metrics", "text/plain").body().split("\n")) {
      if (line.startsWith("listwatch_connections_reading_paused ")) {
        return (int) Double.parseDouble(line.substring(line.indexOf(' ') + 1).trim());
      }
    }
    throw new AssertionError("no listwatch_connections_reading_paused in /metrics");
  }
}
