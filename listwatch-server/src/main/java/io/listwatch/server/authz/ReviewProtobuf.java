package io.listwatch.server.authz;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads an access review sent as {@code application/vnd.kubernetes.protobuf}, as kubectl's
 * typed clients send them ({@code kubectl auth can-i} posts its SelfSubjectAccessReview that
 * way), into the JSON form the review handlers work on. Answers stay JSON: client-go decodes by
 * the response's Content-Type.
 *
 * <p>The wire form is kube's envelope: the bytes {@code k8s\0}, then a {@code runtime.Unknown}
 * message (1: typeMeta {1: apiVersion, 2: kind}, 2: raw object bytes). The objects are the
 * authorization.k8s.io/v1 messages: a review is (1: metadata, 2: spec, 3: status); a spec is
 * (1: resourceAttributes, 2: nonResourceAttributes, 3: user, 4: groups, 5: extra, 6: uid) or,
 * for a rules review, (1: namespace); resourceAttributes are (1: namespace, 2: verb, 3: group,
 * 4: version, 5: resource, 6: subresource, 7: name); nonResourceAttributes (1: path, 2: verb).
 * Only the protobuf wire types these use are read: varints, length-delimited fields, and
 * fixed-width fields skipped. Stateless.
 */
final class ReviewProtobuf {

  static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";
  private static final byte[] MAGIC = {'k', '8', 's', 0};
  private static final String[] RESOURCE_ATTRIBUTES = {null, "namespace", "verb", "group", "version", "resource",
      "subresource", "name"};

  private ReviewProtobuf() {
  }

  /** The review as JSON: {@code {"apiVersion","kind","spec":{...}}}; metadata and status are dropped. */
  static ObjectNode decode(byte[] body) {
    if (body.length < MAGIC.length || !Arrays.equals(Arrays.copyOf(body, MAGIC.length), MAGIC)) {
      throw StatusException.badRequest("the body of the request is not a kubernetes protobuf object");
    }
    ObjectNode review = JsonNodeFactory.instance.objectNode();
    Reader unknown = new Reader(body, MAGIC.length, body.length);
    byte[] raw = null;
    while (unknown.more()) {
      int field = unknown.tag();
      if (field == 1 && unknown.wireType == 2) {
        Reader typeMeta = unknown.message();
        while (typeMeta.more()) {
          int f = typeMeta.tag();
          if ((f == 1 || f == 2) && typeMeta.wireType == 2) {
            review.put(f == 1 ? "apiVersion" : "kind", typeMeta.string());
          } else {
            typeMeta.skip();
          }
        }
      } else if (field == 2 && unknown.wireType == 2) {
        raw = unknown.bytes();
      } else {
        unknown.skip();
      }
    }
    if (raw == null) {
      throw StatusException.badRequest("the protobuf body carries no object");
    }
    Reader object = new Reader(raw, 0, raw.length);
    while (object.more()) {
      if (object.tag() == 2 && object.wireType == 2) {
        review.set("spec", spec(object.message(), review.path("kind").asText("")));
      } else {
        object.skip();
      }
    }
    return review;
  }

  private static ObjectNode spec(Reader in, String kind) {
    ObjectNode spec = JsonNodeFactory.instance.objectNode();
    boolean rules = kind.equals("SelfSubjectRulesReview");
    while (in.more()) {
      int f = in.tag();
      if (in.wireType != 2) {
        in.skip();
      } else if (rules) {
        if (f == 1) {
          spec.put("namespace", in.string());
        } else {
          in.skip();
        }
      } else {
        switch (f) {
          case 1 -> spec.set("resourceAttributes", strings(in.message(), RESOURCE_ATTRIBUTES));
          case 2 -> spec.set("nonResourceAttributes", strings(in.message(), new String[] {null, "path", "verb"}));
          case 3 -> spec.put("user", in.string());
          case 4 -> spec.withArray("groups").add(in.string());
          case 6 -> spec.put("uid", in.string());
          default -> in.skip();
        }
      }
    }
    return spec;
  }

  /** A message of string fields, named by field number. */
  private static ObjectNode strings(Reader in, String[] names) {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    while (in.more()) {
      int f = in.tag();
      if (f < names.length && names[f] != null && in.wireType == 2) {
        o.put(names[f], in.string());
      } else {
        in.skip();
      }
    }
    return o;
  }

  /** Reads protobuf fields from a slice of bytes. Confined to one call. */
  private static final class Reader {
    private final byte[] buf;
    private int pos;
    private final int end;
    int wireType;

    Reader(byte[] buf, int pos, int end) {
      this.buf = buf;
      this.pos = pos;
      this.end = end;
    }

    boolean more() {
      return pos < end;
    }

    /** Reads a field's key; returns its number and sets {@link #wireType}. */
    int tag() {
      long key = varint();
      wireType = (int) (key & 7);
      return (int) (key >>> 3);
    }

    long varint() {
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

    Reader message() {
      int length = length();
      Reader r = new Reader(buf, pos, pos + length);
      pos += length;
      return r;
    }

    byte[] bytes() {
      int length = length();
      byte[] out = Arrays.copyOfRange(buf, pos, pos + length);
      pos += length;
      return out;
    }

    String string() {
      return new String(bytes(), StandardCharsets.UTF_8);
    }

    void skip() {
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
