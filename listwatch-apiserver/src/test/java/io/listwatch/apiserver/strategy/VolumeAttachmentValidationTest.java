package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * VolumeAttachments: kube 1.32's {@code ValidateVolumeAttachment}, {@code ValidateVolumeAttachmentV1}
 * and {@code ValidateVolumeAttachmentUpdate}, from the cases of kube's
 * {@code TestVolumeAttachmentValidation}, {@code TestVolumeAttachmentValidationV1} and
 * {@code TestVolumeAttachmentUpdateValidation}.
 */
class VolumeAttachmentValidationTest {

  private static final String SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
      + "characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex "
      + "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  private static final String EXACTLY_ONE = "must specify exactly one of inlineVolumeSpec and persistentVolumeName";
  private static final String GOOD = "{\"metadata\":{\"name\":\"foo\"},\"spec\":{\"attacher\":\"myattacher\","
      + "\"source\":{\"persistentVolumeName\":\"pv-foo\"},\"nodeName\":\"mynode\"}}";

  private final VolumeAttachmentStrategy strategy = new VolumeAttachmentStrategy();

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "attacher":"myattacher"                      | "attacher":"io.kubernetes.storage.csi.driver" |
      "persistentVolumeName":"pv-foo"              | "inlineVolumeSpec":{"csi":{"driver":"d","volumeHandle":"h"},"accessModes":["ReadWriteOnce"]} |
      "attacher":"myattacher"                      | "attacher":"" | spec.attacher: Required value; spec.attacher: Required value; spec.attacher: Invalid value: "": SUBDOMAIN
      "source":{"persistentVolumeName":"pv-foo"}   | "source":{} | spec.source: Required value: EXACTLY_ONE
      "persistentVolumeName":"pv-foo"              | "persistentVolumeName":"pv-foo","inlineVolumeSpec":{} | spec.source: Forbidden: EXACTLY_ONE
      "persistentVolumeName":"pv-foo"              | "persistentVolumeName":"" | spec.source.persistentVolumeName: Required value: must specify non empty persistentVolumeName; spec.source.persistentVolumeName: Invalid value: "": SUBDOMAIN
      "nodeName":"mynode"                          | "nodeName":"" | spec.nodeName: Invalid value: "": SUBDOMAIN
      "attacher":"myattacher"                      | "attacher":"invalid!@#$%^&*()" | spec.attacher: Invalid value: "invalid!@#$%^&*()": SUBDOMAIN
      "persistentVolumeName":"pv-foo"              | "persistentVolumeName":"invalid!@#$%^&*()" | spec.source.persistentVolumeName: Invalid value: "invalid!@#$%^&*()": SUBDOMAIN
      """)
  void create(String from, String to, String causes) {
    assertThat(StrategyCases.create(strategy, GOOD.replace(from, to))).containsExactlyElementsOf(causes == null ? List.of()
        : List.of(causes.replace("SUBDOMAIN", SUBDOMAIN).replace("EXACTLY_ONE", EXACTLY_ONE).split("; ")));
  }

  @Test
  void status_metadataAndErrorMessagesLimited() {
    String big = "x".repeat(256 * 1024);
    String message = "m".repeat(1025);
    String withStatus = GOOD.substring(0, GOOD.length() - 1) + ",\"status\":{\"attached\":true,"
        + "\"attachmentMetadata\":{\"foo\":\"" + big + "\"},\"attachError\":{\"message\":\"" + message + "\"},"
        + "\"detachError\":{\"message\":\"" + message + "\"}}}";
    assertThat(StrategyCases.causes(strategy, withStatus)).containsExactly(
        "status.attachmentMetadata: Too long: may not be more than 262144 bytes",
        "status.attachError.message: Too long: may not be more than 262144 bytes",
        "status.detachError.message: Too long: may not be more than 262144 bytes");
  }

  @Test
  void update_specImmutable_andTheV1RulesNotRechecked() {
    assertThat(StrategyCases.update(strategy, GOOD, GOOD)).isEmpty();
    assertThat(StrategyCases.update(strategy, GOOD, GOOD.replace("mynode", "othernode"))).containsExactly(
        "spec: Invalid value: storage.VolumeAttachmentSpec{Attacher:\"myattacher\", Source:storage.VolumeAttachmentSource"
            + "{PersistentVolumeName:(*string)(0xc000000000), InlineVolumeSpec:(*core.PersistentVolumeSpec)(nil)}, "
            + "NodeName:\"othernode\"}: field is immutable");
  }

  @Test
  void endToEnd_createGetUpdateAndStatus() {
    try (InMemoryCore core = InMemoryCore.start()) {
      String path = "/apis/storage.k8s.io/v1/volumeattachments";
      String body = GOOD.substring(0, GOOD.length() - 1) + ",\"status\":{\"attached\":true}}";
      assertThat(core.send("POST", path, Map.of(), "{\"apiVersion\":\"storage.k8s.io/v1\",\"kind\":\"VolumeAttachment\","
          + body.substring(1)).code()).isEqualTo(201);
      ObjectNode stored = StrategyCases.body(core.send("GET", path + "/foo", Map.of(), null));
      assertThat(stored.path("status")).as("status dropped on create").isEqualTo(InMemoryCore.json("{\"attached\":false}"));

      stored.with("status").put("attached", true).putObject("attachmentMetadata").put("devicePath", "/dev/xvdf");
      stored = StrategyCases.body(core.send("PUT", path + "/foo/status", Map.of(), stored.toString()));
      assertThat(stored.path("status").path("attached").asBoolean()).isTrue();

      stored.with("status").putObject("attachError").put("message", "m".repeat(1025));
      StatusException tooLong = core.refusal("PUT", path + "/foo/status", Map.of(), stored.toString());
      assertThat(tooLong.code()).isEqualTo(422);
      assertThat(tooLong.getMessage()).isEqualTo("VolumeAttachment.storage.k8s.io \"foo\" is invalid: "
          + "status.attachError.message: Too long: may not be more than 262144 bytes");

      stored.with("status").remove("attachError");
      stored.with("spec").put("nodeName", "othernode");
      StatusException immutable = core.refusal("PUT", path + "/foo", Map.of(), stored.toString());
      assertThat(immutable.code()).isEqualTo(422);
      assertThat(immutable.getMessage()).contains("spec: Invalid value: storage.VolumeAttachmentSpec{")
          .endsWith("field is immutable");
    }
  }
}
