package io.listwatch.client.leaderelection;

import io.listwatch.api.leaderelection.AbstractLeaseLock;
import io.listwatch.api.leaderelection.LeaderElectionRecord;
import io.listwatch.api.leaderelection.LeaseSpec;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.internal.Json;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link io.listwatch.api.leaderelection.ResourceLock} over a {@code coordination.k8s.io/v1} Lease (client-go's
 * {@code LeaseLock}): the record lives in the Lease's spec, times as kube's MicroTime
 * (RFC 3339 with microseconds), and every write is a PUT guarded by the resourceVersion last
 * read or written, so a concurrent writer gets 409 Conflict.
 *
 * <p>Confined to its elector's thread (it remembers the last Lease it saw).
 */
public final class LeaseLock extends AbstractLeaseLock {

  private final ResourceClient<DynamicObject> leases;
  /** The Lease last read or written, or null; its resourceVersion guards the next update. */
  private DynamicObject lease;

  /**
   * A lock on Lease {@code namespace/name}, for the candidate {@code identity}.
   */
  public LeaseLock(KubeClient client, String namespace, String name, String identity) {
    super(namespace, name, identity);
    this.leases = Objects.requireNonNull(client, "client").dynamic(ResourceType.LEASES);
  }

  @Override
  public Optional<LeaderElectionRecord> get() {
    Optional<DynamicObject> found = leases.get(namespace, name);
    lease = found.orElse(null);
    return found.map(LeaseLock::toRecord);
  }

  @Override
  public void create(LeaderElectionRecord record) {
    lease = leases.create(DynamicObject.of(newLease(record)));
  }

  @Override
  public void update(LeaderElectionRecord record) {
    if (lease == null) {
      throw new IllegalStateException("update before get or create of " + describe());
    }
    ObjectNode tree = lease.toTree();
    LeaseSpec.write(tree.putObject("spec"), record);
    lease = leases.update(DynamicObject.of(tree));
  }

  /** The record a Lease holds; missing fields read as empty, zero or null. */
  static LeaderElectionRecord toRecord(DynamicObject lease) {
    return LeaseSpec.read(lease.get("spec").orElse(Json.MAPPER.createObjectNode()));
  }
}
