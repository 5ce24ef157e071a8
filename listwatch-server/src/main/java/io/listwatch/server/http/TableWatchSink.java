package io.listwatch.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.apiserver.cacher.WatchSink;
import io.listwatch.apiserver.printers.TableConvertor;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.util.concurrent.EventExecutor;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A watch whose client asked for Tables ({@code kubectl get -w}): each event's object becomes
 * a Table with that object's row, written to the underlying sink. This is the one per-watcher
 * conversion of the watch path (kube converts per watcher too): the cacher still builds one
 * JSON frame per event for everyone, and only the watchers behind this sink pay for parsing
 * and printing it. The first Table carries the column definitions, later ones leave them
 * empty (as kube does). ERROR events pass through unchanged (a Status is never a Table);
 * a BOOKMARK becomes a Table without rows that carries its resourceVersion.
 *
 * <p>Confined to the connection's event loop, like every {@link WatchSink} method.
 */
final class TableWatchSink implements WatchSink {

  private static final byte[] NEWLINE = {'\n'};

  private final WatchSink delegate;
  private final TableConvertor convertor;
  private final TableOptions options;
  private boolean columnsSent; // event loop only

  TableWatchSink(WatchSink delegate, TableConvertor convertor, TableOptions options) {
    this.delegate = delegate;
    this.convertor = convertor;
    this.options = options;
  }

  @Override
  public java.util.concurrent.Executor executor() {
    return delegate.executor();
  }

  @Override
  public void nextTurn(Runnable turn) {
    delegate.nextTurn(turn);
  }

  @Override
  public boolean isWritable() {
    return delegate.isWritable();
  }

  /** Converts each event line of {@code parts}; each output part is one whole event line. */
  @Override
  public void write(byte[][] parts) {
    byte[] bytes = ByteBufUtil.getBytes(Unpooled.wrappedBuffer(parts.length, parts));
    List<byte[]> lines = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == '\n') {
        lines.add(convert(bytes, start, i));
        start = i + 1;
      }
    }
    if (!lines.isEmpty()) {
      delegate.write(lines.toArray(new byte[0][]));
    }
  }

  private byte[] convert(byte[] bytes, int from, int to) {
    JsonNode event;
    try {
      event = Responses.MAPPER.readTree(bytes, from, to - from);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    String type = event.path("type").asText();
    JsonNode object = event.path("object");
    if (type.equals("ERROR")) {
      return java.util.Arrays.copyOfRange(bytes, from, to + 1);
    }
    String rv = object.path("metadata").path("resourceVersion").asText("");
    byte[] table = Tables.table(convertor, options, rv, null, null,
        type.equals("BOOKMARK") ? List.of() : List.of(object), !columnsSent, Instant.now());
    columnsSent = true;
    byte[] head = ("{\"type\":\"" + type + "\",\"object\":").getBytes(StandardCharsets.US_ASCII);
    byte[] line = new byte[head.length + table.length + 2];
    System.arraycopy(head, 0, line, 0, head.length);
    System.arraycopy(table, 0, line, head.length, table.length);
    line[line.length - 2] = '}';
    line[line.length - 1] = NEWLINE[0];
    return line;
  }

  @Override
  public void flush() {
    delegate.flush();
  }

  @Override
  public void end() {
    delegate.end();
  }

  @Override
  public void abort() {
    delegate.abort();
  }

  @Override
  public String toString() {
    return delegate.toString();
  }
}
