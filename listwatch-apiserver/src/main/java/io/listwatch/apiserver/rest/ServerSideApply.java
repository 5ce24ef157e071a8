package io.listwatch.apiserver.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Reasons;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.api.apply.BuiltinApplySchema;
import io.listwatch.api.apply.FieldManager;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.RequestInfo;
import java.io.IOException;
import java.util.List;

/**
 * The request side of server-side apply ({@code PATCH} with
 * {@code Content-Type: application/apply-patch+yaml}): the applied configuration read from the
 * YAML (or JSON) body and checked as kube checks it, and a built-in kind's
 * {@link FieldManager}, which merges it and records ownership in
 * {@code metadata.managedFields} ({@code io.listwatch.api.apply}); a custom resource's field
 * manager is its {@link WriteStrategy}'s, by its schema.
 *
 * <p>Checked, as kube: {@code fieldManager} is given (else 422 on PatchOptions:
 * {@code fieldManager: Required value: is required for apply patch}); {@code force} is only for
 * apply (422 otherwise); the body is one object of the URL's apiVersion and kind (400), naming
 * the URL's object if it names one (400). Stateless; thread-safe.
 */
final class ServerSideApply {

  /** The media type of an apply patch. */
  static final String MEDIA_TYPE = "application/apply-patch+yaml";

  private ServerSideApply() {
  }

  /** Whether a PATCH's media type asks for server-side apply. */
  static boolean isApply(String mediaType) {
    return MEDIA_TYPE.equals(mediaType);
  }

  /** The field manager of a built-in kind: merge keys and list types from kube's markers. */
  static FieldManager fieldManager(ResourceDefinition def) {
    return new FieldManager(BuiltinApplySchema.forKind(def.group(), def.version(), def.kind()));
  }

  /** kube's PatchOptions checks: {@code force} only with apply, {@code fieldManager} required by it. */
  static void checkOptions(ApiRequest request, boolean apply) {
    if (!apply) {
      if (!request.param("force").isEmpty()) {
        throw StatusException.invalid("meta.k8s.io", "PatchOptions", "", List.of(new Status.Cause(
            Reasons.FIELD_VALUE_FORBIDDEN, "Forbidden: may not be specified for non-apply patch", "force")));
      }
      return;
    }
    if (request.param("fieldManager").isEmpty()) {
      throw StatusException.invalid("meta.k8s.io", "PatchOptions", "", List.of(new Status.Cause(
          Reasons.FIELD_VALUE_REQUIRED, "Required value: is required for apply patch", "fieldManager")));
    }
  }

  /**
   * Refuses an applied configuration that is not an object of the resource's schema (a list-map
   * item without its key, duplicate keys, a list-map item that is not an object), before anything
   * is applied. kube-apiserver answers these 500 with the same message (its typed conversion
   * error is not a Status; kubernetes/kubernetes#139253); listwatch answers 400, as for other
   * bad input.
   */
  static void checkTyped(ResourceDefinition def, RequestInfo info, io.listwatch.api.apply.FieldManager fieldManager,
      ObjectNode applied) {
    try {
      fieldManager.appliedFields(applied);
    } catch (IllegalArgumentException e) {
      throw typedPatchError(def, info, e.getMessage());
    }
  }

  /** kube's error for an applied configuration that does not convert to its type. */
  private static StatusException typedPatchError(ResourceDefinition def, RequestInfo info, String detail) {
    return StatusException.badRequest("failed to create typed patch object (" + info.namespace()
        + (info.namespace().isEmpty() ? "" : "/") + info.name() + "; " + def.apiVersion() + ", Kind=" + def.kind()
        + "): " + detail);
  }

  /** The applied configuration of a request for the object {@code info} names. */
  static ObjectNode appliedConfiguration(ResourceDefinition def, RequestInfo info, ApiRequest request) {
    JsonNode body;
    try {
      body = JsonBodies.YAML.readTree(request.body());
    } catch (IOException e) {
      throw StatusException.badRequest("error decoding YAML: " + e.getMessage());
    }
    if (!(body instanceof ObjectNode applied)) {
      throw StatusException.badRequest("the body of an apply patch must be an object");
    }
    String apiVersion = applied.path("apiVersion").asText("");
    String kind = applied.path("kind").asText("");
    if (!apiVersion.equals(def.apiVersion()) || !kind.equals(def.kind())) {
      throw StatusException.badRequest("the apiVersion and kind of the applied object (" + apiVersion + ", " + kind
          + ") must be those of the resource (" + def.apiVersion() + ", " + def.kind() + ")");
    }
    JsonNode metadata = applied.path("metadata");
    if (metadata.isNull()) {
      applied.remove("metadata"); // Go's zero value: no metadata, as kube decodes a null struct
    } else if (!metadata.isMissingNode() && !metadata.isObject()) {
      throw typedPatchError(def, info, ".metadata: expected map, got " + metadata);
    }
    String name = applied.path("metadata").path("name").asText("");
    if (!name.isEmpty() && !name.equals(info.name())) {
      throw StatusException.badRequest("the name of the object (" + name + ") does not match the name on the URL ("
          + info.name() + ")");
    }
    return applied;
  }
}
