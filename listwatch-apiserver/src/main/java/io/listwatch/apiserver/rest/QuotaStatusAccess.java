package io.listwatch.apiserver.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.apiserver.admission.AdmissionAttributes;
import io.listwatch.apiserver.admission.ResourceQuota;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The ResourceQuota plug-in's access to quotas ({@link ResourceQuota.QuotaAccessor}), over the
 * store of {@code resourcequotas}: reads from storage, and {@code /status} writes as the server
 * itself that hold only while the quota keeps the resourceVersion the plug-in read (kube's
 * {@code UpdateStatus} with the quota's resourceVersion). The plug-in is made before the stores,
 * so the store is looked up when first used. Thread-safe.
 */
final class QuotaStatusAccess implements ResourceQuota.QuotaAccessor {

  private final Supplier<ResourceStore> quotas;
  private final Clock clock;

  QuotaStatusAccess(Supplier<ResourceStore> quotas, Clock clock) {
    this.quotas = quotas;
    this.clock = clock;
  }

  @Override
  public CompletableFuture<Optional<ObjectNode>> get(String namespace, String name) {
    return quotas.get().getInternal(namespace, name);
  }

  @Override
  public CompletableFuture<ObjectNode> updateStatus(ObjectNode quota) {
    ObjectNode meta = ObjectMetaDefaults.metadata(quota);
    String namespace = meta.path("namespace").asText();
    String name = meta.path("name").asText();
    String version = meta.path("resourceVersion").asText();
    return quotas.get().guaranteedUpdate(namespace, name, ResourceStore.Part.STATUS, false, AdmissionAttributes.SERVER,
        current -> {
          if (!ObjectMetaDefaults.metadata(current).path("resourceVersion").asText().equals(version)) {
            throw StatusException.conflictModified("", "resourcequotas", name);
          }
          current.set("status", quota.path("status").deepCopy());
          return current;
        });
  }

  @Override
  public Instant now() {
    return clock.now();
  }
}
