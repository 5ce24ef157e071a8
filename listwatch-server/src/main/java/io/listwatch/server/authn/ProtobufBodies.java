package io.listwatch.server.authn;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import io.listwatch.api.StatusException;
import java.io.IOException;
import java.util.Arrays;

/**
 * Reads the protobuf bodies kubectl and client-go send for the authentication API
 * ({@code Content-Type: application/vnd.kubernetes.protobuf}): kube's envelope, the magic
 * {@code k8s\0} followed by a {@code runtime.Unknown} ({@code typeMeta} = 1 with
 * {@code apiVersion} = 1 and {@code kind} = 2, {@code raw} = 2), whose raw bytes are the
 * message of {@code k8s.io/api/authentication/v1}. Only the fields this server acts on are read,
 * into the same JSON shape a JSON body has; the rest are skipped. Stateless and thread-safe.
 *
 * <p>Field numbers (generated.proto): TokenRequest {spec = 2}, TokenRequestSpec {audiences = 1,
 * boundObjectRef = 3, expirationSeconds = 4}, BoundObjectReference {kind = 1, apiVersion = 2,
 * name = 3, uid = 4}; TokenReview {spec = 2}, TokenReviewSpec {token = 1, audiences = 2};
 * SelfSubjectReview carries nothing the server reads.
 */
final class ProtobufBodies {

  static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";
  private static final byte[] MAGIC = {'k', '8', 's', 0};

  private ProtobufBodies() {
  }

  /** A message field handler: returns false to have the field skipped. */
  @FunctionalInterface
  private interface Fields {
    boolean field(int number, int wireType, CodedInputStream in) throws IOException;
  }

  /** The body as JSON: {@code kind}, {@code apiVersion} and, for requests with one, {@code spec}. */
  static ObjectNode read(byte[] body, String kind) {
    if (body.length < MAGIC.length || !Arrays.equals(body, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
      throw StatusException.badRequest("the protobuf body does not start with kube's magic number");
    }
    try {
      String[] typeMeta = {"", ""};
      byte[][] raw = {new byte[0]};
      walk(Arrays.copyOfRange(body, MAGIC.length, body.length), (n, type, in) -> {
        if (type != WireFormat.WIRETYPE_LENGTH_DELIMITED) {
          return false;
        }
        if (n == 1) {
          walk(in.readByteArray(), (m, t, tm) -> {
            if (t == WireFormat.WIRETYPE_LENGTH_DELIMITED && (m == 1 || m == 2)) {
              typeMeta[m - 1] = tm.readStringRequireUtf8();
              return true;
            }
            return false;
          });
          return true;
        }
        if (n == 2) {
          raw[0] = in.readByteArray();
          return true;
        }
        return false;
      });
      ObjectNode o = ReviewBodies.JSON.createObjectNode();
      o.put("kind", typeMeta[1]);
      o.put("apiVersion", typeMeta[0]);
      if (typeMeta[1].equals(kind)) {
        switch (kind) {
          case "TokenRequest" -> walk(raw[0], spec(o, ProtobufBodies::tokenRequestSpec));
          case "TokenReview" -> walk(raw[0], spec(o, ProtobufBodies::tokenReviewSpec));
          default -> {
            // nothing read
          }
        }
      }
      return o;
    } catch (IOException e) {
      throw StatusException.badRequest("the body of the request is not valid protobuf: " + e.getMessage());
    }
  }

  private interface SpecReader {
    void read(byte[] spec, ObjectNode into) throws IOException;
  }

  /** Reads field 2 (spec) of a message into {@code o.spec}. */
  private static Fields spec(ObjectNode o, SpecReader reader) {
    return (n, type, in) -> {
      if (n == 2 && type == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
        reader.read(in.readByteArray(), o.putObject("spec"));
        return true;
      }
      return false;
    };
  }

  private static void tokenRequestSpec(byte[] spec, ObjectNode into) throws IOException {
    ArrayNode audiences = into.putArray("audiences");
    walk(spec, (n, type, in) -> {
      if (n == 1 && type == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
        audiences.add(in.readStringRequireUtf8());
      } else if (n == 4 && type == WireFormat.WIRETYPE_VARINT) {
        into.put("expirationSeconds", in.readInt64());
      } else if (n == 3 && type == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
        ObjectNode ref = into.putObject("boundObjectRef");
        String[] names = {null, "kind", "apiVersion", "name", "uid"};
        walk(in.readByteArray(), (m, t, r) -> {
          if (m >= 1 && m <= 4 && t == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
            ref.put(names[m], r.readStringRequireUtf8());
            return true;
          }
          return false;
        });
      } else {
        return false;
      }
      return true;
    });
  }

  private static void tokenReviewSpec(byte[] spec, ObjectNode into) throws IOException {
    ArrayNode audiences = into.putArray("audiences");
    walk(spec, (n, type, in) -> {
      if (type != WireFormat.WIRETYPE_LENGTH_DELIMITED || (n != 1 && n != 2)) {
        return false;
      }
      String value = in.readStringRequireUtf8();
      if (n == 1) {
        into.put("token", value);
      } else {
        audiences.add(value);
      }
      return true;
    });
  }

  private static void walk(byte[] message, Fields fields) throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(message);
    for (int tag; (tag = in.readTag()) != 0; ) {
      if (!fields.field(WireFormat.getTagFieldNumber(tag), WireFormat.getTagWireType(tag), in)) {
        in.skipField(tag);
      }
    }
  }
}
