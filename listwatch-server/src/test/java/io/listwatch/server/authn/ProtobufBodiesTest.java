package io.listwatch.server.authn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import io.listwatch.api.StatusException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The authentication API's requests in kube's protobuf form, as kubectl and client-go send them. */
class ProtobufBodiesTest {

  /** One protobuf message, written by protobuf-java as Go's generated code writes it. */
  private interface Writer {
    void write(CodedOutputStream out) throws IOException;
  }

  private static byte[] message(Writer writer) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    try {
      writer.write(out);
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  private static byte[] envelope(String apiVersion, String kind, byte[] object) {
    byte[] unknown = message(out -> {
      out.writeBytes(1, ByteString.copyFrom(message(tm -> {
        tm.writeString(1, apiVersion);
        tm.writeString(2, kind);
      })));
      out.writeBytes(2, ByteString.copyFrom(object));
    });
    byte[] body = Arrays.copyOf(new byte[] {'k', '8', 's', 0}, 4 + unknown.length);
    System.arraycopy(unknown, 0, body, 4, unknown.length);
    return body;
  }

  private static byte[] withSpec(Consumer<CodedOutputStream> metadataFields, byte[] spec) {
    return message(out -> {
      out.writeBytes(1, ByteString.copyFrom(message(m -> metadataFields.accept(m))));
      out.writeBytes(2, ByteString.copyFrom(spec));
    });
  }

  @Test
  void tokenRequest_readsAudiencesExpirationAndBoundObject() {
    byte[] spec = message(out -> {
      out.writeString(1, "api");
      out.writeString(1, "vault");
      out.writeBytes(3, ByteString.copyFrom(message(ref -> {
        ref.writeString(1, "Pod");
        ref.writeString(2, "v1");
        ref.writeString(3, "web-0");
        ref.writeString(4, "uid-1");
      })));
      out.writeInt64(4, 3600);
    });

    ObjectNode json = ProtobufBodies.read(envelope("authentication.k8s.io/v1", "TokenRequest",
        withSpec(m -> { }, spec)), "TokenRequest");

    assertThat(json.toString()).isEqualTo("{\"kind\":\"TokenRequest\",\"apiVersion\":\"authentication.k8s.io/v1\","
        + "\"spec\":{\"audiences\":[\"api\",\"vault\"],\"boundObjectRef\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\","
        + "\"name\":\"web-0\",\"uid\":\"uid-1\"},\"expirationSeconds\":3600}}");
  }

  @Test
  void tokenReview_readsTokenAndAudiences_skippingUnknownFields() {
    byte[] spec = message(out -> {
      out.writeString(1, "the-token");
      out.writeInt32(9, 7); // a field this server does not know
      out.writeString(2, "api");
    });

    ObjectNode json = ProtobufBodies.read(envelope("authentication.k8s.io/v1", "TokenReview",
        withSpec(m -> { }, spec)), "TokenReview");

    assertThat(json.path("spec").toString()).isEqualTo("{\"audiences\":[\"api\"],\"token\":\"the-token\"}");
  }

  @Test
  void selfSubjectReview_readsItsTypeOnly() {
    ObjectNode json = ProtobufBodies.read(envelope("authentication.k8s.io/v1", "SelfSubjectReview",
        message(out -> out.writeBytes(1, ByteString.EMPTY))), "SelfSubjectReview");

    assertThat(json.toString()).isEqualTo("{\"kind\":\"SelfSubjectReview\",\"apiVersion\":\"authentication.k8s.io/v1\"}");
  }

  @Test
  void bodyWithoutKubesMagic_orTruncated_isA400() {
    byte[] noMagic = message(out -> out.writeString(1, "x"));
    assertThat(catchThrowableOfType(StatusException.class, () -> ProtobufBodies.read(noMagic, "TokenReview")).code())
        .isEqualTo(400);

    byte[] whole = envelope("authentication.k8s.io/v1", "TokenReview",
        withSpec(m -> { }, message(out -> out.writeString(1, "the-token"))));
    byte[] truncated = Arrays.copyOf(whole, whole.length - 3);
    StatusException e = catchThrowableOfType(StatusException.class,
        () -> ProtobufBodies.read(truncated, "TokenReview"));
    assertThat(e.code()).isEqualTo(400);
    assertThat(e.getMessage()).contains("malformed");
  }
}
