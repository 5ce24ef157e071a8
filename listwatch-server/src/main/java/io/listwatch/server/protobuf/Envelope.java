package io.listwatch.server.protobuf;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.kubernetes.client.proto.Runtime;
import io.listwatch.api.StatusException;
import java.util.Arrays;

/**
 * kube's protobuf envelope around one object: the four bytes {@code k8s\0}, then a
 * {@code runtime.Unknown} message whose {@code typeMeta} names the object's apiVersion and kind
 * and whose {@code raw} holds the object's own message ({@code contentEncoding} and
 * {@code contentType} are empty, and written, as kube writes them).
 *
 * @param apiVersion the object's apiVersion ("v1", "apps/v1")
 * @param kind the object's kind
 * @param raw the object's message bytes; empty when the envelope carries none
 */
public record Envelope(String apiVersion, String kind, byte[] raw) {

  private static final byte[] MAGIC = {'k', '8', 's', 0};

  /** Whether {@code bytes} start with the envelope's magic. */
  public static boolean isEnvelope(byte[] bytes) {
    return bytes.length >= MAGIC.length && Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length);
  }

  /** Unwraps an envelope; a body that is not one is a 400 (kube's message for bad bodies). */
  public static Envelope unwrap(byte[] body) {
    if (!isEnvelope(body)) {
      throw StatusException.badRequest("the body of the request is not a kubernetes protobuf object "
          + "(it does not start with the k8s\\0 prefix)");
    }
    Runtime.Unknown unknown;
    try {
      unknown = Runtime.Unknown.parseFrom(ByteString.copyFrom(body, MAGIC.length, body.length - MAGIC.length));
    } catch (InvalidProtocolBufferException e) {
      throw StatusException.badRequest("the protobuf body of the request is malformed: " + e.getMessage());
    }
    return new Envelope(unknown.getTypeMeta().getApiVersion(), unknown.getTypeMeta().getKind(),
        unknown.getRaw().toByteArray());
  }

  /** The envelope's bytes: the magic, then the Unknown message. */
  public byte[] toBytes() {
    Runtime.Unknown unknown = Runtime.Unknown.newBuilder()
        .setTypeMeta(Runtime.TypeMeta.newBuilder().setApiVersion(apiVersion).setKind(kind))
        .setRaw(ByteString.copyFrom(raw))
        .setContentEncoding("")
        .setContentType("")
        .build();
    byte[] out = new byte[MAGIC.length + unknown.getSerializedSize()];
    System.arraycopy(MAGIC, 0, out, 0, MAGIC.length);
    try {
      unknown.writeTo(com.google.protobuf.CodedOutputStream.newInstance(out, MAGIC.length, out.length - MAGIC.length));
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e); // writing into an array of the exact size
    }
    return out;
  }
}
