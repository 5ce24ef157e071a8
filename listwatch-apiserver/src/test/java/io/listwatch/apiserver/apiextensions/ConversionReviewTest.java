package io.listwatch.apiserver.apiextensions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ConversionReview a webhook is sent, and kube's checks of its answer (webhook_converter.go). */
class ConversionReviewTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String UID = "0a9c5e7b-1111-4222-8333-944455556666";

  private static ObjectNode json(String s) {
    try {
      return (ObjectNode) JSON.readTree(s);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static ObjectNode original() {
    return json("""
        {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"ns","uid":"u-1",
         "resourceVersion":"7","generation":2,"labels":{"a":"1"},"annotations":{"note":"x"}},"spec":{"hostPort":"h:1"}}""");
  }

  private static ObjectNode answer(String response) {
    return json("{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"ConversionReview\",\"response\":" + response + "}");
  }

  private static String refusal(ThrowingCheck check) {
    ConversionReview.InvalidResponse e = catchThrowableOfType(ConversionReview.InvalidResponse.class, check::run);
    assertThat(e).as("refused").isNotNull();
    return e.prefix == null ? e.getMessage() : e.prefix + ": " + e.getMessage();
  }

  private interface ThrowingCheck {
    void run() throws Exception;
  }

  @Test
  void theRequest_carriesTheUid_theDesiredVersion_andTheObjects() {
    ObjectNode request = ConversionReview.request("v1", UID, "example.com/v2", List.of(original()));
    assertThat(request).isEqualTo(json("""
        {"kind":"ConversionReview","apiVersion":"apiextensions.k8s.io/v1",
         "request":{"uid":"%s","desiredAPIVersion":"example.com/v2","objects":[%s]}}""".formatted(UID, original())));
    assertThat(ConversionReview.reviewVersion(json("{\"v\":[\"v2\",\"v1beta1\",\"v1\"]}").path("v"))).isEqualTo("v1beta1");
    assertThat(ConversionReview.reviewVersion(json("{\"v\":[\"v2\"]}").path("v"))).isNull();
  }

  @Test
  void aV1beta1Answer_isNotCheckedForItsKindOrUid_asKubeDoesNot() throws Exception {
    assertThat(ConversionReview.convertedObjects("v1beta1", UID, json(
        "{\"response\":{\"uid\":\"other\",\"result\":{\"status\":\"Success\"},\"convertedObjects\":[{}]}}")))
        .hasSize(1);
  }

  @Test
  void aSuccessfulAnswer_givesItsConvertedObjects() throws Exception {
    List<JsonNode> converted = ConversionReview.convertedObjects("v1", UID, answer(
        "{\"uid\":\"" + UID + "\",\"result\":{\"status\":\"Success\"},\"convertedObjects\":[{\"a\":1},{\"b\":2}]}"));
    assertThat(converted).containsExactly(json("{\"a\":1}"), json("{\"b\":2}"));
  }

  @Test
  void aMalformedOrFailedAnswer_isRefusedWithKubesMessage() {
    assertThat(refusal(() -> ConversionReview.convertedObjects("v1", UID, json(
        "{\"apiVersion\":\"apiextensions.k8s.io/v1beta1\",\"kind\":\"ConversionReview\",\"response\":{}}"))))
        .isEqualTo("failed: expected webhook response of apiextensions.k8s.io/v1, "
            + "Kind=ConversionReview, got apiextensions.k8s.io/v1beta1, Kind=ConversionReview");
    assertThat(refusal(() -> ConversionReview.convertedObjects("v1", UID, json(
        "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"ConversionReview\"}"))))
        .isEqualTo("failed: no response provided");
    assertThat(refusal(() -> ConversionReview.convertedObjects("v1", UID, answer("{\"uid\":\"other\"}"))))
        .isEqualTo("failed: expected response.uid=\"" + UID + "\", got \"other\"");
    assertThat(refusal(() -> ConversionReview.convertedObjects("v1", UID, answer(
        "{\"uid\":\"" + UID + "\",\"result\":{\"status\":\"Failure\",\"message\":\"cannot convert hostPort\"}}"))))
        .isEqualTo("failed: cannot convert hostPort");
    assertThat(refusal(() -> ConversionReview.convertedObjects("v1", UID, answer(
        "{\"uid\":\"" + UID + "\",\"result\":{\"status\":\"Failure\"}}"))))
        .isEqualTo("failed: response.result.status was 'Failure', not 'Success'");
  }

  @Test
  void aConvertedObject_keepsTheOriginalMetadata_butForItsLabelsAndAnnotations() throws Exception {
    ObjectNode converted = json("""
        {"apiVersion":"example.com/v2","kind":"Widget","metadata":{"name":"w","namespace":"ns","uid":"u-1",
         "resourceVersion":"99","generation":5,"finalizers":["x"],"labels":{"a":"2","b":"3"}},
         "spec":{"host":"h","port":"1"}}""");
    ObjectNode out = ConversionReview.checkedObject(original(), converted, "example.com/v2");
    assertThat(out).isEqualTo(json("""
        {"apiVersion":"example.com/v2","kind":"Widget","metadata":{"name":"w","namespace":"ns","uid":"u-1",
         "resourceVersion":"7","generation":2,"labels":{"a":"2","b":"3"}},"spec":{"host":"h","port":"1"}}"""));
  }

  @Test
  void aConvertedObject_ofAnotherVersionKindOrIdentity_orWithBadMetadata_isRefused() {
    String desired = "example.com/v2";
    String head = "{\"apiVersion\":\"example.com/v2\",\"kind\":\"Widget\",\"metadata\":";
    assertThat(refusal(() -> ConversionReview.checkedObject(original(), json(
        "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{}}"), desired)))
        .isEqualTo("returned invalid object at index 0: invalid groupVersion (expected example.com/v2, received example.com/v1)");
    assertThat(refusal(() -> ConversionReview.checkedObject(original(), json(
        "{\"apiVersion\":\"example.com/v2\",\"kind\":\"Gadget\",\"metadata\":{}}"), desired)))
        .isEqualTo("returned invalid object at index 0: invalid kind (expected Widget, received Gadget)");
    assertThat(refusal(() -> ConversionReview.checkedObject(original(), json(
        head + "{\"name\":\"other\",\"namespace\":\"ns\",\"uid\":\"u-1\"}}"), desired)))
        .isEqualTo("returned invalid object: must have the same name: w != other");
    assertThat(refusal(() -> ConversionReview.checkedObject(original(), json(
        head + "{\"name\":\"w\",\"namespace\":\"ns\",\"uid\":\"u-2\"}}"), desired)))
        .isEqualTo("returned invalid object: must have the same UID: u-1 != u-2");
    assertThat(refusal(() -> ConversionReview.checkedObject(original(), json(
        "{\"apiVersion\":\"example.com/v2\"}"), desired)))
        .isEqualTo("Object 'Kind' is missing in '{\"apiVersion\":\"example.com/v2\"}'");
    assertThat(refusal(() -> ConversionReview.checkedObject(original(), json(
        "{\"apiVersion\":\"example.com/v2\",\"kind\":\"Widget\"}"), desired)))
        .isEqualTo("returned invalid object: must have the same name: w != ");
    assertThat(refusal(() -> ConversionReview.checkedObject(original(), json(
        head + "{\"name\":\"w\",\"namespace\":\"ns\",\"uid\":\"u-1\",\"labels\":{\"a\":1}}}"), desired)))
        .isEqualTo("returned invalid metadata: metadata.labels[a] must be a string, but is int64 in converted object");
    assertThat(refusal(() -> ConversionReview.checkedObject(original(), json(
        head + "{\"name\":\"w\",\"namespace\":\"ns\",\"uid\":\"u-1\",\"labels\":{\"a\":\"-bad-\"}}}"), desired)))
        .startsWith("returned invalid metadata: metadata.labels: Invalid value: \"-bad-\": a valid label must be");
    assertThat(refusal(() -> ConversionReview.checkedObject(original(), json(
        head + "{\"name\":\"w\",\"namespace\":\"ns\",\"uid\":\"u-1\",\"annotations\":{\"a b\":\"x\"}}}"), desired)))
        .startsWith("returned invalid metadata: metadata.annotation: Invalid value: \"a b\": name part must consist of");
  }
}
