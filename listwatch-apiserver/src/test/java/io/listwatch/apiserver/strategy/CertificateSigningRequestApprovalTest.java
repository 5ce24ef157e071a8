package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A CertificateSigningRequest's {@code /approval} and {@code /status} through the core, as
 * {@code kubectl certificate approve|deny} and a signer write them: kube 1.32's approval and status
 * strategies and {@code ValidateCertificateSigningRequest{Approval,Status}Update}.
 */
class CertificateSigningRequestApprovalTest {

  /** A self-signed X.509 certificate for CN=alice, made with openssl, as the JSON {@code []byte}. */
  private static final String CERTIFICATE = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUIvRENDQVdXZ0F3SUJBZ0lVUEZ2VmoxWk1uRmV5UXM3LzZxZjBpdEJ3MEM4d0RRWUpLb1pJaHZjTkFRRUwKQlFBd0VERU9NQXdHQTFVRUF3d0ZZV3hwWTJVd0hoY05Nall4TVRJNE1UZ3pOVEl5V2hjTk1qWXhNVEk1TVRnegpOVEl5V2pBUU1RNHdEQVlEVlFRRERBVmhiR2xqWlRDQm56QU5CZ2txaGtpRzl3MEJBUUVGQUFPQmpRQXdnWWtDCmdZRUFyMm1YZjZoZ1NhcC9xTnFFQTd3SUNKQjZ0YkpJRzJSVGt6Z2VxYTBRTzdjMmxtM2gxUWtFbzdsNDR4dnkKek13UVMzSzhibWszSGxzMmpIVG5zcWRCeHNwRTdwemhsN3dPSm1sTmZFN1lkbE5Fb09FUnQrbjFZaFRWQTE5TQp4QU90OTVpZ1dSMzFnbGllZ2lWREZ4NkZLb3dianlYSXJGRzluSXR5enA3clRIMENBd0VBQWFOVE1GRXdIUVlEClZSME9CQllFRkpld21JeWdKYS9JTWZKeFdjMnBDTHJaN0tpa01COEdBMVVkSXdRWU1CYUFGSmV3bUl5Z0phL0kKTWZKeFdjMnBDTHJaN0tpa01BOEdBMVVkRXdFQi93UUZNQU1CQWY4d0RRWUpLb1pJaHZjTkFRRUxCUUFEZ1lFQQpTQVpjVlhTOVFSZWptdTh2VlJPT3RCcEdnbXJIb0c2UEY0VlY0K0ZxUWNFdVV3aUV1dEo0aXRSc2VDYnVkUkdsCm5pMGVXN2ZjNzR5M2VQOExDTVNpR1VHaHNiZVFGdzNWaHlBSStRNUxKcGlxbytrRnRsTHVleDhOdkN6Wm1yS0UKWUo4OWJld0FSQ2hmUGQxMVkzaHdPLzF5WUh2ZUJJb0JaYUJxdm5wb0c4az0KLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo=";
  private static final String PATH = "/apis/certificates.k8s.io/v1/certificatesigningrequests";

  private final InMemoryCore core = InMemoryCore.start();

  @AfterEach
  void close() {
    core.close();
  }

  private ObjectNode created() {
    String body = "{\"apiVersion\":\"certificates.k8s.io/v1\",\"kind\":\"CertificateSigningRequest\","
        + CertificateSigningRequestValidationTest.GOOD.substring(1);
    return StrategyCases.body(core.send("POST", PATH, Map.of(), body));
  }

  private static ObjectNode withCondition(ObjectNode csr, String type, String status) {
    ObjectNode copy = csr.deepCopy();
    ArrayNode conditions = copy.with("status").withArray("conditions");
    conditions.addObject().put("type", type).put("status", status).put("reason", "KubectlApprove")
        .put("message", "This CSR was approved by kubectl certificate approve.");
    return copy;
  }

  @Test
  void approve_putOnApproval_addsTheConditionWithItsTimes() {
    ObjectNode csr = created();
    ObjectNode approved = StrategyCases.body(core.send("PUT", PATH + "/alice/approval", Map.of(),
        withCondition(csr, "Approved", "True").toString()));
    assertThat(approved.path("status").path("conditions")).hasSize(1);
    ObjectNode condition = (ObjectNode) approved.path("status").path("conditions").get(0);
    assertThat(condition.path("type").asText()).isEqualTo("Approved");
    assertThat(condition.path("reason").asText()).isEqualTo("KubectlApprove");
    assertThat(condition.path("lastUpdateTime").asText()).isNotEmpty();
    assertThat(condition.path("lastTransitionTime").asText()).isNotEmpty();
    assertThat(StrategyCases.body(core.send("GET", PATH + "/alice", Map.of(), null)).path("status"))
        .isEqualTo(approved.path("status"));
  }

  @Test
  void approval_changesOnlyTheConditions() {
    ObjectNode csr = withCondition(created(), "Approved", "True");
    csr.with("spec").put("signerName", "example.com/other");
    csr.with("status").put("certificate", CERTIFICATE);
    ObjectNode approved = StrategyCases.body(core.send("PUT", PATH + "/alice/approval", Map.of(), csr.toString()));
    assertThat(approved.path("spec").path("signerName").asText()).as("spec as stored").isEqualTo("example.com/signer");
    assertThat(approved.path("status").has("certificate")).as("certificate as stored (none)").isFalse();
    assertThat(approved.path("status").path("conditions")).hasSize(1);
  }

  @Test
  void deny_thenApprove_isRefused_andConditionsCannotBeRemoved() {
    ObjectNode denied = StrategyCases.body(core.send("PUT", PATH + "/alice/approval", Map.of(),
        withCondition(created(), "Denied", "True").toString()));
    StatusException both = core.refusal("PUT", PATH + "/alice/approval", Map.of(),
        withCondition(denied, "Approved", "True").toString());
    assertThat(both.code()).isEqualTo(422);
    assertThat(both.getMessage()).contains("status.conditions: Invalid value: []certificates.CertificateSigningRequestCondition{")
        .endsWith(": Approved and Denied conditions are mutually exclusive");

    denied.with("status").remove("conditions");
    StatusException removed = core.refusal("PUT", PATH + "/alice/approval", Map.of(), denied.toString());
    assertThat(removed.getMessage()).isEqualTo("CertificateSigningRequest.certificates.k8s.io \"alice\" is invalid: "
        + "status.conditions: Forbidden: updates may not remove a condition of type \"Denied\"");
  }

  @Test
  void approval_conditionsMustBeTrueAndUnique() {
    ObjectNode csr = withCondition(withCondition(created(), "Approved", "False"), "Approved", "True");
    StatusException refused = core.refusal("PUT", PATH + "/alice/approval", Map.of(), csr.toString());
    assertThat(refused.getMessage()).isEqualTo("CertificateSigningRequest.certificates.k8s.io \"alice\" is invalid: ["
        + "status.conditions[0].status: Unsupported value: \"False\": supported values: \"True\", "
        + "status.conditions[1].type: Duplicate value: \"Approved\"]");
  }

  @Test
  void status_setsTheCertificateOnce_andKeepsTheApprovalConditions() {
    ObjectNode approved = StrategyCases.body(core.send("PUT", PATH + "/alice/approval", Map.of(),
        withCondition(created(), "Approved", "True").toString()));
    ObjectNode write = approved.deepCopy();
    write.with("status").put("certificate", CERTIFICATE);
    write.with("status").withArray("conditions").removeAll(); // approval conditions are not /status's
    write.with("status").withArray("conditions").addObject().put("type", "Failed").put("status", "False");
    ObjectNode issued = StrategyCases.body(core.send("PUT", PATH + "/alice/status", Map.of(), write.toString()));
    assertThat(issued.path("status").path("certificate").asText()).isEqualTo(CERTIFICATE);
    assertThat(issued.path("status").path("conditions")).extracting(c -> c.path("type").asText())
        .containsExactly("Failed", "Approved");

    issued.with("status").put("certificate", CERTIFICATE.substring(4));
    StatusException again = core.refusal("PUT", PATH + "/alice/status", Map.of(), issued.toString());
    assertThat(again.getMessage()).contains("status.certificate: Forbidden: updates may not modify existing certificate content");
  }

  @Test
  void status_certificateMustBeCertificatePemBlocks() {
    ObjectNode csr = created();
    csr.with("status").put("certificate", CertificateSigningRequestValidationTest.REQUEST);
    StatusException wrongType = core.refusal("PUT", PATH + "/alice/status", Map.of(), csr.toString());
    assertThat(wrongType.getMessage()).isEqualTo("CertificateSigningRequest.certificates.k8s.io \"alice\" is invalid: "
        + "status.certificate: Invalid value: \"<certificate data>\": only CERTIFICATE PEM blocks are allowed, found "
        + "\"CERTIFICATE REQUEST\"");
    csr.with("status").put("certificate", Base64.getEncoder().encodeToString("not pem".getBytes(StandardCharsets.US_ASCII)));
    assertThat(core.refusal("PUT", PATH + "/alice/status", Map.of(), csr.toString()).getMessage())
        .endsWith("status.certificate: Invalid value: \"<certificate data>\": must contain at least one CERTIFICATE PEM block");
  }
}
