package io.listwatch.apiserver.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.request.AuditAnnotations;
import io.listwatch.apiserver.request.UserInfo;

/**
 * One write as the admission plug-ins see it (kube's {@code admission.Attributes}). The
 * object is the one about to be stored, in place: a mutating plug-in changes it, a validating
 * one only reads it.
 *
 * @param operation what the write does
 * @param resource the resource written
 * @param subresource "" for the main resource, else its name ({@code status}, {@code binding})
 * @param namespace the request's namespace, "" for a cluster-scoped resource
 * @param name the object's name ("" when a create generates it)
 * @param object the object to store (mutable by mutating plug-ins); null for a delete
 * @param oldObject the stored object for an update or a delete, null for a create
 * @param user who asks; {@link #SERVER} for the server's own writes
 * @param dryRun whether nothing will be stored
 * @param warnings where a plug-in records warnings for the client
 * @param auditAnnotations where a plug-in notes annotations for the request's audit event
 *     ({@link #addAnnotation})
 */
public record AdmissionAttributes(Operation operation, ResourceDefinition resource, String subresource,
    String namespace, String name, ObjectNode object, ObjectNode oldObject, UserInfo user, boolean dryRun,
    Warnings warnings, AuditAnnotations auditAnnotations) {

  /** Attributes whose warnings and audit annotations reach no one (the server's own writes, tests). */
  public AdmissionAttributes(Operation operation, ResourceDefinition resource, String subresource, String namespace,
      String name, ObjectNode object, ObjectNode oldObject, UserInfo user, boolean dryRun) {
    this(operation, resource, subresource, namespace, name, object, oldObject, user, dryRun, new Warnings(),
        new AuditAnnotations());
  }

  /**
   * kube's {@code Attributes.AddAnnotation}: notes {@code key: value} in the request's audit event
   * (see {@link AuditAnnotations#add} for kube's rules on keys and second values).
   *
   * @return false when {@code key} already had another value, which it keeps
   */
  public boolean addAnnotation(String key, String value) {
    return auditAnnotations.add(key, value);
  }

  /** The identity of the server's own writes (startup objects, its controllers). */
  public static final UserInfo SERVER = UserInfo.of("system:apiserver", java.util.List.of(UserInfo.MASTERS));

  /**
   * kube's admission operations that this server admits. Only plug-ins that say they
   * {@linkplain AdmissionPlugin#handles handle} {@link #DELETE} see deletes.
   */
  public enum Operation {
    CREATE, UPDATE, DELETE
  }

  /** Whether this is {@code operation} on the main resource of {@code group}/{@code plural}. */
  public boolean is(Operation operation, String group, String plural) {
    return this.operation == operation && subresource.isEmpty() && resource.group().equals(group)
        && resource.plural().equals(plural);
  }
}
