package io.listwatch.server.authn;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.rest.KubeProtobuf;
import io.listwatch.server.rest.KubeProtobuf.Reader;

/**
 * Reads the protobuf bodies kubectl and client-go send for the authentication API
 * ({@code Content-Type: application/vnd.kubernetes.protobuf}): kube's envelope, unwrapped by
 * {@link KubeProtobuf}, around a message of {@code k8s.io/api/authentication/v1}. Only the
 * fields this server acts on are read, into the same JSON shape a JSON body has; the rest are
 * skipped. Stateless and thread-safe.
 *
 * <p>Field numbers (generated.proto): TokenRequest {spec = 2}, TokenRequestSpec {audiences = 1,
 * boundObjectRef = 3, expirationSeconds = 4}, BoundObjectReference {kind = 1, apiVersion = 2,
 * name = 3, uid = 4}; TokenReview {spec = 2}, TokenReviewSpec {token = 1, audiences = 2};
 * SelfSubjectReview carries nothing the server reads.
 */
final class ProtobufBodies {

  static final String MEDIA_TYPE = KubeProtobuf.MEDIA_TYPE;
  private static final String[] BOUND_OBJECT_REF = {null, "kind", "apiVersion", "name", "uid"};

  private ProtobufBodies() {
  }

  /** The body as JSON: {@code kind}, {@code apiVersion} and, for requests with one, {@code spec}. */
  static ObjectNode read(byte[] body, String kind) {
    KubeProtobuf.Envelope envelope = KubeProtobuf.unwrap(body);
    ObjectNode o = ReviewBodies.JSON.createObjectNode();
    o.put("kind", envelope.kind());
    o.put("apiVersion", envelope.apiVersion());
    if (envelope.kind().equals(kind) && (kind.equals("TokenRequest") || kind.equals("TokenReview"))) {
      Reader object = new Reader(envelope.raw());
      while (object.more()) {
        if (object.tag() == 2 && object.isBytes()) {
          ObjectNode spec = o.putObject("spec");
          if (kind.equals("TokenRequest")) {
            tokenRequestSpec(object.message(), spec);
          } else {
            tokenReviewSpec(object.message(), spec);
          }
        } else {
          object.skip();
        }
      }
    }
    return o;
  }

  private static void tokenRequestSpec(Reader in, ObjectNode into) {
    ArrayNode audiences = into.putArray("audiences");
    while (in.more()) {
      int f = in.tag();
      if (f == 1 && in.isBytes()) {
        audiences.add(in.string());
      } else if (f == 4 && in.isVarint()) {
        into.put("expirationSeconds", in.varint());
      } else if (f == 3 && in.isBytes()) {
        ObjectNode ref = into.putObject("boundObjectRef");
        Reader r = in.message();
        while (r.more()) {
          int g = r.tag();
          if (g >= 1 && g < BOUND_OBJECT_REF.length && r.isBytes()) {
            ref.put(BOUND_OBJECT_REF[g], r.string());
          } else {
            r.skip();
          }
        }
      } else {
        in.skip();
      }
    }
  }

  private static void tokenReviewSpec(Reader in, ObjectNode into) {
    ArrayNode audiences = into.putArray("audiences");
    while (in.more()) {
      int f = in.tag();
      if (f == 1 && in.isBytes()) {
        into.put("token", in.string());
      } else if (f == 2 && in.isBytes()) {
        audiences.add(in.string());
      } else {
        in.skip();
      }
    }
  }
}
