package io.listwatch.client;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Objects;

/**
 * kube's {@code OwnerReference} (meta/v1): an object this one depends on, as listed in
 * {@link ObjectMeta#ownerReferences()}. When every owner is deleted, the garbage collector
 * deletes the dependent. Immutable.
 *
 * @param apiVersion the owner's apiVersion
 * @param kind the owner's kind
 * @param name the owner's name (in the dependent's namespace, or cluster-scoped)
 * @param uid the owner's uid: a reference to a deleted and recreated owner of the same name
 *     does not match the new one
 * @param controller whether the owner is the dependent's managing controller (at most one is)
 * @param blockOwnerDeletion whether a foreground deletion of the owner waits for this dependent
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record OwnerReference(String apiVersion, String kind, String name, String uid, Boolean controller,
    Boolean blockOwnerDeletion) {

  public OwnerReference {
    Objects.requireNonNull(apiVersion, "apiVersion");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(uid, "uid");
  }
}
