package io.listwatch.bench.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One watcher of a chaos run, as a reflector is: it lists the namespace's ConfigMaps (an
 * operation of the history), watches from the list's resourceVersion, and records every event
 * of each watch connection as a {@link WatchSegment}. When a connection breaks, is refused or
 * stays silent for {@link #SILENCE_MILLIS} (a paused server), it watches again from the last
 * resourceVersion it saw, on the next server; on 410 Gone it lists again.
 *
 * <p>{@link #drain} asks it to end once it has seen {@code rv}: the open connection then ends
 * as {@link WatchSegment.End#LIVE_AT_END}, and the checker holds it to every change up to the
 * final lists' resourceVersion.
 *
 * <p>Confined to its own thread ({@code chaos-watcher-N}); {@link #drain}, {@link #lastRv}
 * and {@link #stop} from any thread.
 */
final class ChaosWatcher implements Runnable {

  private static final int SILENCE_MILLIS = 3_000;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final int process;
  private final List<URI> servers;
  private final History history;
  private final ConfigMapCalls calls;
  private int server;
  private volatile long lastRv;
  private volatile long drainTo = Long.MAX_VALUE;
  private volatile boolean stopped;
  private volatile Socket socket;

  ChaosWatcher(int process, int firstServer, List<URI> servers, History history) {
    this.process = process;
    this.server = firstServer;
    this.servers = servers;
    this.history = history;
    this.calls = new ConfigMapCalls(process, servers, history);
  }

  /** The last resourceVersion this watcher has seen. */
  long lastRv() {
    return lastRv;
  }

  /** Ends the watcher once it has seen {@code rv}. */
  void drain(long rv) {
    drainTo = rv;
  }

  /** Ends the watcher now; an open connection ends as broken. */
  void stop() {
    stopped = true;
    Socket s = socket;
    if (s != null) {
      try {
        s.close();
      } catch (IOException e) {
        // closing
      }
    }
  }

  @Override
  public void run() {
    long rv = 0;
    try {
      while (!stopped) {
        if (rv == 0) {
          Operation list = calls.list(server);
          if (list.ok()) {
            rv = list.rv();
            lastRv = Math.max(lastRv, rv);
          } else {
            server = (server + 1) % servers.size();
            Thread.sleep(200); // the server is down: retry on the next one shortly
          }
          continue;
        }
        WatchSegment s = watch(rv);
        if (s != null) {
          history.add(s);
          if (s.end() == WatchSegment.End.LIVE_AT_END) {
            return;
          }
        }
        if (s == null || s.end() == WatchSegment.End.BROKEN && s.events().isEmpty()) {
          server = (server + 1) % servers.size();
          Thread.sleep(200); // nothing came: the server may be down; on the next one shortly
        }
        if (s != null) {
          rv = s.end() == WatchSegment.End.GONE ? 0 : s.lastRv();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** One watch connection from {@code rv}, until it ends; null if the server could not be reached. */
  private WatchSegment watch(long rv) {
    List<WatchSegment.Event> events = new ArrayList<>();
    WatchSegment.End end = WatchSegment.End.BROKEN;
    URI base = servers.get(server);
    try (Socket s = new Socket()) {
      socket = s;
      if (stopped) {
        return new WatchSegment(process, server, rv, events, end);
      }
      try {
        s.connect(new InetSocketAddress(base.getHost(), base.getPort()), 2_000);
      } catch (IOException e) {
        return null;
      }
      s.setSoTimeout(SILENCE_MILLIS);
      OutputStream out = s.getOutputStream();
      out.write(("GET " + ConfigMapCalls.collection() + "?watch=true&resourceVersion=" + rv
          + " HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort()
          + "\r\nAccept: application/json\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = new BufferedInputStream(s.getInputStream());
      String status;
      try {
        status = line(in);
      } catch (IOException e) {
        return null; // the server accepted the connection but answered nothing (paused, or going down)
      }
      boolean chunked = false;
      for (String h = line(in); !h.isEmpty(); h = line(in)) {
        if (h.toLowerCase(java.util.Locale.ROOT).startsWith("transfer-encoding:") && h.contains("chunked")) {
          chunked = true;
        }
      }
      if (status.startsWith("HTTP/1.1 410")) {
        end = WatchSegment.End.GONE;
      } else if (status.startsWith("HTTP/1.1 200") && chunked) {
        end = readEvents(in, events);
      }
    } catch (SocketTimeoutException e) {
      end = caughtUp(events, rv) ? WatchSegment.End.LIVE_AT_END : WatchSegment.End.BROKEN;
    } catch (IOException e) {
      // broken
    } finally {
      socket = null;
    }
    return new WatchSegment(process, server, rv, events, end);
  }

  private WatchSegment.End readEvents(InputStream in, List<WatchSegment.Event> events) throws IOException {
    ByteArrayOutputStream pending = new ByteArrayOutputStream();
    while (true) {
      String size = line(in);
      int semi = size.indexOf(';');
      int n = Integer.parseInt((semi < 0 ? size : size.substring(0, semi)).trim(), 16);
      if (n == 0) {
        return WatchSegment.End.BROKEN;
      }
      for (int i = 0; i < n; i++) {
        int b = in.read();
        if (b < 0) {
          throw new EOFException();
        }
        if (b == '\n') {
          WatchSegment.End end = event(pending.toString(StandardCharsets.UTF_8), events);
          pending.reset();
          if (end != null) {
            return end;
          }
        } else {
          pending.write(b);
        }
      }
      line(in); // the chunk's CRLF
    }
  }

  /** Records one event line; the segment's end if it ends the watch (410, or drained). */
  private WatchSegment.End event(String line, List<WatchSegment.Event> events) throws IOException {
    if (line.isBlank()) {
      return null;
    }
    JsonNode e = JSON.readTree(line);
    String type = e.path("type").asText();
    if (type.equals("ERROR")) {
      return e.path("object").path("code").asInt() == 410 ? WatchSegment.End.GONE : WatchSegment.End.BROKEN;
    }
    if (type.equals("BOOKMARK")) {
      return null;
    }
    Version v = ConfigMapCalls.version(e.path("object"));
    if (!ConfigMapCalls.ours(v.key())) {
      return null;
    }
    events.add(new WatchSegment.Event(type, v, history.now()));
    lastRv = Math.max(lastRv, v.rv());
    return caughtUp(events, 0) ? WatchSegment.End.LIVE_AT_END : null;
  }

  private boolean caughtUp(List<WatchSegment.Event> events, long startRv) {
    return (events.isEmpty() ? startRv : events.getLast().version().rv()) >= drainTo;
  }

  private static String line(InputStream in) throws IOException {
    StringBuilder b = new StringBuilder();
    for (int c = in.read(); c != '\n'; c = in.read()) {
      if (c < 0) {
        throw new EOFException();
      }
      if (c != '\r') {
        b.append((char) c);
      }
    }
    return b.toString();
  }
}
