package io.listwatch.apiserver.apiextensions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.Strconv;
import io.listwatch.apiserver.validation.ObjectMetaValidator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * kube's {@code ConversionReview} (group {@code apiextensions.k8s.io}, version {@code v1} or
 * {@code v1beta1}, the same shape): the request a conversion webhook is sent, and the checks of
 * its answer, with kube's messages ({@code webhook_converter.go}): the review's kind and
 * version, {@code response.uid} the request's, {@code result.status} {@code Success}, then per
 * converted object the desired {@code apiVersion}, the original {@code kind}, {@code name},
 * {@code namespace} and {@code uid}, and metadata: only {@code labels} and
 * {@code annotations} may change (kube's {@code restoreObjectMeta}: everything else of the
 * original metadata is kept).
 *
 * <p>A failed check is an {@link InvalidResponse} whose message completes kube's
 * {@code conversion webhook for <gvk> failed: ...} (or {@code returned invalid object: ...},
 * {@code returned invalid metadata: ...}, as {@link InvalidResponse#prefix} says; a converted
 * object without a kind is kube's bare decoding error). Stateless.
 */
final class ConversionReview {

  static final String GROUP = "apiextensions.k8s.io";

  private ConversionReview() {
  }

  /** What was wrong with an answer, and which of kube's phrases introduces it. */
  static final class InvalidResponse extends Exception {
    private static final long serialVersionUID = 1L;

    /** {@code "failed"}, {@code "returned invalid object"}, ...; null when kube says the message alone. */
    final String prefix;

    InvalidResponse(String prefix, String message) {
      super(message, null, false, false);
      this.prefix = prefix;
    }
  }

  /** The review version to send: the first of {@code conversionReviewVersions} this server speaks, or null. */
  static String reviewVersion(JsonNode conversionReviewVersions) {
    for (JsonNode v : conversionReviewVersions) {
      if (v.asText().equals("v1") || v.asText().equals("v1beta1")) {
        return v.asText();
      }
    }
    return null;
  }

  /** The request: {@code objects} to be converted to {@code desiredApiVersion}. */
  static ObjectNode request(String reviewVersion, String uid, String desiredApiVersion, List<ObjectNode> objects) {
    ObjectNode review = JsonNodeFactory.instance.objectNode();
    review.put("kind", "ConversionReview");
    review.put("apiVersion", GROUP + "/" + reviewVersion);
    ObjectNode request = review.putObject("request");
    request.put("uid", uid);
    request.put("desiredAPIVersion", desiredApiVersion);
    objects.forEach(request.putArray("objects")::add);
    return review;
  }

  /**
   * The converted objects of a well-formed, successful answer to the request {@code uid} (kube
   * checks the kind, version and uid of v1 answers only).
   */
  static List<JsonNode> convertedObjects(String reviewVersion, String uid, JsonNode answer) throws InvalidResponse {
    boolean v1 = reviewVersion.equals("v1");
    String expected = GROUP + "/v1, Kind=ConversionReview";
    String got = gvk(answer.path("apiVersion").asText(""), answer.path("kind").asText(""));
    if (v1 && !expected.equals(got)) {
      throw invalidResponse("expected webhook response of " + expected + ", got " + got);
    }
    JsonNode response = answer.path("response");
    if (!response.isObject()) {
      throw invalidResponse("no response provided");
    }
    String answeredUid = response.path("uid").asText("");
    if (v1 && !answeredUid.equals(uid)) {
      throw invalidResponse("expected response.uid=" + Strconv.quote(uid) + ", got " + Strconv.quote(answeredUid));
    }
    JsonNode result = response.path("result");
    if (!result.path("status").asText("").equals(Status.SUCCESS)) {
      String message = result.path("message").asText("");
      throw invalidResponse(!message.isEmpty() ? message
          : "response.result.status was '" + result.path("status").asText("") + "', not 'Success'");
    }
    List<JsonNode> out = new ArrayList<>();
    response.path("convertedObjects").forEach(out::add);
    return out;
  }

  /**
   * {@code converted} checked against {@code original} and given the original's metadata but
   * for the labels and annotations the webhook set.
   */
  static ObjectNode checkedObject(ObjectNode original, JsonNode converted, String desiredApiVersion)
      throws InvalidResponse {
    if (!(converted instanceof ObjectNode out) || out.path("kind").asText("").isEmpty()) {
      throw new InvalidResponse(null, "Object 'Kind' is missing in '" + converted + "'");
    }
    String apiVersion = out.path("apiVersion").asText("");
    if (!apiVersion.equals(desiredApiVersion)) {
      throw new InvalidResponse("returned invalid object at index 0",
          "invalid groupVersion (expected " + desiredApiVersion + ", received " + apiVersion + ")");
    }
    String kind = original.path("kind").asText("");
    if (!kind.equals(out.path("kind").asText(""))) {
      throw new InvalidResponse("returned invalid object at index 0",
          "invalid kind (expected " + kind + ", received " + out.path("kind").asText("") + ")");
    }
    for (String field : List.of("name", "namespace", "uid")) {
      String before = original.path("metadata").path(field).asText("");
      String after = out.path("metadata").path(field).asText("");
      if (!before.equals(after)) {
        throw invalidObject("must have the same " + (field.equals("uid") ? "UID" : field) + ": " + before + " != " + after);
      }
    }
    restoreObjectMeta(original, out);
    return out;
  }

  /** kube's restoreObjectMeta: the original's metadata, with the converted labels and annotations. */
  private static void restoreObjectMeta(ObjectNode original, ObjectNode converted) throws InvalidResponse {
    JsonNode answered = converted.get("metadata");
    if (answered == null) {
      throw invalidMetadata("missing metadata in converted object");
    }
    if (!answered.isObject()) {
      throw invalidMetadata("invalid metadata of type " + goType(answered) + " in converted object");
    }
    ObjectNode meta = original.get("metadata") instanceof ObjectNode m ? m.deepCopy()
        : JsonNodeFactory.instance.objectNode();
    for (String field : List.of("labels", "annotations")) {
      JsonNode value = answered.get(field);
      if (value == null || value.isNull()) {
        meta.remove(field);
        continue;
      }
      if (!value.isObject()) {
        throw invalidMetadata("invalid metadata." + field + " of type " + goType(value) + " in converted object");
      }
      for (Map.Entry<String, JsonNode> e : value.properties()) {
        if (!e.getValue().isTextual()) {
          throw invalidMetadata("metadata." + field + "[" + e.getKey() + "] must be a string, but is "
              + goType(e.getValue()) + " in converted object");
        }
      }
      if (!value.equals(meta.get(field))) {
        List<Status.Cause> errors = new ArrayList<>();
        if (field.equals("labels")) {
          ObjectMetaValidator.validateLabels(value, "metadata.labels", errors);
        } else {
          ObjectMetaValidator.validateAnnotations(value, "metadata.annotation", errors); // kube's path
        }
        if (!errors.isEmpty()) {
          throw invalidMetadata(aggregate(errors));
        }
      }
      meta.set(field, value);
    }
    converted.set("metadata", meta);
  }

  /** Go's {@code errs.ToAggregate().Error()} of field errors. */
  private static String aggregate(List<Status.Cause> errors) {
    List<String> each = errors.stream().map(c -> c.field() + ": " + c.message()).distinct().toList();
    return each.size() == 1 ? each.getFirst() : "[" + String.join(", ", each) + "]";
  }

  /** kube's {@code GroupVersionKind.String()}: {@code group/version, Kind=kind}. */
  static String gvk(String apiVersion, String kind) {
    return apiVersion + ", Kind=" + kind;
  }

  /** The Go type a JSON value decodes to, as {@code %T} prints it. */
  private static String goType(JsonNode value) {
    if (value.isTextual()) {
      return "string";
    }
    if (value.isNumber()) {
      return value.canConvertToLong() && value.isIntegralNumber() ? "int64" : "float64";
    }
    if (value.isBoolean()) {
      return "bool";
    }
    if (value.isArray()) {
      return "[]interface {}";
    }
    return value.isObject() ? "map[string]interface {}" : "<nil>";
  }

  private static InvalidResponse invalidResponse(String message) {
    return new InvalidResponse("failed", message);
  }

  private static InvalidResponse invalidObject(String message) {
    return new InvalidResponse("returned invalid object", message);
  }

  private static InvalidResponse invalidMetadata(String message) {
    return new InvalidResponse("returned invalid metadata", message);
  }
}
