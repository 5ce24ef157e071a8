package io.listwatch.apiserver.cacher;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The bytes of watch events on the wire: one JSON object per line,
 * {@code {"type":"ADDED","object":{...}}\n}. Stateless.
 */
public final class Frames {

  private static final byte[] SUFFIX = "}\n".getBytes(StandardCharsets.US_ASCII);

  private Frames() {
  }

  /** The bytes before the object for an event of {@code type}. Shared; do not mutate. */
  public static byte[] prefix(WatchCacheEvent.Type type) {
    return type.prefix;
  }

  /** The bytes after the object. Shared; do not mutate. */
  public static byte[] suffix() {
    return SUFFIX;
  }

  /** The whole event line for {@code object}. */
  public static byte[] event(WatchCacheEvent.Type type, byte[] object) {
    byte[] p = type.prefix;
    byte[] out = new byte[p.length + object.length + SUFFIX.length];
    System.arraycopy(p, 0, out, 0, p.length);
    System.arraycopy(object, 0, out, p.length, object.length);
    System.arraycopy(SUFFIX, 0, out, p.length + object.length, SUFFIX.length);
    return out;
  }

  /**
   * A BOOKMARK: an object of the watched kind carrying only {@code metadata.resourceVersion}
   * (and kube's {@code creationTimestamp: null}); with {@code initialEventsEnd} it also
   * carries the {@code k8s.io/initial-events-end} annotation that ends a watch-list's
   * initial events.
   */
  public static byte[] bookmark(String apiVersion, String kind, long resourceVersion,
      boolean initialEventsEnd) {
    String annotations = initialEventsEnd
        ? ",\"annotations\":{\"k8s.io/initial-events-end\":\"true\"}" : "";
    String line = "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"" + kind + "\",\"apiVersion\":\""
        + apiVersion + "\",\"metadata\":{\"resourceVersion\":\"" + resourceVersion
        + "\",\"creationTimestamp\":null" + annotations + "}}}\n";
    return line.getBytes(StandardCharsets.UTF_8);
  }

  /** An ERROR event carrying a serialized Status. */
  public static byte[] error(byte[] status) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(status.length + 32);
    out.writeBytes("{\"type\":\"ERROR\",\"object\":".getBytes(StandardCharsets.US_ASCII));
    out.writeBytes(status);
    out.writeBytes(SUFFIX);
    return out.toByteArray();
  }
}
