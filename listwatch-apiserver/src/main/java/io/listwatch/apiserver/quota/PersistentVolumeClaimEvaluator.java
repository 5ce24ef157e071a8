package io.listwatch.apiserver.quota;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.core.Quantity;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Quota of PersistentVolumeClaims (kube's {@code pvcEvaluator}): each uses
 * {@code persistentvolumeclaims} and {@code count/persistentvolumeclaims}, and
 * {@code requests.storage} what it requests (rounded up to whole bytes; the larger of that and
 * {@code status.allocatedResources.storage} when both are there); a claim of a storage class
 * also uses {@code <class>.storageclass.storage.k8s.io/persistentvolumeclaims} and
 * {@code <class>.storageclass.storage.k8s.io/requests.storage}. The class is
 * {@code spec.storageClassName}, else the beta annotation
 * {@code volume.beta.kubernetes.io/storage-class}. Creates and updates (a resize) are measured.
 * No scopes (kube 1.32's VolumeAttributesClass scope is off by default), no constraints.
 * Stateless.
 */
public final class PersistentVolumeClaimEvaluator implements QuotaEvaluator {

  private static final String COUNT = QuotaEvaluator.objectCountName("", "persistentvolumeclaims");
  private static final List<String> RESOURCES = List.of("persistentvolumeclaims", "requests.storage");
  private static final String BY_CLASS = ".storageclass.storage.k8s.io/";

  @Override
  public String group() {
    return "";
  }

  @Override
  public String plural() {
    return "persistentvolumeclaims";
  }

  @Override
  public boolean handlesUpdates() {
    return true;
  }

  @Override
  public List<String> matchingResources(Collection<String> input) {
    return input.stream().filter(name -> name.equals(COUNT) || RESOURCES.contains(name)
        || RESOURCES.stream().anyMatch(r -> name.endsWith(BY_CLASS + r))).toList();
  }

  @Override
  public ResourceList usage(JsonNode claim, Instant now) {
    Map<String, Quantity> out = new TreeMap<>();
    out.put("persistentvolumeclaims", Quantity.ofCount(1));
    out.put(COUNT, Quantity.ofCount(1));
    String storageClass = storageClass(claim);
    if (!storageClass.isEmpty()) {
      out.put(storageClass + BY_CLASS + "persistentvolumeclaims", Quantity.ofCount(1));
    }
    Quantity storage = storage(claim);
    if (storage != null) {
      out.put("requests.storage", storage);
      if (!storageClass.isEmpty()) {
        out.put(storageClass + BY_CLASS + "requests.storage", storage);
      }
    }
    return ResourceList.of(out);
  }

  private static Quantity storage(JsonNode claim) {
    Quantity requested = ResourceList.fromJson(claim.path("spec").path("resources").path("requests")).get("storage");
    if (requested == null) {
      return null;
    }
    Quantity result = requested.roundUpToInteger();
    Quantity allocated = ResourceList.fromJson(claim.path("status").path("allocatedResources")).get("storage");
    return allocated != null && allocated.compareTo(result) > 0 ? allocated.roundUpToInteger() : result;
  }

  /** kube's {@code GetPersistentVolumeClaimClass}: the beta annotation first, then the spec's field. */
  private static String storageClass(JsonNode claim) {
    JsonNode annotation = claim.path("metadata").path("annotations").path("volume.beta.kubernetes.io/storage-class");
    if (annotation.isTextual()) {
      return annotation.asText();
    }
    return claim.path("spec").path("storageClassName").asText("");
  }
}
