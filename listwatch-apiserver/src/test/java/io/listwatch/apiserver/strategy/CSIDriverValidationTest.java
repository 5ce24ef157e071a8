package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * CSIDrivers: kube 1.32's defaults and {@code ValidateCSIDriver}/{@code ValidateCSIDriverUpdate},
 * from the cases of kube's {@code TestCSIDriverValidation} and {@code TestCSIDriverValidationUpdate}
 * (each row one change of a valid driver, and every cause kube gives, or none).
 */
class CSIDriverValidationTest {

  private static final String LONG_NAME = "my-a-b-c-d-c-f-g-h-i-j-k-l-m-n-o-p-q-r-s-t-u-v-w-x-y-z-ABCDEFGHIJKLMNOPQRSTUVWXYZ-driver";
  private static final String SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
      + "characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex "
      + "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

  private final CSIDriverStrategy strategy = new CSIDriverStrategy();

  private static String driver(String name, String spec) {
    return "{\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{" + spec + "}}";
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      test-driver                      | "attachRequired":true,"podInfoOnMount":true,"requiresRepublish":false,"storageCapacity":true,"seLinuxMount":true |
      io.kubernetes.storage.csi.driver | "storageCapacity":false |
      io-kubernetes-storage-csi-driver | |
      1csi2driver3                     | |
      io.kubernetes.storage.csi-driver | |
      test-driver                      | "attachRequired":false,"volumeLifecycleModes":["Persistent"] |
      test-driver                      | "volumeLifecycleModes":["Ephemeral"] |
      test-driver                      | "volumeLifecycleModes":["Ephemeral","Persistent","Ephemeral"] |
      test-driver                      | "fsGroupPolicy":"File" |
      test-driver                      | "fsGroupPolicy":"None","seLinuxMount":false |
      test-driver                      | "tokenRequests":[{"audience":"gcp"},{"audience":"","expirationSeconds":3600}] |
      test-driver                      | "volumeLifecycleModes":["no-such-mode"] | spec.volumeLifecycleModes: Unsupported value: "no-such-mode": supported values: "Persistent", "Ephemeral"
      test-driver                      | "fsGroupPolicy":"invalid-mode" | spec.fsGroupPolicy: Unsupported value: "invalid-mode": supported values: "File", "None", "ReadWriteOnceWithFSType"
      test-driver                      | "tokenRequests":[{"audience":"gcp"},{"audience":"gcp"}] | spec.tokenRequests[1].audience: Duplicate value: "gcp"
      test-driver                      | "tokenRequests":[{"audience":"a","expirationSeconds":599}] | spec.tokenRequests[0].expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes
      test-driver                      | "tokenRequests":[{"audience":"a","expirationSeconds":4294967297}] | spec.tokenRequests[0].expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds
      """)
  void create(String name, String spec, String causes) {
    assertThat(StrategyCases.create(strategy, driver(name, spec == null ? "" : spec)))
        .containsExactlyElementsOf(causes == null ? List.of() : List.of(causes.split("; ")));
  }

  @Test
  void create_invalidNames() {
    assertThat(StrategyCases.create(strategy, driver("-invalid-@#$%^&*()-", "")))
        .containsExactly("name: Invalid value: \"-invalid-@#$%^&*()-\": " + SUBDOMAIN);
    assertThat(StrategyCases.create(strategy, driver(LONG_NAME, ""))).containsExactly("name: Too long: may not be more than 63 bytes");
  }

  /** kube's required flags, which its defaults always fill (validated here as given, undefaulted). */
  @Test
  void create_withoutTheDefaultedFlags() {
    assertThat(StrategyCases.causes(strategy, driver("test-driver", ""))).containsExactly(
        "spec.attachedRequired: Required value", "spec.podInfoOnMount: Required value",
        "spec.storageCapacity: Required value", "spec.seLinuxMount: Required value");
  }

  @Test
  void defaults_areKubes() {
    ObjectNode obj = InMemoryCore.json(driver("d", ""));
    strategy.defaults(obj);
    assertThat(obj.get("spec")).isEqualTo(InMemoryCore.json("""
        {"attachRequired":true,"podInfoOnMount":false,"storageCapacity":false,
         "fsGroupPolicy":"ReadWriteOnceWithFSType","volumeLifecycleModes":["Persistent"],
         "requiresRepublish":false,"seLinuxMount":false}"""));
  }

  private static final String OLD = driver("test-driver", "\"attachRequired\":false,\"podInfoOnMount\":false,"
      + "\"requiresRepublish\":false,\"volumeLifecycleModes\":[\"Ephemeral\",\"Persistent\"],\"storageCapacity\":true,"
      + "\"seLinuxMount\":true");

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "requiresRepublish":false                             | "requiresRepublish":false |
      "requiresRepublish":false                             | "requiresRepublish":false,"tokenRequests":[{"audience":"gcp"}] |
      "requiresRepublish":false                             | "requiresRepublish":true |
      "storageCapacity":true                                | "storageCapacity":false |
      "seLinuxMount":true                                   | "seLinuxMount":false |
      "podInfoOnMount":false                                | "podInfoOnMount":true |
      "podInfoOnMount":false                                | "podInfoOnMount":false,"fsGroupPolicy":"File" |
      "attachRequired":false                                | "attachRequired":true | spec.attachedRequired: Invalid value: true: field is immutable
      "volumeLifecycleModes":["Ephemeral","Persistent"]     | "volumeLifecycleModes":["no-such-mode"] | spec.volumeLifecycleModes: Unsupported value: "no-such-mode": supported values: "Persistent", "Ephemeral"; spec.volumeLifecycleModes: Invalid value: []storage.VolumeLifecycleMode{"no-such-mode"}: field is immutable
      "volumeLifecycleModes":["Ephemeral","Persistent"]     | "volumeLifecycleModes":["Ephemeral"] | spec.volumeLifecycleModes: Invalid value: []storage.VolumeLifecycleMode{"Ephemeral"}: field is immutable
      "volumeLifecycleModes":["Ephemeral","Persistent"]     | "volumeLifecycleModes":[] | spec.volumeLifecycleModes: Invalid value: []storage.VolumeLifecycleMode{"Persistent"}: field is immutable
      "podInfoOnMount":false                                | "podInfoOnMount":false,"fsGroupPolicy":"invalid" | spec.fsGroupPolicy: Unsupported value: "invalid": supported values: "File", "None", "ReadWriteOnceWithFSType"
      "requiresRepublish":false                             | "requiresRepublish":false,"tokenRequests":[{"audience":"gcp"},{"audience":"gcp"}] | spec.tokenRequests[1].audience: Duplicate value: "gcp"
      """)
  void update(String from, String to, String causes) {
    assertThat(StrategyCases.update(strategy, OLD, OLD.replace(from, to)))
        .containsExactlyElementsOf(causes == null ? List.of() : List.of(causes.split("; ")));
  }

  @Test
  void update_invalidName() {
    assertThat(StrategyCases.update(strategy, OLD, OLD.replace("test-driver", "-invalid-@#$%^&*()-")))
        .containsExactly("name: Invalid value: \"-invalid-@#$%^&*()-\": " + SUBDOMAIN);
  }

  /** The CSIDriver of the kubernetes-csi documentation, through the store: defaulted, stored, read back, updated. */
  @Test
  void endToEnd_documentationExample_createGetUpdate() {
    try (InMemoryCore core = InMemoryCore.start()) {
      String path = "/apis/storage.k8s.io/v1/csidrivers";
      assertThat(core.send("POST", path, Map.of(), """
          {"apiVersion":"storage.k8s.io/v1","kind":"CSIDriver","metadata":{"name":"mycsidriver.example.com"},
           "spec":{"attachRequired":true,"podInfoOnMount":true,"fsGroupPolicy":"File",
            "volumeLifecycleModes":["Persistent","Ephemeral"],
            "tokenRequests":[{"audience":"gcp"},{"audience":"","expirationSeconds":3600}],
            "requiresRepublish":true,"seLinuxMount":true}}""").code()).isEqualTo(201);
      ObjectNode stored = StrategyCases.body(core.send("GET", path + "/mycsidriver.example.com", Map.of(), null));
      assertThat(stored.path("spec").path("storageCapacity").asBoolean(true)).isFalse();
      assertThat(stored.path("metadata").has("generation")).isFalse();
      stored.with("spec").put("requiresRepublish", false);
      ObjectNode updated = StrategyCases.body(core.send("PUT", path + "/mycsidriver.example.com", Map.of(), stored.toString()));
      assertThat(updated.path("spec").path("requiresRepublish").asBoolean()).isFalse();
      assertThat(updated.path("metadata").path("generation").asLong()).isEqualTo(1);
      updated.with("spec").put("fsGroupPolicy", "None");
      updated = StrategyCases.body(core.send("PUT", path + "/mycsidriver.example.com", Map.of(), updated.toString()));
      assertThat(updated.path("metadata").path("generation").asLong()).as("any spec change").isEqualTo(2);
      updated.with("metadata").putObject("labels").put("tier", "storage");
      updated = StrategyCases.body(core.send("PUT", path + "/mycsidriver.example.com", Map.of(), updated.toString()));
      assertThat(updated.path("metadata").path("generation").asLong()).as("metadata only").isEqualTo(2);

      updated.with("spec").put("attachRequired", false);
      StatusException e = core.refusal("PUT", path + "/mycsidriver.example.com", Map.of(), updated.toString());
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.getMessage()).isEqualTo("CSIDriver.storage.k8s.io \"mycsidriver.example.com\" is invalid: "
          + "spec.attachedRequired: Invalid value: false: field is immutable");
    }
  }
}
