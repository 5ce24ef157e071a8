package io.listwatch.server.authz;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.rest.KubeProtobuf;
import io.listwatch.server.rest.KubeProtobuf.Reader;

/**
 * Reads an access review sent as {@code application/vnd.kubernetes.protobuf}, as kubectl's
 * typed clients send them ({@code kubectl auth can-i} posts its SelfSubjectAccessReview that
 * way), into the JSON form the review handlers work on. Answers stay JSON: client-go decodes by
 * the response's Content-Type.
 *
 * <p>The wire form is kube's envelope ({@link KubeProtobuf}) around the
 * authorization.k8s.io/v1 messages: a review is (1: metadata, 2: spec, 3: status); a spec is
 * (1: resourceAttributes, 2: nonResourceAttributes, 3: user, 4: groups, 5: extra, 6: uid) or,
 * for a rules review, (1: namespace); resourceAttributes are (1: namespace, 2: verb, 3: group,
 * 4: version, 5: resource, 6: subresource, 7: name); nonResourceAttributes (1: path, 2: verb).
 * Stateless.
 */
final class ReviewProtobuf {

  static final String MEDIA_TYPE = KubeProtobuf.MEDIA_TYPE;
  private static final String[] RESOURCE_ATTRIBUTES = {null, "namespace", "verb", "group", "version", "resource",
      "subresource", "name"};

  private ReviewProtobuf() {
  }

  /** The review as JSON: {@code {"apiVersion","kind","spec":{...}}}; metadata and status are dropped. */
  static ObjectNode decode(byte[] body) {
    KubeProtobuf.Envelope envelope = KubeProtobuf.unwrap(body);
    ObjectNode review = JsonNodeFactory.instance.objectNode();
    review.put("apiVersion", envelope.apiVersion());
    review.put("kind", envelope.kind());
    Reader object = new Reader(envelope.raw());
    while (object.more()) {
      if (object.tag() == 2 && object.isBytes()) {
        review.set("spec", spec(object.message(), envelope.kind()));
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
      if (!in.isBytes()) {
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
      if (f < names.length && names[f] != null && in.isBytes()) {
        o.put(names[f], in.string());
      } else {
        in.skip();
      }
    }
    return o;
  }
}
