package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.apiserver.validation.FieldErrors;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * CertificateSigningRequests (certificates.k8s.io/v1), kube 1.32's strategy and
 * {@code ValidateCertificateSigningRequestCreate}; kube has no defaults for them.
 *
 * <p>On create the requestor's identity is the writer's ({@code spec.username}, {@code uid},
 * {@code groups}, {@code extra}, whatever the client sent) and the status starts empty. On an
 * update of the main resource the spec is kept as stored (kube's {@code PrepareForUpdate}
 * resets it silently rather than refusing the change), so nothing of it is validated again.
 *
 * <p>Validation on create: {@code spec.request} a PEM block of type {@code CERTIFICATE REQUEST}
 * (its base64 content decodes; the PKCS#10 structure and its signature are not checked, as the
 * core has no ASN.1 parser); {@code spec.usages} given, each one of kube's key usages and none
 * twice; {@code spec.signerName} given, not the legacy one, a {@code domain/path} name as kube's
 * {@code ValidateSignerName}; {@code spec.expirationSeconds} at least 600.
 *
 * <p>{@code /status} changes the status but the Approved and Denied conditions (kept as stored);
 * {@code /approval} ({@link CertificateSigningRequestApprovalStrategy}) changes only the
 * conditions; both are checked by {@link CertificateSigningRequestConditions}. Stateless.
 */
final class CertificateSigningRequestStrategy implements RestStrategy {

  private static final String LEGACY_SIGNER = "kubernetes.io/legacy-unknown";
  private static final String PEM_TYPE = "PEM block type must be CERTIFICATE REQUEST";
  private static final int SUBDOMAIN_MAX = 253;
  private static final int LABEL_MAX = 63;
  /** kube's {@code allValidUsages}, sorted as {@code sets.List} lists them. */
  static final List<String> USAGES = List.of("any", "cert sign", "client auth", "code signing", "content commitment",
      "crl sign", "data encipherment", "decipher only", "digital signature", "email protection", "encipher only",
      "ipsec end system", "ipsec tunnel", "ipsec user", "key agreement", "key encipherment", "microsoft sgc",
      "netscape sgc", "ocsp signing", "s/mime", "server auth", "signing", "timestamping");
  private static final Pattern PEM_BLOCK = Pattern.compile(
      "-----BEGIN ([^\\n-]*)-----\\r?\\n(.*?)-----END \\1-----", Pattern.DOTALL);

  @Override
  public void prepareForCreate(ObjectNode obj, Instant now, UserInfo user) {
    ObjectNode spec = obj.with("spec");
    spec.remove(List.of("username", "uid", "groups", "extra"));
    if (user != null) {
      putIfNotEmpty(spec, "username", user.name());
      putIfNotEmpty(spec, "uid", user.uid());
      if (!user.groups().isEmpty()) {
        ArrayNode groups = spec.putArray("groups");
        user.groups().forEach(groups::add);
      }
      if (!user.extra().isEmpty()) {
        ObjectNode extra = spec.putObject("extra");
        for (Map.Entry<String, List<String>> e : user.extra().entrySet()) {
          ArrayNode values = extra.putArray(e.getKey());
          e.getValue().forEach(values::add);
        }
      }
    }
    obj.putObject("status"); // users cannot create pre-approved requests
  }

  /** kube's {@code PrepareForUpdate}: the spec as stored (the status the metadata rules keep). */
  @Override
  public void prepareForUpdate(ObjectNode obj, ObjectNode old) {
    keepStored(obj, old, "spec");
  }

  /**
   * kube's status strategy: the Approved and Denied conditions as stored (they change through
   * {@code /approval}), the condition times filled in, then the status rules
   * ({@link CertificateSigningRequestConditions}), refused in one 422.
   */
  @Override
  public void prepareForStatusUpdate(ObjectNode obj, ObjectNode old) {
    CertificateSigningRequestConditions.keepApproval(obj, old);
    CertificateSigningRequestConditions.populateTimes(obj, old);
    List<Status.Cause> errors = new java.util.ArrayList<>();
    CertificateSigningRequestConditions.validateUpdate(obj, old, false, errors);
    StatusValidation.refuse("certificates.k8s.io", "CertificateSigningRequest", obj, errors);
  }

  /** {@code /approval}: {@link CertificateSigningRequestApprovalStrategy}. */
  @Override
  public java.util.Optional<RestStrategy> subresource(String name) {
    return name.equals(CertificateSigningRequestApprovalStrategy.SUBRESOURCE) ? java.util.Optional.of(APPROVAL)
        : java.util.Optional.empty();
  }

  private static final RestStrategy APPROVAL = new CertificateSigningRequestApprovalStrategy();

  /** {@code field} of {@code obj} as stored in {@code old} (absent if it is absent there). */
  static void keepStored(ObjectNode obj, JsonNode old, String field) {
    if (old.has(field)) {
      obj.set(field, old.get(field).deepCopy());
    } else {
      obj.remove(field);
    }
  }

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    if (old != null) {
      return; // the spec is the stored one, valid when it was created
    }
    JsonNode spec = obj.path("spec");
    JsonNode request = spec.get("request");
    byte[] bytes = decode(request);
    if (!isCertificateRequest(bytes)) {
      errors.add(FieldErrors.invalid("spec.request", goBytes(request == null || request.isNull() ? null : bytes),
          PEM_TYPE));
    }
    validateUsages(spec.path("usages"), errors);
    String signerName = spec.path("signerName").asText("");
    if (signerName.equals(LEGACY_SIGNER)) {
      errors.add(FieldErrors.invalid("spec.signerName", signerName,
          "the legacy signerName is not allowed via this API version"));
    }
    validateSignerName("spec.signerName", signerName, errors);
    JsonNode expiration = spec.path("expirationSeconds");
    if (expiration.isIntegralNumber() && expiration.asLong() < 600) {
      errors.add(FieldErrors.invalid("spec.expirationSeconds", expiration.asLong(),
          "may not specify a duration less than 600 seconds (10 minutes)"));
    }
  }

  private static void validateUsages(JsonNode usages, List<Status.Cause> errors) {
    if (usages.isEmpty()) {
      errors.add(FieldErrors.required("spec.usages", "usages must be provided"));
      return;
    }
    for (int i = 0; i < usages.size(); i++) {
      String usage = usages.get(i).asText("");
      if (!USAGES.contains(usage)) {
        errors.add(FieldErrors.notSupported("spec.usages[" + i + "]", usage, USAGES));
      }
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < usages.size(); i++) {
      String usage = usages.get(i).asText("");
      if (!seen.add(usage)) {
        errors.add(FieldErrors.duplicate("spec.usages[" + i + "]", usage));
      }
    }
  }

  /** kube's {@code ValidateSignerName}: {@code <domain>/<path>}, the domain of two labels or more. */
  static void validateSignerName(String field, String signerName, List<Status.Cause> errors) {
    if (signerName.isEmpty()) {
      errors.add(FieldErrors.required(field, ""));
      return;
    }
    String[] segments = signerName.split("/", -1);
    if (segments.length != 2) {
      errors.add(FieldErrors.invalid(field, signerName,
          "must be a fully qualified domain and path of the form 'example.com/signer-name'"));
      if (segments.length < 2) {
        return;
      }
    }
    String domain = segments[0];
    if (domain.length() > SUBDOMAIN_MAX) {
      errors.add(FieldErrors.tooLong(field, SUBDOMAIN_MAX));
    }
    String[] domainLabels = domain.split("\\.", -1);
    for (String label : domainLabels) {
      List<String> msgs = NameSyntax.isDns1123Label(label);
      msgs.forEach(m -> errors.add(FieldErrors.invalid(field, domain,
          "validating label " + FieldErrors.goValue(label) + ": " + m)));
      if (!msgs.isEmpty()) {
        break;
      }
    }
    if (domainLabels.length < 2) {
      errors.add(FieldErrors.invalid(field, domain, "should be a domain with at least two segments separated by dots"));
    }
    String path = segments[1];
    for (String component : path.split("\\.", -1)) {
      List<String> msgs = NameSyntax.isDns1123Subdomain(component);
      msgs.forEach(m -> errors.add(FieldErrors.invalid(field, path,
          "validating component " + FieldErrors.goValue(component) + ": " + m)));
      if (!msgs.isEmpty()) {
        break;
      }
    }
    int maxSignerName = SUBDOMAIN_MAX + (SUBDOMAIN_MAX + LABEL_MAX + 1) + 1;
    if (signerName.length() > maxSignerName) {
      errors.add(FieldErrors.tooLong(field, maxSignerName));
    }
  }

  /** The bytes of a JSON {@code []byte} (base64), empty when absent or not base64. */
  private static byte[] decode(JsonNode value) {
    if (value == null || !value.isTextual()) {
      return new byte[0];
    }
    try {
      return Base64.getDecoder().decode(value.textValue());
    } catch (IllegalArgumentException e) {
      return new byte[0];
    }
  }

  /**
   * Whether the first PEM block of {@code bytes} (as Go's {@code pem.Decode} finds it: BEGIN and END
   * lines of the same type around base64) is a {@code CERTIFICATE REQUEST}.
   */
  static boolean isCertificateRequest(byte[] bytes) {
    Matcher m = PEM_BLOCK.matcher(new String(bytes, StandardCharsets.ISO_8859_1));
    while (m.find()) {
      String body = m.group(2);
      if (body.contains(":")) { // headers precede a blank line
        int blank = body.indexOf("\n\n");
        body = blank < 0 ? body : body.substring(blank + 2);
      }
      try {
        Base64.getMimeDecoder().decode(body.replaceAll("\\s", ""));
      } catch (IllegalArgumentException e) {
        continue; // not a block: Go looks further
      }
      return m.group(1).equals("CERTIFICATE REQUEST");
    }
    return false;
  }

  /** Go's {@code %#v} of a {@code []byte}: {@code []byte(nil)} or {@code []byte{0x2d, ...}}. */
  static GoLiteral goBytes(byte[] bytes) {
    if (bytes == null) {
      return new GoLiteral("[]byte(nil)");
    }
    StringBuilder s = new StringBuilder("[]byte{");
    for (int i = 0; i < bytes.length; i++) {
      s.append(i == 0 ? "" : ", ").append(String.format("0x%x", bytes[i] & 0xff));
    }
    return new GoLiteral(s.append('}').toString());
  }

  private static void putIfNotEmpty(ObjectNode node, String field, String value) {
    if (!value.isEmpty()) {
      node.put(field, value);
    }
  }
}
