package io.listwatch.server.rest;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import io.listwatch.api.StatusException;
import java.io.IOException;
import java.util.Arrays;

/**
 * Reading request bodies sent as {@code application/vnd.kubernetes.protobuf}, as kubectl's
 * typed commands send them ({@code kubectl create rolebinding}, {@code kubectl auth can-i},
 * {@code kubectl create token}, {@code kubectl auth whoami}): kube's envelope (the bytes
 * {@code k8s\0}, then a {@code runtime.Unknown} message: 1: typeMeta {1: apiVersion, 2: kind},
 * 2: the object's bytes) and a {@link Reader} of protobuf fields over protobuf-java's
 * {@link CodedInputStream}. The one low-level protobuf reader of the server: the RBAC objects,
 * the access reviews and the authentication API's requests are read with it into their JSON
 * form (see {@link ApiRoutes#protobufDecoder}); answers stay JSON, which client-go decodes by
 * the response's Content-Type. Stateless.
 *
 * <p>This is a bridge for the kinds kubectl sends as protobuf today, each read field by field by
 * its own decoder; it goes once the server serves protobuf for every kind from generated
 * classes (step 5).
 */
public final class KubeProtobuf {

  public static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";
  private static final byte[] MAGIC = {'k', '8', 's', 0};

  private KubeProtobuf() {
  }

  /** An unwrapped envelope; {@code raw} is empty when the envelope carries no object bytes. */
  public record Envelope(String apiVersion, String kind, byte[] raw) {
  }

  /** Unwraps kube's envelope; a body that is not one is a 400. */
  public static Envelope unwrap(byte[] body) {
    if (body.length < MAGIC.length || !Arrays.equals(body, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
      throw StatusException.badRequest("the body of the request is not a kubernetes protobuf object");
    }
    Reader unknown = new Reader(CodedInputStream.newInstance(body, MAGIC.length, body.length - MAGIC.length));
    String apiVersion = "";
    String kind = "";
    byte[] raw = new byte[0];
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
    return new Envelope(apiVersion, kind, raw);
  }

  /**
   * Reads the fields of one protobuf message: call {@link #tag()} while {@link #more()}, then
   * read the value ({@link #string()}, {@link #message()}, {@link #varint()}, {@link #bytes()})
   * or {@link #skip()} it. Malformed input (a bad tag, a length beyond the message, a string that
   * is not UTF-8) is a 400. Confined to one thread.
   */
  public static final class Reader {
    private final CodedInputStream in;
    private int tag;

    public Reader(byte[] message) {
      this(CodedInputStream.newInstance(message));
    }

    private Reader(CodedInputStream in) {
      this.in = in;
    }

    public boolean more() {
      try {
        return !in.isAtEnd();
      } catch (IOException e) {
        throw malformed(e);
      }
    }

    /** Reads a field's key and returns the field number. */
    public int tag() {
      try {
        tag = in.readTag();
      } catch (IOException e) {
        throw malformed(e);
      }
      if (tag == 0) {
        throw malformed(null);
      }
      return WireFormat.getTagFieldNumber(tag);
    }

    /** Whether the current field is length-delimited (a string, bytes or a message). */
    public boolean isBytes() {
      return WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED;
    }

    /** Whether the current field is a varint (an integer, a bool or an enum). */
    public boolean isVarint() {
      return WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_VARINT;
    }

    public long varint() {
      try {
        return in.readRawVarint64();
      } catch (IOException e) {
        throw malformed(e);
      }
    }

    /** The current field as a nested message. */
    public Reader message() {
      return new Reader(bytes());
    }

    public byte[] bytes() {
      try {
        return in.readByteArray();
      } catch (IOException e) {
        throw malformed(e);
      }
    }

    public String string() {
      try {
        return in.readStringRequireUtf8();
      } catch (IOException e) {
        throw malformed(e);
      }
    }

    /** Skips the current field's value. */
    public void skip() {
      try {
        if (!in.skipField(tag)) {
          throw malformed(null); // an end-group tag outside a group
        }
      } catch (IOException e) {
        throw malformed(e);
      }
    }

    private static StatusException malformed(IOException cause) {
      return StatusException.badRequest("the protobuf body of the request is malformed"
          + (cause == null ? "" : ": " + cause.getMessage()));
    }
  }
}
