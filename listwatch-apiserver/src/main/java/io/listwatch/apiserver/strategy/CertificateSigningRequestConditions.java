package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A CertificateSigningRequest's status as kube 1.32 checks it on {@code /status} and
 * {@code /approval} ({@code ValidateCertificateSigningRequestStatusUpdate} and
 * {@code ...ApprovalUpdate}): each condition with a type (none twice) and a status of True,
 * False or Unknown, {@code Approved} and {@code Denied} only True and not both; no condition of
 * type Approved, Denied or Failed removed; the Approved and Denied conditions changed only
 * through {@code /approval}; {@code status.certificate} set only through {@code /status}, only
 * once, and then one or more PEM {@code CERTIFICATE} blocks without headers, each an X.509
 * certificate. What a stored object already breaks (duplicate types, both Approved and Denied, a
 * bad certificate) stays allowed, as kube's {@code getValidationOptions}. Also the conditions'
 * {@code lastUpdateTime} and {@code lastTransitionTime} kube fills in. Stateless.
 */
final class CertificateSigningRequestConditions {

  private static final String PATH = "status.conditions";
  private static final List<String> TRUE_FALSE_UNKNOWN = List.of("True", "False", "Unknown");
  private static final List<String> APPROVAL = List.of("Approved", "Denied");
  private static final Pattern PEM_BLOCK = Pattern.compile(
      "-----BEGIN ([^\\n-]*)-----\\r?\\n(.*?)-----END \\1-----\\r?\\n?", Pattern.DOTALL);

  private CertificateSigningRequestConditions() {
  }

  /** The update rules of {@code /status} ({@code approval} false) or {@code /approval}. */
  static void validateUpdate(JsonNode obj, JsonNode old, boolean approval, List<Status.Cause> errors) {
    JsonNode conditions = obj.path("status").path("conditions");
    JsonNode oldConditions = old.path("status").path("conditions");
    validateConditions(conditions, oldConditions, errors);
    String certificate = obj.path("status").path("certificate").asText("");
    String oldCertificate = old.path("status").path("certificate").asText("");
    if (certificateError(oldCertificate) == null) {
      String error = certificateError(certificate);
      if (error != null) {
        errors.add(FieldErrors.invalid("status.certificate", "<certificate data>", error));
      }
    }
    for (String type : List.of("Approved", "Denied", "Failed")) {
      if (ofType(conditions, type).size() < ofType(oldConditions, type).size()) {
        errors.add(FieldErrors.forbidden(PATH, "updates may not remove a condition of type " + FieldErrors.goValue(type)));
      }
    }
    if (!approval) {
      for (String type : APPROVAL) {
        List<JsonNode> now = ofType(conditions, type);
        List<JsonNode> before = ofType(oldConditions, type);
        if (now.size() > before.size()) {
          errors.add(FieldErrors.forbidden(PATH, "updates may not add a condition of type " + FieldErrors.goValue(type)));
        } else if (now.size() == before.size() && !now.equals(before)) {
          errors.add(FieldErrors.forbidden(PATH, "updates may not modify a condition of type " + FieldErrors.goValue(type)));
        }
      }
    }
    if (!certificate.equals(oldCertificate)) {
      if (approval) {
        errors.add(FieldErrors.forbidden("status.certificate", "updates may not set certificate content"));
      } else if (!oldCertificate.isEmpty()) {
        errors.add(FieldErrors.forbidden("status.certificate", "updates may not modify existing certificate content"));
      }
    }
  }

  /** kube's {@code validateConditions}, relaxed where {@code old} already breaks a rule. */
  private static void validateConditions(JsonNode conditions, JsonNode old, List<Status.Cause> errors) {
    boolean allowEmptyType = false;
    for (JsonNode c : old) {
      allowEmptyType |= c.path("type").asText("").isEmpty();
    }
    boolean allowDuplicates = hasDuplicateTypes(old);
    boolean allowBoth = !ofType(old, "Approved").isEmpty() && !ofType(old, "Denied").isEmpty();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < conditions.size(); i++) {
      JsonNode c = conditions.get(i);
      String at = PATH + "[" + i + "]";
      String type = c.path("type").asText("");
      String status = c.path("status").asText("");
      if (!allowEmptyType && type.isEmpty()) {
        errors.add(FieldErrors.required(at + ".type", ""));
      }
      if (!TRUE_FALSE_UNKNOWN.contains(status)) {
        errors.add(FieldErrors.notSupported(at + ".status", status, TRUE_FALSE_UNKNOWN));
      }
      if (!seen.add(type) && !allowDuplicates) {
        errors.add(FieldErrors.duplicate(at + ".type", type));
      }
      if (APPROVAL.contains(type) && !status.equals("True")) {
        errors.add(FieldErrors.notSupported(at + ".status", status, List.of("True")));
      }
    }
    if (!allowBoth && !ofType(conditions, "Approved").isEmpty() && !ofType(conditions, "Denied").isEmpty()) {
      errors.add(FieldErrors.invalid(PATH, goConditions(conditions), "Approved and Denied conditions are mutually exclusive"));
    }
  }

  /**
   * kube's condition times: a condition without {@code lastUpdateTime} gets now; one without
   * {@code lastTransitionTime} gets the stored one of the same type and status, else now.
   */
  static void populateTimes(ObjectNode obj, JsonNode old) {
    String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    for (JsonNode c : obj.path("status").path("conditions")) {
      if (!(c instanceof ObjectNode condition)) {
        continue;
      }
      if (condition.path("lastUpdateTime").asText("").isEmpty()) {
        condition.put("lastUpdateTime", now);
      }
      if (condition.path("lastTransitionTime").asText("").isEmpty()) {
        String transition = now;
        for (JsonNode o : old.path("status").path("conditions")) {
          if (o.path("type").equals(c.path("type")) && o.path("status").equals(c.path("status"))
              && !o.path("lastTransitionTime").asText("").isEmpty()) {
            transition = o.path("lastTransitionTime").asText();
            break;
          }
        }
        condition.put("lastTransitionTime", transition);
      }
    }
  }

  /** The Approved and Denied conditions of {@code old} in place of those of {@code obj} (kube's status strategy). */
  static void keepApproval(ObjectNode obj, JsonNode old) {
    ArrayNode kept = obj.arrayNode();
    for (JsonNode c : obj.path("status").path("conditions")) {
      if (!APPROVAL.contains(c.path("type").asText(""))) {
        kept.add(c);
      }
    }
    for (JsonNode c : old.path("status").path("conditions")) {
      if (APPROVAL.contains(c.path("type").asText(""))) {
        kept.add(c.deepCopy());
      }
    }
    if (kept.isEmpty()) {
      if (obj.path("status") instanceof ObjectNode status) {
        status.remove("conditions");
      }
    } else {
      obj.with("status").set("conditions", kept);
    }
  }

  static List<JsonNode> ofType(JsonNode conditions, String type) {
    List<JsonNode> found = new ArrayList<>();
    for (JsonNode c : conditions) {
      if (c.path("type").asText("").equals(type)) {
        found.add(c);
      }
    }
    return found;
  }

  private static boolean hasDuplicateTypes(JsonNode conditions) {
    Set<String> seen = new HashSet<>();
    for (JsonNode c : conditions) {
      if (!seen.add(c.path("type").asText(""))) {
        return true;
      }
    }
    return false;
  }

  /** kube's {@code validateCertificate} of the base64 {@code status.certificate}: null when it is fine. */
  static String certificateError(String base64) {
    if (base64.isEmpty()) {
      return null;
    }
    String pem;
    try {
      pem = new String(Base64.getDecoder().decode(base64), StandardCharsets.ISO_8859_1);
    } catch (IllegalArgumentException e) {
      return "must contain at least one CERTIFICATE PEM block";
    }
    int blocks = 0;
    Matcher m = PEM_BLOCK.matcher(pem);
    while (m.find()) {
      if (!m.group(1).equals("CERTIFICATE")) {
        return "only CERTIFICATE PEM blocks are allowed, found " + FieldErrors.goValue(m.group(1));
      }
      if (m.group(2).contains(":")) {
        return "no PEM block headers are permitted";
      }
      blocks++;
      try {
        byte[] der = Base64.getMimeDecoder().decode(m.group(2).replaceAll("\\s", ""));
        if (CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(der)).isEmpty()) {
          return "found CERTIFICATE PEM block containing 0 certificates";
        }
      } catch (IllegalArgumentException | CertificateException e) {
        return "x509: malformed certificate";
      }
    }
    return blocks == 0 ? "must contain at least one CERTIFICATE PEM block" : null;
  }

  /** Go's {@code %#v} of the conditions, with their type, status, reason and message (the times left out). */
  private static GoLiteral goConditions(JsonNode conditions) {
    List<String> items = new ArrayList<>();
    for (JsonNode c : conditions) {
      items.add(GoLiteral.struct("certificates.CertificateSigningRequestCondition",
          "Type", FieldErrors.goValue(c.path("type").asText("")),
          "Status", FieldErrors.goValue(c.path("status").asText("")),
          "Reason", FieldErrors.goValue(c.path("reason").asText("")),
          "Message", FieldErrors.goValue(c.path("message").asText(""))).toString());
    }
    return new GoLiteral("[]certificates.CertificateSigningRequestCondition{" + String.join(", ", items) + "}");
  }
}
