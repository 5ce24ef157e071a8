package io.listwatch.api.leaderelection;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.meta.KubeTime;
import java.time.Instant;

/**
 * How a {@link LeaderElectionRecord} is held in a {@code coordination.k8s.io/v1} Lease's
 * {@code spec}: {@code holderIdentity}, {@code leaseDurationSeconds}, {@code acquireTime} and
 * {@code renewTime} (as {@code MicroTime}), {@code leaseTransitions}. The one place both the
 * client's Lease lock and the server's read and write it. Stateless.
 */
public final class LeaseSpec {

  private LeaseSpec() {
  }

  /** The record {@code spec} holds; missing or unreadable fields read as empty, zero or null. */
  public static LeaderElectionRecord read(JsonNode spec) {
    return new LeaderElectionRecord(
        spec.path("holderIdentity").asText(""),
        spec.path("leaseDurationSeconds").asInt(0),
        time(spec.path("acquireTime")),
        time(spec.path("renewTime")),
        spec.path("leaseTransitions").asInt(0));
  }

  /** Writes {@code record} into {@code spec}, leaving null times out. */
  public static void write(ObjectNode spec, LeaderElectionRecord record) {
    spec.put("holderIdentity", record.holderIdentity());
    spec.put("leaseDurationSeconds", record.leaseDurationSeconds());
    if (record.acquireTime() != null) {
      spec.put("acquireTime", KubeTime.microTime(record.acquireTime()));
    }
    if (record.renewTime() != null) {
      spec.put("renewTime", KubeTime.microTime(record.renewTime()));
    }
    spec.put("leaseTransitions", record.leaseTransitions());
  }

  private static Instant time(JsonNode node) {
    // a time we cannot read counts as absent; validity never depends on it
    return node.isTextual() ? KubeTime.parse(node.asText()) : null;
  }
}
