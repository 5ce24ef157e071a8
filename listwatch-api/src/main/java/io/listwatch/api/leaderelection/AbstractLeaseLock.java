package io.listwatch.api.leaderelection;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What every lock over a {@code coordination.k8s.io/v1} Lease shares, whichever way it reaches
 * the Lease (the client's through the API, the server's through its own store): the Lease's
 * namespace and name, the candidate's identity, and the Lease a create writes. Subclasses read
 * and write it, guarded by the version they last saw.
 *
 * <p>As {@link ResourceLock}: used from one elector's thread.
 */
public abstract class AbstractLeaseLock implements ResourceLock {

  /** The Lease's namespace. */
  protected final String namespace;
  /** The Lease's name. */
  protected final String name;
  private final String identity;

  /**
   * A lock on Lease {@code namespace/name} for the candidate {@code identity}.
   *
   * @throws IllegalArgumentException if any is null or empty
   */
  protected AbstractLeaseLock(String namespace, String name, String identity) {
    this.namespace = requireNonEmpty(namespace, "namespace");
    this.name = requireNonEmpty(name, "name");
    this.identity = requireNonEmpty(identity, "identity");
  }

  /** A new Lease of this lock holding {@code record}, as a create sends it. */
  protected ObjectNode newLease(LeaderElectionRecord record) {
    ObjectNode lease = JsonNodeFactory.instance.objectNode();
    lease.put("apiVersion", "coordination.k8s.io/v1").put("kind", "Lease");
    lease.putObject("metadata").put("namespace", namespace).put("name", name);
    LeaseSpec.write(lease.putObject("spec"), record);
    return lease;
  }

  @Override
  public String identity() {
    return identity;
  }

  @Override
  public String describe() {
    return namespace + "/" + name;
  }

  private static String requireNonEmpty(String value, String what) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException(what + " must not be empty");
    }
    return value;
  }
}
