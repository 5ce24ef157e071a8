package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.time.Instant;
import java.util.List;

/**
 * APIServices (apiregistration.k8s.io/v1), kube-aggregator's strategy, defaults and validation.
 *
 * <p>Defaults ({@code SetDefaults_ServiceReference}): a service's {@code port} 443.
 *
 * <p>Create ({@code PrepareForCreate}): the client's status is dropped, and a local APIService
 * (no {@code spec.service}) starts Available ({@code Local}). Update: the status is the stored
 * one; through {@code /status} the spec, labels, annotations, finalizers and owner references
 * are the stored ones and each condition's status must be True, False or Unknown.
 *
 * <p>Validation ({@code ValidateAPIService}): the name must be {@code <version>.<group>};
 * only {@code v1} may have an empty group (legacy kube), a group is a DNS-1123 subdomain and a
 * version a DNS-1035 label; {@code groupPriorityMinimum} in 1..20000, {@code versionPriority}
 * in 1..1000; a local APIService may have neither a caBundle nor insecureSkipTLSVerify; a
 * service needs a namespace and a name, and insecureSkipTLSVerify may not come with a caBundle.
 * Stateless.
 */
final class APIServiceStrategy implements RestStrategy {

  private static final List<String> CONDITION_STATUSES = List.of("True", "False", "Unknown");

  @Override
  public void defaults(ObjectNode obj) {
    if (obj.path("spec").path("service") instanceof ObjectNode service) {
      Fields.defaultIfAbsent(service, "port", 443);
    }
  }

  @Override
  public void prepareForCreate(ObjectNode obj, Instant now) {
    obj.remove("status");
    if (isLocal(obj)) {
      ObjectNode condition = obj.putObject("status").putArray("conditions").addObject();
      condition.put("type", "Available").put("status", "True").put("lastTransitionTime", now.toString())
          .put("reason", "Local").put("message", "Local APIServices are always available");
    }
  }

  @Override
  public void prepareForUpdate(ObjectNode obj, ObjectNode old) {
    CertificateSigningRequestStrategy.keepStored(obj, old, "status");
  }

  @Override
  public void prepareForStatusUpdate(ObjectNode obj, ObjectNode old) {
    ObjectNode meta = (ObjectNode) obj.path("metadata");
    for (String field : List.of("labels", "annotations", "finalizers", "ownerReferences")) {
      CertificateSigningRequestStrategy.keepStored(meta, old.path("metadata"), field);
    }
    List<Status.Cause> errors = new java.util.ArrayList<>();
    JsonNode conditions = obj.path("status").path("conditions");
    for (int i = 0; i < conditions.size(); i++) {
      String status = conditions.get(i).path("status").asText("");
      if (!CONDITION_STATUSES.contains(status)) {
        errors.add(FieldErrors.notSupported("status.conditions[" + i + "].status", status, CONDITION_STATUSES));
      }
    }
    StatusValidation.refuse("apiregistration.k8s.io", "APIService", obj, errors);
  }

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    JsonNode spec = obj.path("spec");
    String group = spec.path("group").asText("");
    String version = spec.path("version").asText("");
    String name = obj.path("metadata").path("name").asText("");
    String required = version + "." + group;
    if (!name.isEmpty() && NameSyntax.isValidPathSegmentName(name).isEmpty() && !name.equals(required)) {
      errors.add(FieldErrors.invalid("metadata.name", name,
          "must be `spec.version+\".\"+spec.group`: " + FieldErrors.goValue(required)));
    }
    if (group.isEmpty() && !version.equals("v1")) {
      errors.add(FieldErrors.required("spec.group", "only v1 may have an empty group and it better be legacy kube"));
    }
    if (!group.isEmpty()) {
      NameSyntax.isDns1123Subdomain(group).forEach(e -> errors.add(FieldErrors.invalid("spec.group", group, e)));
    }
    NameSyntax.isDns1035Label(version).forEach(e -> errors.add(FieldErrors.invalid("spec.version", version, e)));
    long groupPriority = spec.path("groupPriorityMinimum").asLong(0);
    if (groupPriority <= 0 || groupPriority > 20000) {
      errors.add(FieldErrors.invalid("spec.groupPriorityMinimum", groupPriority, "must be positive and less than 20000"));
    }
    long versionPriority = spec.path("versionPriority").asLong(0);
    if (versionPriority <= 0 || versionPriority > 1000) {
      errors.add(FieldErrors.invalid("spec.versionPriority", versionPriority, "must be positive and less than 1000"));
    }
    String caBundle = spec.path("caBundle").asText("");
    int caBytes = caBundle.isEmpty() ? 0 : java.util.Base64.getDecoder().decode(caBundle).length;
    boolean insecure = spec.path("insecureSkipTLSVerify").asBoolean(false);
    if (isLocal(obj)) {
      if (caBytes != 0) {
        errors.add(FieldErrors.invalid("spec.caBundle", caBytes + " bytes", "local APIServices may not have a caBundle"));
      }
      if (insecure) {
        errors.add(FieldErrors.invalid("spec.insecureSkipTLSVerify", true,
            "local APIServices may not have insecureSkipTLSVerify"));
      }
      return;
    }
    JsonNode service = spec.path("service");
    if (service.path("namespace").asText("").isEmpty()) {
      errors.add(FieldErrors.required("spec.service.namespace", ""));
    }
    if (service.path("name").asText("").isEmpty()) {
      errors.add(FieldErrors.required("spec.service.name", ""));
    }
    if (insecure && caBytes > 0) {
      errors.add(FieldErrors.invalid("spec.insecureSkipTLSVerify", true, "may not be true if caBundle is present"));
    }
  }

  /** Whether the APIService is served by this server ({@code spec.service} absent or null). */
  static boolean isLocal(JsonNode apiService) {
    JsonNode service = apiService.path("spec").path("service");
    return service.isMissingNode() || service.isNull();
  }
}
