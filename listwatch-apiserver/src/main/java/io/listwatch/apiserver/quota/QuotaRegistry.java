package io.listwatch.apiserver.quota;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which {@link QuotaEvaluator} measures a resource (kube's quota registry,
 * {@code pkg/quota/v1/install}): pods, Services and PersistentVolumeClaims have their own; every
 * other resource is counted ({@link ObjectCountEvaluator}), with kube's legacy names for
 * ConfigMaps, Secrets, ResourceQuotas and ReplicationControllers; Events are never quota'd, as in
 * kube. Stateless.
 */
public final class QuotaRegistry {

  private static final Map<String, String> LEGACY_NAMES = Map.of("configmaps", "configmaps", "secrets", "secrets",
      "resourcequotas", "resourcequotas", "replicationcontrollers", "replicationcontrollers");
  /** kube's resources ignored by quota that this server stores. */
  private static final Set<String> IGNORED = Set.of("/events", "events.k8s.io/events");

  private QuotaRegistry() {
  }

  /** The evaluator of {@code group}/{@code plural}, or empty when quota ignores the resource. */
  public static Optional<QuotaEvaluator> forResource(String group, String plural) {
    if (IGNORED.contains(group + "/" + plural)) {
      return Optional.empty();
    }
    if (group.isEmpty()) {
      switch (plural) {
        case "pods" -> {
          return Optional.of(new PodEvaluator());
        }
        case "services" -> {
          return Optional.of(new ServiceEvaluator());
        }
        case "persistentvolumeclaims" -> {
          return Optional.of(new PersistentVolumeClaimEvaluator());
        }
        default -> {
          return Optional.of(new ObjectCountEvaluator(group, plural, LEGACY_NAMES.get(plural)));
        }
      }
    }
    return Optional.of(new ObjectCountEvaluator(group, plural, null));
  }
}
