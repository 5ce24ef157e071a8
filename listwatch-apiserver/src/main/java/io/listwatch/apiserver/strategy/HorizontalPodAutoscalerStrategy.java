package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.registry.HorizontalPodAutoscalerConversion;
import io.listwatch.apiserver.registry.HorizontalPodAutoscalerDefaults;
import java.util.ArrayList;
import java.util.List;

/**
 * HorizontalPodAutoscalers (autoscaling/v2 and v1; kube 1.32's
 * {@code pkg/registry/autoscaling/horizontalpodautoscaler/strategy.go}): a create drops the
 * status (the definition's {@code clearsStatusOnCreate}), an update keeps it and {@code /status}
 * keeps the spec (the definition's {@code hasStatus}); no generation is tracked (kube's
 * HPAGeneration came later). Validation is {@link HorizontalPodAutoscalerValidation} on the v2
 * form, kube's internal type; on update {@code minReplicas: 0} stays allowed when the stored
 * object has it.
 *
 * <p>{@link #V1} sees v1 objects: it defaults them as kube's v1 does, then gives them the form
 * kube's round trip through the internal type gives (CPU target 80% when no metric, the
 * round-trip annotations rewritten; {@link HorizontalPodAutoscalerConversion}), and validates
 * their v2 form. As kube keeps the internal status on an update and the internal spec on a
 * status update, the annotations that carry them in v1 are kept too. Stateless.
 */
final class HorizontalPodAutoscalerStrategy implements RestStrategy {

  /** autoscaling/v2. */
  static final HorizontalPodAutoscalerStrategy V2 = new HorizontalPodAutoscalerStrategy(false);
  /** autoscaling/v1. */
  static final HorizontalPodAutoscalerStrategy V1 = new HorizontalPodAutoscalerStrategy(true);

  private static final List<String> STATUS_ANNOTATIONS =
      List.of(HorizontalPodAutoscalerConversion.CURRENT_METRICS, HorizontalPodAutoscalerConversion.CONDITIONS);
  private static final List<String> SPEC_ANNOTATIONS =
      List.of(HorizontalPodAutoscalerConversion.METRICS, HorizontalPodAutoscalerConversion.BEHAVIOR);

  private final boolean v1;

  private HorizontalPodAutoscalerStrategy(boolean v1) {
    this.v1 = v1;
  }

  @Override
  public void defaults(ObjectNode obj) {
    if (!v1) {
      HorizontalPodAutoscalerDefaults.v2(obj);
      HorizontalPodAutoscalerConversion.dropRoundTripAnnotations(obj);
      return;
    }
    HorizontalPodAutoscalerDefaults.v1(obj);
    String apiVersion = obj.path("apiVersion").asText("");
    if (apiVersion.isEmpty() || apiVersion.equals("autoscaling/v1")) { // another one is refused later
      obj.put("apiVersion", "autoscaling/v1");
      ObjectNode roundTripped = HorizontalPodAutoscalerConversion.toV1(HorizontalPodAutoscalerConversion.toV2(obj));
      obj.removeAll();
      obj.setAll(roundTripped);
    }
  }

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    JsonNode oldMin = old == null ? null : internal(old).path("spec").path("minReplicas");
    int lowerBound = oldMin != null && oldMin.isIntegralNumber() && oldMin.longValue() == 0 ? 0 : 1;
    HorizontalPodAutoscalerValidation.spec(internal(obj).path("spec"), lowerBound, errors);
  }

  @Override
  public void prepareForCreate(ObjectNode obj, java.time.Instant now) {
    if (v1) {
      keepAnnotations(obj, null, STATUS_ANNOTATIONS); // the status is dropped: what v1 keeps of it too
    }
  }

  @Override
  public void prepareForUpdate(ObjectNode obj, ObjectNode old) {
    if (v1) {
      keepAnnotations(obj, old, STATUS_ANNOTATIONS);
    }
  }

  @Override
  public void prepareForStatusUpdate(ObjectNode obj, ObjectNode old) {
    if (v1) {
      keepAnnotations(obj, old, SPEC_ANNOTATIONS);
    }
    List<Status.Cause> errors = new ArrayList<>();
    HorizontalPodAutoscalerValidation.status(internal(obj).path("status"), errors);
    StatusValidation.refuse("autoscaling", "HorizontalPodAutoscaler", obj, errors);
  }

  /** The v2 form kube validates (its internal type). */
  private ObjectNode internal(ObjectNode obj) {
    return v1 ? HorizontalPodAutoscalerConversion.toV2(obj) : obj;
  }

  /** Sets {@code keys} of {@code obj}'s annotations to {@code old}'s (removed where {@code old} has none). */
  private static void keepAnnotations(ObjectNode obj, ObjectNode old, List<String> keys) {
    JsonNode oldAnnotations = old == null ? null : old.path("metadata").get("annotations");
    ObjectNode meta = obj.get("metadata") instanceof ObjectNode m ? m : obj.putObject("metadata");
    ObjectNode annotations = meta.get("annotations") instanceof ObjectNode a ? a : meta.putObject("annotations");
    for (String key : keys) {
      JsonNode kept = oldAnnotations == null ? null : oldAnnotations.get(key);
      if (kept == null) {
        annotations.remove(key);
      } else {
        annotations.set(key, kept.deepCopy());
      }
    }
    if (annotations.isEmpty()) {
      meta.remove("annotations");
    }
  }
}
