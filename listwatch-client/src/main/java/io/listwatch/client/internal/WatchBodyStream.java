package io.listwatch.client.internal;

import com.fasterxml.jackson.core.JsonParser;
import io.listwatch.client.ObjectCodec;
import io.listwatch.client.WatchEvent;
import io.listwatch.client.WatchStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;

/**
 * One watch: a streaming response body decoded event by event on the reading thread.
 *
 * <p>One thread reads ({@link #next()}); {@link #close()} may come from any thread: it
 * closes the response body, which ends the watch at the server (over HTTP it cancels the
 * HTTP/2 stream or closes the HTTP/1.1 connection) and wakes a reader blocked for data,
 * whose {@code next()} then returns empty.
 */
final class WatchBodyStream<T> implements WatchStream<T> {

  private final RestTransport client;
  private final InputStream body;
  private final ObjectCodec<T> codec;
  /**
   * Created by the reader on its first {@link #next()}: Jackson reads the first bytes to
   * detect the encoding when it creates a parser, which must not block {@code watch()}.
   */
  private JsonParser parser;
  private WatchEventDecoder<T> decoder;
  private final String description;
  private volatile boolean closed;
  /** Whether the stream ended (EOF or failure); confined to the reader. */
  private boolean ended;

  WatchBodyStream(RestTransport client, InputStream body, ObjectCodec<T> codec, String description) {
    this.client = client;
    this.body = body;
    this.codec = codec;
    this.description = description;
  }

  @Override
  public Optional<WatchEvent<T>> next() throws IOException {
    if (ended || closed) {
      finish();
      return Optional.empty();
    }
    try {
      if (decoder == null) {
        parser = Json.FACTORY.createParser(RestResourceClient.recordIfNeeded(body, codec));
        decoder = new WatchEventDecoder<>(parser, codec);
      }
      Optional<WatchEvent<T>> event = decoder.next();
      if (event.isEmpty()) {
        finish();
      }
      return event;
    } catch (IOException | RuntimeException e) {
      finish();
      if (closed) {
        return Optional.empty(); // closed under us: not a failure
      }
      throw e;
    }
  }

  /** Ends reading: releases the parser and the body. Called by the reader only. */
  private void finish() {
    if (!ended) {
      ended = true;
      try {
        if (parser != null) {
          parser.close();
        }
      } catch (IOException e) {
        // closing: nothing to report
      }
      close();
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      body.close();
    } catch (IOException e) {
      // closing: nothing to report
    }
    client.watches().remove(this);
  }

  @Override
  public String toString() {
    return "Watch[" + description + "]";
  }
}
