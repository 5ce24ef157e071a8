package io.listwatch.server.http;

import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One watch response body, split into lines by a reader thread. Every line must be one
 * JSON object with {@code type} and {@code object} ending with {@code \n} (one event per line):
 * a line that does not parse, or bytes left without a final newline at the end of the
 * stream, fail the next read. The stream's end is reported as clean (the chunked body
 * ended normally) or not (the connection broke).
 *
 * <p>Threads: one virtual reader thread per stream parses lines and hands them over through
 * a queue; everything else is called by the one test thread that owns the stream.
 */
final class WatchStream implements AutoCloseable {

  /** How the stream ended. */
  record End(boolean clean, Throwable error) {
  }

  private record FramingError(String message) {
  }

  private final String path;
  private final HttpResponse<InputStream> response;
  private final BlockingQueue<Object> items = new LinkedBlockingQueue<>();
  private final Thread reader;
  private volatile boolean closing;
  private End end;

  WatchStream(String path, HttpResponse<InputStream> response, boolean parse) {
    this.path = path;
    this.response = response;
    this.reader = parse && response.statusCode() == 200
        ? Thread.ofVirtual().name("watch-reader " + path).start(this::readLines) : null;
  }

  /** The body as it arrives, for a stream opened without parsing. */
  InputStream rawBody() {
    if (reader != null) {
      throw new IllegalStateException("this stream is read by its own reader thread");
    }
    return response.body();
  }

  int code() {
    return response.statusCode();
  }

  HttpHeaders headers() {
    return response.headers();
  }

  /** The whole body, for a failed watch answered with a plain Status. */
  String readAll() {
    try (InputStream in = response.body()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void readLines() {
    byte[] buf = new byte[64 * 1024];
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    try (InputStream in = response.body()) {
      int n;
      while ((n = in.read(buf)) >= 0) {
        for (int i = 0; i < n; i++) {
          if (buf[i] == '\n') {
            items.add(parse(line.toByteArray()));
            line.reset();
          } else {
            line.write(buf[i]);
          }
        }
      }
      if (line.size() > 0) {
        items.add(new FramingError("the stream ended inside an event, without its final newline: "
            + KubeHttp.abbreviate(line.toString(StandardCharsets.UTF_8))));
      }
      items.add(new End(true, null));
    } catch (IOException | RuntimeException e) {
      items.add(new End(false, e));
    }
  }

  private static Object parse(byte[] line) {
    String text = new String(line, StandardCharsets.UTF_8);
    try {
      JsonNode event = KubeHttp.JSON.readTree(line);
      if (event == null || !event.isObject() || !event.path("type").isTextual()
          || !event.path("object").isObject()) {
        return new FramingError("not a watch event line: " + KubeHttp.abbreviate(text));
      }
      return event;
    } catch (IOException e) {
      return new FramingError("a watch line is not one JSON object: " + KubeHttp.abbreviate(text) + " (" + e + ")");
    }
  }

  /** The next event, waiting at most {@link KubeHttp#WAIT}; fails if the stream ends first. */
  JsonNode next() {
    return next(KubeHttp.WAIT);
  }

  JsonNode next(Duration bound) {
    Object item = take(bound);
    if (item == null) {
      fail("no watch event within " + bound + " on " + path);
    }
    if (item instanceof End e) {
      end = e;
      fail("the watch " + path + " ended (" + (e.clean() ? "cleanly" : "with " + e.error()) + ") while an event "
          + "was expected");
    }
    return (JsonNode) item;
  }

  /** The next {@code n} events. */
  List<JsonNode> next(int n) {
    List<JsonNode> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(next());
    }
    return out;
  }

  /**
   * Waits (bounded) for the end of the stream and returns how it ended; the events that
   * arrive before the end are returned in {@code before}.
   */
  End awaitEnd(Duration bound, List<JsonNode> before) {
    long deadline = System.nanoTime() + bound.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      Object item = left <= 0 ? items.poll() : take(Duration.ofNanos(left));
      if (item == null) {
        fail("the watch " + path + " did not end within " + bound);
      }
      if (item instanceof End e) {
        end = e;
        return e;
      }
      before.add((JsonNode) item);
    }
  }

  private Object take(Duration bound) {
    if (end != null) {
      return end;
    }
    try {
      Object item = items.poll(bound.toMillis(), TimeUnit.MILLISECONDS);
      if (item instanceof FramingError f) {
        fail("bad watch framing on " + path + ": " + f.message());
      }
      return item;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Closes the connection (the client goes away). Idempotent. */
  @Override
  public void close() {
    if (closing) {
      return;
    }
    closing = true;
    try {
      response.body().close();
    } catch (IOException e) {
      // going away anyway
    }
    if (reader != null) {
      reader.interrupt();
    }
  }
}
