package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.request.UserInfo;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * CertificateSigningRequests: kube 1.32's {@code ValidateCertificateSigningRequestCreate} and
 * {@code ValidateSignerName}, from the cases of kube's {@code TestValidateCertificateSigningRequestCreate}
 * and {@code TestValidateSignerName}, and the strategy's requestor identity and status on create.
 */
class CertificateSigningRequestValidationTest {

  /** A PKCS#10 request for CN=alice, O=dev, made with openssl, as the JSON {@code []byte} (base64). */
  static final String REQUEST = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlJQlhUQ0J4d0lCQURBZU1RNHdEQVlEVlFRRERBVmhiR2xqWlRFTU1Bb0dBMVVFQ2d3RFpHVjJNSUdmTUEwRwpDU3FHU0liM0RRRUJBUVVBQTRHTkFEQ0JpUUtCZ1FDNWV4ZHJGRytmN1AvREVrOFA1bUZuVGlhZXZ1ZzRhSjRGCmtlK3NPM0w2NkMyWDR6Vy91QS9Gb3FnMUxsclFFejFhdEF5cVpxSmFFT3JLbEkyeUZhZlY0QjFPcmZXNVBXM2UKdi90WmhUNmRnL3hBMWkzdFdVcUlyNVdlblpzYnF3bGoyVFU2aFF4Y2RwRTBVK2YwSkN2Nm9pUXZxbFFlTnRPVQpIYllrWEwweTB3SURBUUFCb0FBd0RRWUpLb1pJaHZjTkFRRUxCUUFEZ1lFQVFHc0NPeDFnbTlpaXlNUDhZd1FkClByZ2ZTdGs4NS9tcFdhMWtnMzJhTmd6SGVudk52bHAwSld3WHhXa1BTWDl0NE9wdXU4eS9uVkVpMEhlaDJMU3cKR2lnUUN5SG5XWDhucHFtaHNxRUZRU2pKUDZqYkF6Z2FJT0JFeU9YUVN0NGRST21hSTNhcE5qRUdqNk94REFSaQo3N3ZBdThxR04ybEQ2UDVrV2RmNjIydz0KLS0tLS1FTkQgQ0VSVElGSUNBVEUgUkVRVUVTVC0tLS0tCg==";
  static final String GOOD = "{\"metadata\":{\"name\":\"alice\"},\"spec\":{\"request\":\"" + REQUEST + "\","
      + "\"signerName\":\"example.com/signer\",\"usages\":[\"client auth\",\"digital signature\"],"
      + "\"expirationSeconds\":3600}}";
  private static final String LABEL = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or "
      + "'-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for "
      + "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
  private static final String SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
      + "characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex "
      + "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

  private final CertificateSigningRequestStrategy strategy = new CertificateSigningRequestStrategy();

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "expirationSeconds":3600                        | "expirationSeconds":600 |
      ,"expirationSeconds":3600                       | '' |
      "signerName":"example.com/signer"               | "signerName":"" | spec.signerName: Required value
      "signerName":"example.com/signer"               | "signerName":"kubernetes.io/legacy-unknown" | spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version
      "signerName":"example.com/signer"               | "signerName":"example.com" | spec.signerName: Invalid value: "example.com": must be a fully qualified domain and path of the form 'example.com/signer-name'
      "signerName":"example.com/signer"               | "signerName":"example.com/signer/path" | spec.signerName: Invalid value: "example.com/signer/path": must be a fully qualified domain and path of the form 'example.com/signer-name'
      "signerName":"example.com/signer"               | "signerName":"example/signer" | spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots
      "signerName":"example.com/signer"               | "signerName":"ex@mple.com/signer" | spec.signerName: Invalid value: "ex@mple.com": validating label "ex@mple": LABEL
      "signerName":"example.com/signer"               | "signerName":"example.com/sign@r" | spec.signerName: Invalid value: "sign@r": validating component "sign@r": SUBDOMAIN
      "usages":["client auth","digital signature"]    | "usages":[] | spec.usages: Required value: usages must be provided
      "client auth","digital signature"               | "client auth","client auth","bogus" | spec.usages[2]: Unsupported value: "bogus": supported values: USAGES; spec.usages[1]: Duplicate value: "client auth"
      "expirationSeconds":3600                        | "expirationSeconds":599 | spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)
      """)
  void create(String from, String to, String causes) {
    String usages = String.join(", ", CertificateSigningRequestStrategy.USAGES.stream().map(u -> "\"" + u + "\"").toList());
    assertThat(GOOD).contains(from);
    assertThat(StrategyCases.create(strategy, GOOD.replace(from, to))).containsExactlyElementsOf(causes == null
        ? List.of()
        : List.of(causes.replace("SUBDOMAIN", SUBDOMAIN).replace("LABEL", LABEL).replace("USAGES", usages).split("; ")));
  }

  @Test
  void create_requestNotAPemCertificateRequest() {
    String pemOfAnotherType = Base64.getEncoder().encodeToString(
        "-----BEGIN CERTIFICATE-----\nAAEC\n-----END CERTIFICATE-----\n".getBytes(StandardCharsets.US_ASCII));
    assertThat(StrategyCases.create(strategy, GOOD.replace(REQUEST, pemOfAnotherType))).singleElement()
        .asString().startsWith("spec.request: Invalid value: []byte{0x2d, 0x2d, 0x2d, 0x2d, 0x2d, 0x42, 0x45")
        .endsWith("0xa}: PEM block type must be CERTIFICATE REQUEST");
    assertThat(StrategyCases.create(strategy, GOOD.replace(REQUEST, "")))
        .containsExactly("spec.request: Invalid value: []byte{}: PEM block type must be CERTIFICATE REQUEST");
    assertThat(StrategyCases.create(strategy, GOOD.replace("\"request\":\"" + REQUEST + "\",", "")))
        .containsExactly("spec.request: Invalid value: []byte(nil): PEM block type must be CERTIFICATE REQUEST");
  }

  @Test
  void endToEnd_requestorIsTheWriter_statusDropped_specKeptOnUpdate() {
    try (InMemoryCore core = InMemoryCore.start()) {
      String path = "/apis/certificates.k8s.io/v1/certificatesigningrequests";
      UserInfo alice = new UserInfo("alice", "uid-1", List.of("dev", UserInfo.AUTHENTICATED),
          Map.of("scopes", List.of("a", "b")));
      String body = "{\"apiVersion\":\"certificates.k8s.io/v1\",\"kind\":\"CertificateSigningRequest\","
          + GOOD.substring(1, GOOD.length() - 2) + ",\"username\":\"mallory\",\"groups\":[\"system:masters\"]},"
          + "\"status\":{\"conditions\":[{\"type\":\"Approved\",\"status\":\"True\"}]}}";
      assertThat(core.send(InMemoryCore.request("POST", path, Map.of(), body).withUser(alice)).code()).isEqualTo(201);
      ObjectNode stored = StrategyCases.body(core.send("GET", path + "/alice", Map.of(), null));
      assertThat(stored.path("spec").path("username").asText()).isEqualTo("alice");
      assertThat(stored.path("spec").path("uid").asText()).isEqualTo("uid-1");
      assertThat(stored.path("spec").path("groups")).isEqualTo(InMemoryCore.json("{\"g\":[\"dev\",\"system:authenticated\"]}").get("g"));
      assertThat(stored.path("spec").path("extra")).isEqualTo(InMemoryCore.json("{\"scopes\":[\"a\",\"b\"]}"));
      assertThat(stored.path("status")).as("status dropped on create").isEqualTo(InMemoryCore.json("{}"));

      stored.with("spec").put("signerName", "example.com/other");
      stored.with("metadata").putObject("labels").put("team", "a");
      ObjectNode updated = StrategyCases.body(core.send("PUT", path + "/alice", Map.of(), stored.toString()));
      assertThat(updated.path("spec").path("signerName").asText()).as("spec kept as stored").isEqualTo("example.com/signer");
      assertThat(updated.path("metadata").path("labels").path("team").asText()).isEqualTo("a");

      StatusException invalid = core.refusal("POST", path, Map.of(), body.replace("\"alice\"", "\"bob\"")
          .replace("3600", "60"));
      assertThat(invalid.code()).isEqualTo(422);
      assertThat(invalid.getMessage()).isEqualTo("CertificateSigningRequest.certificates.k8s.io \"bob\" is invalid: "
          + "spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 600 seconds (10 minutes)");
    }
  }
}
