package io.listwatch.client;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * Any Kubernetes object, of any resource (custom resources included), without a Java model.
 *
 * <p>Immutable and thread-safe: it keeps the object's JSON bytes as received plus its parsed
 * metadata; {@link #toJson()} and {@link #toTree()} give copies.
 */
public final class DynamicObject {

  /** The codec of dynamic objects. */
  public static final ObjectCodec<DynamicObject> CODEC = null; // TODO(rest): implement

  private DynamicObject() {
    throw new UnsupportedOperationException("TODO(rest)");
  }

  /** Parses an object from JSON; throws {@link IllegalArgumentException} if it is not one. */
  public static DynamicObject parse(byte[] json) {
    throw new UnsupportedOperationException("TODO(rest)");
  }

  /** Wraps a tree (copied). */
  public static DynamicObject of(ObjectNode tree) {
    throw new UnsupportedOperationException("TODO(rest)");
  }

  public String apiVersion() { throw new UnsupportedOperationException(); }
  public String kind() { throw new UnsupportedOperationException(); }
  public String namespace() { throw new UnsupportedOperationException(); }
  public String name() { throw new UnsupportedOperationException(); }
  public String resourceVersion() { throw new UnsupportedOperationException(); }
  public String uid() { throw new UnsupportedOperationException(); }
  public Map<String, String> labels() { throw new UnsupportedOperationException(); }
  public Map<String, String> annotations() { throw new UnsupportedOperationException(); }
  /** The JSON bytes (a copy). */
  public byte[] toJson() { throw new UnsupportedOperationException(); }
  /** A mutable tree (a copy). */
  public ObjectNode toTree() { throw new UnsupportedOperationException(); }
}
