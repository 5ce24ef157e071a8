package io.listwatch.apiserver.cacher;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.protobuf.KubeProtobuf;

/**
 * How a watch's events are written on the wire; each event's frame is built once per encoding
 * and shared by every watcher of that encoding (see {@link WatchCacheEvent#frame}).
 * <ul>
 *   <li>{@link #JSON}: one line per event, {@code {"type":..,"object":..}\n} ({@link Frames}).</li>
 *   <li>{@link #PROTOBUF}: per event, its length (4 bytes, big-endian) and a meta.v1 WatchEvent
 *       whose object is in kube's envelope ({@link KubeProtobuf}); built-in kinds only.</li>
 * </ul>
 * Stateless.
 */
public enum WatchEncoding {
  JSON,
  PROTOBUF;

  /**
   * The frame of an event carrying {@code object}, as its parts: JSON's (type prefix, the
   * object's cached bytes as they are, line end); protobuf's (length, WatchEvent), whose object
   * is the cached object's protobuf form ({@link CachedObject#protobuf}), converted at most once
   * per version of the object whatever the number of lists and watches that send it.
   */
  byte[][] event(WatchCacheEvent.Type type, CachedObject object) {
    return this == JSON ? event(type, object.json()) : protobufEvent(type, object::protobuf);
  }

  /** The frame of an event carrying {@code object} (its JSON bytes, not cached); see above. */
  byte[][] event(WatchCacheEvent.Type type, byte[] object) {
    if (this == JSON) {
      return new byte[][] {type.prefix, object, Frames.suffix()};
    }
    return protobufEvent(type, () -> KubeProtobuf.encode(object));
  }

  private static byte[][] protobufEvent(WatchCacheEvent.Type type, java.util.function.Supplier<byte[]> envelope) {
    byte[] event;
    try {
      event = KubeProtobuf.watchEvent(type.name(), envelope.get());
    } catch (RuntimeException e) { // not expected for a built-in kind; the watcher must not stall
      return new byte[][] {PROTOBUF.error(statusJson(io.listwatch.api.StatusException.internal(
          "cannot encode the object in protobuf: " + e.getMessage())))};
    }
    return new byte[][] {KubeProtobuf.lengthPrefix(event.length), event};
  }

  /** A BOOKMARK event; see {@link Frames#bookmark}. */
  public byte[] bookmark(String apiVersion, String kind, long resourceVersion, boolean initialEventsEnd) {
    if (this == JSON) {
      return Frames.bookmark(apiVersion, kind, resourceVersion, initialEventsEnd);
    }
    ObjectNode object = JsonNodeFactory.instance.objectNode().put("kind", kind).put("apiVersion", apiVersion);
    ObjectNode meta = object.putObject("metadata").put("resourceVersion", Long.toString(resourceVersion));
    if (initialEventsEnd) {
      meta.putObject("annotations").put("k8s.io/initial-events-end", "true");
    }
    return single("BOOKMARK", KubeProtobuf.encode(object));
  }

  /** An ERROR event carrying a Status (its JSON bytes). */
  public byte[] error(byte[] status) {
    if (this == JSON) {
      return Frames.error(status);
    }
    return single("ERROR", KubeProtobuf.encode(status));
  }

  private static byte[] statusJson(io.listwatch.api.StatusException e) {
    try {
      return new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsBytes(e.status());
    } catch (com.fasterxml.jackson.core.JsonProcessingException x) {
      throw new IllegalStateException(x);
    }
  }

  private static byte[] single(String type, byte[] envelope) {
    byte[] event = KubeProtobuf.watchEvent(type, envelope);
    byte[] out = new byte[4 + event.length];
    System.arraycopy(KubeProtobuf.lengthPrefix(event.length), 0, out, 0, 4);
    System.arraycopy(event, 0, out, 4, event.length);
    return out;
  }
}
