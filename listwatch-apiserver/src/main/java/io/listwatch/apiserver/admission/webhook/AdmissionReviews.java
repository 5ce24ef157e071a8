package io.listwatch.apiserver.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.admission.AdmissionAttributes;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.request.UserInfo;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * AdmissionReview v1 ({@code admission.k8s.io/v1}), as kube-apiserver writes its requests and
 * checks the webhooks' responses (kube's {@code webhook/request/admissionreview.go}). Stateless.
 */
final class AdmissionReviews {

  static final ObjectMapper JSON = new ObjectMapper();
  static final String API_VERSION = "admission.k8s.io/v1";
  static final String KIND = "AdmissionReview";

  private AdmissionReviews() {
  }

  /**
   * What a webhook answered, checked (kube's {@code AdmissionResponse}).
   *
   * @param allowed whether it lets the write through
   * @param result its {@code status} (missing when it gave none)
   * @param patch the decoded {@code patch}, or null
   * @param patchType its {@code patchType}, "" when none
   * @param warnings its warnings
   * @param auditAnnotations its audit annotations
   */
  record Response(boolean allowed, JsonNode result, byte[] patch, String patchType, List<String> warnings,
      Map<String, String> auditAnnotations) {
  }

  /**
   * The {@code request} of a review (kube's {@code CreateV1AdmissionReview}), fields in kube's
   * order; {@code object} and {@code oldObject} as given (null when there is none).
   */
  static ObjectNode request(String uid, WebhookInvocation invocation, AdmissionAttributes a, JsonNode object,
      JsonNode oldObject) {
    ObjectNode r = JSON.createObjectNode();
    r.put("uid", uid);
    r.putObject("kind").put("group", invocation.kindGroup()).put("version", invocation.kindVersion())
        .put("kind", invocation.kind());
    r.putObject("resource").put("group", invocation.group()).put("version", invocation.version())
        .put("resource", invocation.resource());
    if (!invocation.subresource().isEmpty()) {
      r.put("subResource", invocation.subresource());
    }
    ResourceDefinition def = a.resource();
    String[] requestKind = requestKind(def, a.subresource());
    r.putObject("requestKind").put("group", requestKind[0]).put("version", requestKind[1]).put("kind", requestKind[2]);
    r.putObject("requestResource").put("group", def.group()).put("version", def.version())
        .put("resource", def.plural());
    if (!a.subresource().isEmpty()) {
      r.put("requestSubResource", a.subresource());
    }
    if (!a.name().isEmpty()) {
      r.put("name", a.name());
    }
    String namespace = namespace(a);
    if (!namespace.isEmpty()) {
      r.put("namespace", namespace);
    }
    r.put("operation", a.operation().name());
    r.set("userInfo", userInfo(a.user()));
    r.set("object", object == null ? NullNode.getInstance() : object);
    r.set("oldObject", oldObject == null ? NullNode.getInstance() : oldObject);
    r.put("dryRun", a.dryRun());
    r.set("options", options(a));
    return r;
  }

  /**
   * The request's namespace as kube's admission sees it: for a Namespace itself, its own name
   * when the request's path names it (updates and deletes), as kube's request info does.
   */
  static String namespace(AdmissionAttributes a) {
    boolean namespaceObject = a.resource().group().isEmpty() && a.resource().plural().equals("namespaces");
    return namespaceObject && a.operation() != AdmissionAttributes.Operation.CREATE ? a.name() : a.namespace();
  }

  /** The whole review posted to a webhook. */
  static ObjectNode review(ObjectNode request) {
    ObjectNode review = JSON.createObjectNode().put("kind", KIND).put("apiVersion", API_VERSION);
    review.set("request", request);
    return review;
  }

  /** The group, version and kind of a write of {@code subresource} of {@code def} (kube's {@code GetKind}). */
  static String[] requestKind(ResourceDefinition def, String subresource) {
    ResourceDefinition.Subresource sub = subresource.isEmpty() ? null : def.subresources().get(subresource);
    if (sub == null) {
      return new String[] {def.group(), def.version(), def.kind()};
    }
    return new String[] {sub.group().isEmpty() ? def.group() : sub.group(),
        sub.version().isEmpty() ? def.version() : sub.version(), sub.kind()};
  }

  private static ObjectNode userInfo(UserInfo user) {
    ObjectNode u = JSON.createObjectNode();
    if (!user.name().isEmpty()) {
      u.put("username", user.name());
    }
    if (user.uid() != null && !user.uid().isEmpty()) {
      u.put("uid", user.uid());
    }
    if (!user.groups().isEmpty()) {
      ArrayNode groups = u.putArray("groups");
      user.groups().forEach(groups::add);
    }
    if (user.extra() != null && !user.extra().isEmpty()) {
      ObjectNode extra = u.putObject("extra");
      user.extra().forEach((k, v) -> {
        ArrayNode values = extra.putArray(k);
        v.forEach(values::add);
      });
    }
    return u;
  }

  /** kube's operation options of the write: CreateOptions, UpdateOptions or DeleteOptions of meta.k8s.io/v1. */
  private static ObjectNode options(AdmissionAttributes a) {
    String kind = switch (a.operation()) {
      case CREATE -> "CreateOptions";
      case UPDATE -> "UpdateOptions";
      case DELETE -> "DeleteOptions";
    };
    ObjectNode o = JSON.createObjectNode().put("kind", kind).put("apiVersion", "meta.k8s.io/v1");
    if (a.dryRun()) {
      o.putArray("dryRun").add("All");
    }
    return o;
  }

  /**
   * The checked response of a review kube sent with {@code uid} (kube's
   * {@code VerifyAdmissionResponse}).
   *
   * @throws IllegalArgumentException with kube's reason when it is not a usable answer
   */
  static Response verify(String uid, boolean mutating, JsonNode review) {
    JsonNode r = review.path("response");
    if (!r.isObject()) {
      throw new IllegalArgumentException("webhook response was absent");
    }
    String gotUid = r.path("uid").asText("");
    if (!gotUid.equals(uid)) {
      throw new IllegalArgumentException("expected response.uid=\"" + uid + "\", got \"" + gotUid + "\"");
    }
    String apiVersion = review.path("apiVersion").asText("");
    String kind = review.path("kind").asText("");
    if (!apiVersion.equals(API_VERSION) || !kind.equals(KIND)) {
      int slash = apiVersion.indexOf('/');
      String gv = slash < 0 ? "/" + apiVersion : apiVersion;
      throw new IllegalArgumentException("expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got "
          + gv + ", Kind=" + kind);
    }
    byte[] patch = r.hasNonNull("patch") ? Base64.getDecoder().decode(r.get("patch").asText()) : new byte[0];
    boolean hasPatchType = r.hasNonNull("patchType");
    String patchType = r.path("patchType").asText("");
    if (mutating) {
      if (patch.length > 0 && !hasPatchType) {
        throw new IllegalArgumentException("webhook returned response.patch but not response.patchType");
      }
      if (hasPatchType && patch.length == 0) {
        throw new IllegalArgumentException("webhook returned response.patchType but not response.patch");
      }
      if (hasPatchType && patchType.isEmpty()) {
        throw new IllegalArgumentException("webhook returned invalid response.patchType of \"\"");
      }
    } else {
      if (patch.length > 0) {
        throw new IllegalArgumentException("validating webhook may not return response.patch");
      }
      if (hasPatchType) {
        throw new IllegalArgumentException("validating webhook may not return response.patchType");
      }
    }
    List<String> warnings = new ArrayList<>();
    r.path("warnings").forEach(w -> warnings.add(w.asText()));
    Map<String, String> annotations = new LinkedHashMap<>();
    r.path("auditAnnotations").properties().forEach(e -> annotations.put(e.getKey(), e.getValue().asText()));
    return new Response(r.path("allowed").asBoolean(false), r.path("status"), patch.length == 0 ? null : patch,
        patchType, List.copyOf(warnings), annotations);
  }
}
