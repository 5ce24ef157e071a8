package io.listwatch.apiserver.rest;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.Reasons;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.request.ApiRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * kube's {@code DeleteOptions}, from a DELETE's body and query (the query wins where both say
 * something, as kube merges them): preconditions, {@code dryRun}, {@code gracePeriodSeconds},
 * {@code propagationPolicy}, the older {@code orphanDependents}, and
 * {@code ignoreStoreReadErrorWithClusterBreakingPotential} when the feature gate
 * {@code AllowUnsafeMalformedObjectDeletion} is on. Immutable.
 *
 * @param uid the {@code preconditions.uid}, "" for none
 * @param resourceVersion the {@code preconditions.resourceVersion}, "" for none
 * @param dryRun {@code dryRun: ["All"]}
 * @param gracePeriodSeconds null when not given; negative values are taken as 1, as kube does
 * @param propagation null when neither {@code propagationPolicy} nor {@code orphanDependents} was
 *     given (the resource's default applies)
 * @param ignoreStoreReadError {@code ignoreStoreReadErrorWithClusterBreakingPotential: true} with
 *     its feature gate on: remove the object although its stored value cannot be read, skipping
 *     preconditions, finalizers and admission (see {@link ResourceStore}'s unsafe delete); never
 *     together with any other option
 */
public record DeleteOptions(String uid, String resourceVersion, boolean dryRun, Long gracePeriodSeconds,
    Propagation propagation, boolean ignoreStoreReadError) {

  /** The option's name, which is also the field path of its errors. */
  static final String IGNORE_STORE_READ_ERROR = "ignoreStoreReadErrorWithClusterBreakingPotential";

  /** kube's {@code DeletionPropagation}. */
  public enum Propagation {
    /** Dependents keep existing; their ownerReferences to the deleted object are removed first. */
    Orphan,
    /** The object goes at once; the garbage collector deletes its dependents afterwards. */
    Background,
    /** The object stays (finalizer {@code foregroundDeletion}) until its blocking dependents are gone. */
    Foreground
  }

  /** No options: the resource's defaults. */
  public static final DeleteOptions DEFAULTS = new DeleteOptions("", "", false, null, null, false);

  /** Immediate deletion of the object with {@code uid}, as a node agent or the server itself asks for it. */
  public static DeleteOptions immediate(String uid) {
    return new DeleteOptions(uid, "", false, 0L, null, false);
  }

  /** Deletion of the object with {@code uid} (if it is still that one) with the given policy. */
  public static DeleteOptions of(String uid, Propagation p) {
    return new DeleteOptions(uid, "", false, null, p, false);
  }

  /** These options with another propagation policy. */
  public DeleteOptions withPropagation(Propagation p) {
    return new DeleteOptions(uid, resourceVersion, dryRun, gracePeriodSeconds, p, ignoreStoreReadError);
  }

  /** {@link #parse(ApiRequest, JsonNode, boolean)} with the unsafe delete's gate off (the option is dropped). */
  static DeleteOptions parse(ApiRequest request, JsonNode body) {
    return parse(request, body, false);
  }

  /**
   * Reads the options of a DELETE: the body (a DeleteOptions object, or empty) and the query
   * parameters {@code dryRun}, {@code gracePeriodSeconds}, {@code propagationPolicy},
   * {@code orphanDependents} and {@code ignoreStoreReadErrorWithClusterBreakingPotential}. As
   * kube's handler, the last is dropped unless {@code allowUnsafeDelete} (the feature gate
   * {@code AllowUnsafeMalformedObjectDeletion}) is on.
   *
   * @throws StatusException 400 for a body that is not an object or a bad number, boolean or
   *     dryRun value; 422 (kind DeleteOptions) for an unknown propagation policy, both
   *     {@code orphanDependents} and {@code propagationPolicy}, or the unsafe delete with any
   *     other option
   */
  static DeleteOptions parse(ApiRequest request, JsonNode body, boolean allowUnsafeDelete) {
    if (body != null && !body.isObject() && !body.isNull()) {
      throw StatusException.badRequest("the body of a delete request must be a DeleteOptions object");
    }
    JsonNode b = body == null ? com.fasterxml.jackson.databind.node.NullNode.instance : body;
    checkTypes(b);
    boolean dryRun = request.isDryRun();
    for (JsonNode d : b.path("dryRun")) {
      if (!d.asText().equals("All")) {
        throw StatusException.badRequest("Unsupported value: \"" + d.asText() + "\": supported values: \"All\"");
      }
      dryRun = true;
    }
    Long grace = b.path("gracePeriodSeconds").isIntegralNumber() ? b.path("gracePeriodSeconds").asLong() : null;
    String q = request.param("gracePeriodSeconds");
    if (!q.isEmpty()) {
      try {
        grace = Long.parseLong(q);
      } catch (NumberFormatException e) {
        throw StatusException.badRequest("invalid gracePeriodSeconds: " + q);
      }
    }
    if (grace != null && grace < 0) {
      grace = 1L;
    }
    String policy = request.param("propagationPolicy");
    if (policy.isEmpty()) {
      policy = b.path("propagationPolicy").asText("");
    }
    String orphanParam = request.param("orphanDependents");
    Boolean orphan = !orphanParam.isEmpty() ? Boolean.valueOf(orphanParam)
        : b.path("orphanDependents").isBoolean() ? b.path("orphanDependents").booleanValue() : null;
    List<Status.Cause> causes = new ArrayList<>();
    Propagation propagation = null;
    if (!policy.isEmpty()) {
      switch (policy) {
        case "Orphan" -> propagation = Propagation.Orphan;
        case "Background" -> propagation = Propagation.Background;
        case "Foreground" -> propagation = Propagation.Foreground;
        default -> causes.add(new Status.Cause(Reasons.FIELD_VALUE_NOT_SUPPORTED, "Unsupported value: \"" + policy
            + "\": supported values: \"Foreground\", \"Background\", \"Orphan\"", "propagationPolicy"));
      }
      if (orphan != null) {
        causes.add(new Status.Cause(Reasons.FIELD_VALUE_INVALID, "Invalid value: \"" + policy
            + "\": orphanDependents and deletionPropagation cannot be both set", "propagationPolicy"));
      }
    } else if (orphan != null) {
      propagation = orphan ? Propagation.Orphan : Propagation.Background;
    }
    JsonNode pre = b.path("preconditions");
    boolean asked = ignoreStoreReadError(request, b); // read (and a bad value refused) with the gate off too
    boolean unsafe = allowUnsafeDelete && asked;
    if (unsafe) {
      // kube's ValidateDeleteOptions: the unsafe delete takes no other option
      java.util.Map<String, Boolean> others = new java.util.LinkedHashMap<>();
      others.put("dryRun", dryRun);
      others.put("propagationPolicy", !policy.isEmpty());
      others.put("orphanDependents", orphan != null);
      others.put("gracePeriodSeconds", grace != null);
      others.put("preconditions", !pre.isMissingNode() && !pre.isNull());
      others.forEach((option, given) -> {
        if (given) {
          causes.add(new Status.Cause(Reasons.FIELD_VALUE_INVALID,
              "Invalid value: true: cannot be set together with ." + option, IGNORE_STORE_READ_ERROR));
        }
      });
    }
    if (!causes.isEmpty()) {
      throw StatusException.invalid("meta.k8s.io", "DeleteOptions", "", causes);
    }
    return new DeleteOptions(pre.path("uid").asText(""), pre.path("resourceVersion").asText(""), dryRun, grace,
        propagation, unsafe);
  }

  /**
   * The option {@code ignoreStoreReadErrorWithClusterBreakingPotential}, from the query (Go's
   * boolean spellings, 400 for anything else) or else the body.
   */
  private static boolean ignoreStoreReadError(ApiRequest request, JsonNode body) {
    String q = request.param(IGNORE_STORE_READ_ERROR);
    if (q.isEmpty()) {
      return body.path(IGNORE_STORE_READ_ERROR).asBoolean(false);
    }
    try {
      return io.listwatch.api.Strconv.parseBool(q);
    } catch (IllegalArgumentException e) {
      throw StatusException.badRequest(e.getMessage());
    }
  }

  /**
   * A field of the body whose JSON type its Go field cannot hold: 400 with Go's decoding message
   * ({@code json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds
   * of type int64}). By our reading of kube's delete handler its decoder's error is not a Status,
   * which kube-apiserver answers 500; a bad body is the client's error, so listwatch answers 400.
   */
  private static void checkTypes(JsonNode b) {
    expect(b.path("gracePeriodSeconds"), JsonNode::isIntegralNumber, "DeleteOptions.gracePeriodSeconds", "int64");
    expect(b.path("orphanDependents"), JsonNode::isBoolean, "DeleteOptions.orphanDependents", "bool");
    expect(b.path(IGNORE_STORE_READ_ERROR), JsonNode::isBoolean, "DeleteOptions." + IGNORE_STORE_READ_ERROR, "bool");
    expect(b.path("propagationPolicy"), JsonNode::isTextual, "DeleteOptions.propagationPolicy",
        "v1.DeletionPropagation");
    JsonNode dryRun = b.path("dryRun");
    expect(dryRun, JsonNode::isArray, "DeleteOptions.dryRun", "[]string");
    for (JsonNode d : dryRun) {
      expect(d, JsonNode::isTextual, "DeleteOptions.dryRun", "string");
    }
    JsonNode pre = b.path("preconditions");
    expect(pre, JsonNode::isObject, "DeleteOptions.preconditions", "v1.Preconditions");
    expect(pre.path("uid"), JsonNode::isTextual, "DeleteOptions.preconditions.uid", "types.UID");
    expect(pre.path("resourceVersion"), JsonNode::isTextual, "DeleteOptions.preconditions.resourceVersion", "string");
  }

  private static void expect(JsonNode v, java.util.function.Predicate<JsonNode> holds, String field, String goType) {
    if (!v.isMissingNode() && !v.isNull() && !holds.test(v)) {
      throw StatusException.badRequest("json: cannot unmarshal " + io.listwatch.api.patch.GoValues.jsonKind(v)
          + " into Go struct field " + field + " of type " + goType);
    }
  }
}
