package io.listwatch.client;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.client.internal.Json;

/**
 * The body of a DELETE: kube's {@code meta/v1 DeleteOptions}. Immutable.
 *
 * @param gracePeriodSeconds seconds before the object goes (pods; 0: now), null for the
 *     object's default
 * @param preconditionUid the object is deleted only if its uid is this (else 409 Conflict),
 *     "" for no precondition
 * @param preconditionResourceVersion likewise for its resourceVersion, "" for none
 * @param propagationPolicy {@code Orphan}, {@code Background} or {@code Foreground}, "" for the
 *     resource's default
 */
public record DeleteOptions(Long gracePeriodSeconds, String preconditionUid, String preconditionResourceVersion,
    String propagationPolicy) {

  /** No options: the resource's defaults. */
  public static final DeleteOptions DEFAULTS = new DeleteOptions(null, "", "", "");

  public DeleteOptions {
    preconditionUid = preconditionUid == null ? "" : preconditionUid;
    preconditionResourceVersion = preconditionResourceVersion == null ? "" : preconditionResourceVersion;
    propagationPolicy = propagationPolicy == null ? "" : propagationPolicy;
  }

  /**
   * Deletion now ({@code gracePeriodSeconds: 0}) of the object with {@code uid} only: what a
   * node agent sends once a pod's containers have stopped.
   */
  public static DeleteOptions immediate(String uid) {
    return new DeleteOptions(0L, uid, "", "");
  }

  /** The options as the JSON object kube reads ({@code kind: DeleteOptions}). */
  public ObjectNode toTree() {
    ObjectNode o = Json.MAPPER.createObjectNode().put("kind", "DeleteOptions").put("apiVersion", "v1");
    if (gracePeriodSeconds != null) {
      o.put("gracePeriodSeconds", gracePeriodSeconds);
    }
    if (!preconditionUid.isEmpty() || !preconditionResourceVersion.isEmpty()) {
      ObjectNode p = o.putObject("preconditions");
      if (!preconditionUid.isEmpty()) {
        p.put("uid", preconditionUid);
      }
      if (!preconditionResourceVersion.isEmpty()) {
        p.put("resourceVersion", preconditionResourceVersion);
      }
    }
    if (!propagationPolicy.isEmpty()) {
      o.put("propagationPolicy", propagationPolicy);
    }
    return o;
  }
}
