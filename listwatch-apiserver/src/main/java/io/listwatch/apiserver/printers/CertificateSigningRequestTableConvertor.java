package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * certificates.k8s.io/v1 CertificateSigningRequests, as kube's
 * {@code printCertificateSigningRequest}: NAME, AGE, SIGNERNAME, REQUESTOR (the user who created
 * it), REQUESTEDDURATION ({@code <none>} without {@code expirationSeconds}), CONDITION
 * ({@code Denied}, else {@code Approved}, else {@code Pending}; then {@code ,Failed} and
 * {@code ,Issued} when they apply). Stateless.
 */
public final class CertificateSigningRequestTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.ageColumn(),
      ColumnDefinition.string("SignerName", "The signer the request is for."),
      ColumnDefinition.string("Requestor", "Name of the user who created the request."),
      ColumnDefinition.string("RequestedDuration", "The requested duration of the certificate."),
      ColumnDefinition.string("Condition", "The state of the request."));

  public CertificateSigningRequestTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode csr, Instant now) {
    JsonNode spec = csr.path("spec");
    JsonNode expiration = spec.path("expirationSeconds");
    String duration = expiration.isIntegralNumber()
        ? HumanDuration.format(Duration.ofSeconds(expiration.asLong())) : "<none>";
    return TableRow.of(Cells.name(csr), Cells.age(csr, now), Cells.text(spec.path("signerName"), "<none>"),
        Cells.text(spec.path("username")), duration, condition(csr.path("status")));
  }

  /** kube's {@code extractCSRStatus}. */
  static String condition(JsonNode status) {
    boolean approved = false;
    boolean denied = false;
    boolean failed = false;
    for (JsonNode c : Cells.elements(status.path("conditions"))) {
      switch (c.path("type").asText("")) {
        case "Approved" -> approved = true;
        case "Denied" -> denied = true;
        case "Failed" -> failed = true;
        default -> { }
      }
    }
    String state = denied ? "Denied" : approved ? "Approved" : "Pending";
    if (failed) {
      state += ",Failed";
    }
    if (!Cells.text(status.path("certificate")).isEmpty()) {
      state += ",Issued";
    }
    return state;
  }
}
