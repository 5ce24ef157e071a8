package io.listwatch.server.rest;

import io.listwatch.api.StatusException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reading request bodies sent as {@code application/vnd.kubernetes.protobuf}, as kubectl's
 * typed commands send them ({@code kubectl create rolebinding}, {@code kubectl auth can-i}):
 * kube's envelope (the bytes {@code k8s\0}, then a {@code runtime.Unknown} message: 1: typeMeta
 * {1: apiVersion, 2: kind}, 2: the object's bytes) and a reader of protobuf fields. The types
 * that accept such bodies turn them into their JSON form (see {@link ApiRoutes#protobufDecoder});
 * answers stay JSON, which client-go decodes by the response's Content-Type. Stateless.
 */
public final class KubeProtobuf {

  public static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";
  private static final byte[] MAGIC = {'k', '8', 's', 0};

  private KubeProtobuf() {
  }

  /** An unwrapped envelope. */
  public record Envelope(String apiVersion, String kind, byte[] raw) {
  }

  /** Unwraps kube's envelope; a body that is not one is a 400. */
  public static Envelope unwrap(byte[] body) {
    if (body.length < MAGIC.length || !Arrays.equals(Arrays.copyOf(body, MAGIC.length), MAGIC)) {
      throw StatusException.badRequest("the body of the request is not a kubernetes protobuf object");
    }
    Reader unknown = new Reader(body, MAGIC.length, body.length);
    String apiVersion = "";
    String kind = "";
    byte[] raw = null;
    while (unknown.more()) {
      int field = unknown.tag();
      if (field == 1 && unknown.isBytes()) {
        Reader typeMeta = unknown.message();
        while (typeMeta.more()) {
          int f = typeMeta.tag();
          if (f == 1 && typeMeta.isBytes()) {
            apiVersion = typeMeta.string();
          } else if (f == 2 && typeMeta.isBytes()) {
            kind = typeMeta.string();
          } else {
            typeMeta.skip();
          }
        }
      } else if (field == 2 && unknown.isBytes()) {
        raw = unknown.bytes();
      } else {
        unknown.skip();
      }
    }
    if (raw == null) {
      throw StatusException.badRequest("the protobuf body carries no object");
    }
    return new Envelope(apiVersion, kind, raw);
  }

  /**
   * Reads the fields of one protobuf message: call {@link #tag()} while {@link #more()}, then
   * read the value ({@link #string()}, {@link #message()}, {@link #varint()}) or {@link #skip()}
   * it. Malformed input is a 400. Confined to one thread.
   */
  public static final class Reader {
    private final byte[] buf;
    private int pos;
    private final int end;
    private int wireType;

    public Reader(byte[] buf) {
      this(buf, 0, buf.length);
    }

    private Reader(byte[] buf, int pos, int end) {
      this.buf = buf;
      this.pos = pos;
      this.end = end;
    }

    public boolean more() {
      return pos < end;
    }

    /** Reads a field's key and returns the field number. */
    public int tag() {
      long key = varint();
      wireType = (int) (key & 7);
      return (int) (key >>> 3);
    }

    /** Whether the current field is length-delimited (a string, bytes or a message). */
    public boolean isBytes() {
      return wireType == 2;
    }

    public long varint() {
      long value = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        byte b = next();
        value |= (long) (b & 0x7f) << shift;
        if (b >= 0) {
          return value;
        }
      }
      throw malformed();
    }

    public Reader message() {
      int length = length();
      Reader r = new Reader(buf, pos, pos + length);
      pos += length;
      return r;
    }

    public byte[] bytes() {
      int length = length();
      byte[] out = Arrays.copyOfRange(buf, pos, pos + length);
      pos += length;
      return out;
    }

    public String string() {
      return new String(bytes(), StandardCharsets.UTF_8);
    }

    /** Skips the current field's value. */
    public void skip() {
      switch (wireType) {
        case 0 -> varint();
        case 1 -> advance(8);
        case 2 -> advance(length());
        case 5 -> advance(4);
        default -> throw malformed();
      }
    }

    private int length() {
      long length = varint();
      if (length < 0 || length > end - pos) {
        throw malformed();
      }
      return (int) length;
    }

    private void advance(int n) {
      if (n > end - pos) {
        throw malformed();
      }
      pos += n;
    }

    private byte next() {
      if (pos >= end) {
        throw malformed();
      }
      return buf[pos++];
    }

    private static StatusException malformed() {
      return StatusException.badRequest("the protobuf body of the request is malformed");
    }
  }
}
