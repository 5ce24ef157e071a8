package io.listwatch.server.authz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ReviewProtobufTest {

  /** A length-delimited field. */
  private static byte[] field(int number, byte[] value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(number << 3 | 2);
    writeVarint(out, value.length);
    out.writeBytes(value);
    return out.toByteArray();
  }

  private static byte[] field(int number, String value) {
    return field(number, value.getBytes(StandardCharsets.UTF_8));
  }

  private static void writeVarint(ByteArrayOutputStream out, int value) {
    while (value >= 0x80) {
      out.write(value & 0x7f | 0x80);
      value >>>= 7;
    }
    out.write(value);
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  private static byte[] envelope(String kind, byte[] object) {
    byte[] typeMeta = concat(field(1, "authorization.k8s.io/v1"), field(2, kind));
    return concat(new byte[] {'k', '8', 's', 0}, field(1, typeMeta), field(2, object),
        field(4, "application/vnd.kubernetes.protobuf"));
  }

  @Test
  void decode_selfSubjectAccessReview_asKubectlAuthCanISendsIt() {
    byte[] attributes = concat(field(1, "ns1"), field(2, "list"), field(3, ""), field(5, "pods"));
    byte[] spec = field(1, attributes);
    byte[] review = concat(field(1, new byte[0]), field(2, spec), field(3, new byte[] {8, 0}));

    ObjectNode json = ReviewProtobuf.decode(envelope("SelfSubjectAccessReview", review));

    assertThat(json.path("kind").asText()).isEqualTo("SelfSubjectAccessReview");
    assertThat(json.path("apiVersion").asText()).isEqualTo("authorization.k8s.io/v1");
    assertThat(json.path("spec").toString()).isEqualTo(
        "{\"resourceAttributes\":{\"namespace\":\"ns1\",\"verb\":\"list\",\"group\":\"\",\"resource\":\"pods\"}}");
  }

  @Test
  void decode_nonResourceAttributes_andSubjectAccessReviewUserAndGroups() {
    byte[] spec = concat(field(2, concat(field(1, "/metrics"), field(2, "get"))), field(3, "bob"),
        field(4, "g1"), field(4, "g2"));

    ObjectNode json = ReviewProtobuf.decode(envelope("SubjectAccessReview", field(2, spec)));

    assertThat(json.path("spec").toString()).isEqualTo("{\"nonResourceAttributes\":{\"path\":\"/metrics\","
        + "\"verb\":\"get\"},\"user\":\"bob\",\"groups\":[\"g1\",\"g2\"]}");
  }

  @Test
  void decode_selfSubjectRulesReview_namespace() {
    ObjectNode json = ReviewProtobuf.decode(envelope("SelfSubjectRulesReview", field(2, field(1, "team-a"))));

    assertThat(json.at("/spec/namespace").asText()).isEqualTo("team-a");
  }

  @Test
  void decode_truncatedBody_isBadRequest() {
    byte[] body = envelope("SelfSubjectAccessReview", field(2, field(1, field(2, "list"))));
    byte[] truncated = java.util.Arrays.copyOf(body, body.length - 3);

    assertThat(catchThrowableOfType(StatusException.class, () -> ReviewProtobuf.decode(truncated)).code())
        .isEqualTo(400);
    assertThat(catchThrowableOfType(StatusException.class, () -> ReviewProtobuf.decode("{}".getBytes())).code())
        .isEqualTo(400);
  }
}
