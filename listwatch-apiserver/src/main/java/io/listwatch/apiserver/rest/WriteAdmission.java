package io.listwatch.apiserver.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.request.UserInfo;

/**
 * A check of one resource's writes that needs the object and the user, run before the write is
 * stored (kube keeps such checks in a type's REST storage or validation, e.g. RBAC's escalation
 * check and its rule validation). Registered with {@link ServedResources#admission}. Runs for create,
 * update and patch (dry runs included), on the object as the request makes it; the server's
 * own writes (startup, controllers) do not pass here. Implementations are thread-safe and do
 * not block.
 */
@FunctionalInterface
public interface WriteAdmission {

  /**
   * Throws a StatusException to refuse the write.
   *
   * @param namespace the request's namespace, "" for a cluster-scoped resource
   * @param object the object to store (may still lack server-set metadata); a check may set
   *     the type's defaults in it (as kube's defaulting does before validation)
   * @param old the current object for an update or patch, null for a create
   */
  void admit(UserInfo user, String namespace, ObjectNode object, ObjectNode old);
}
