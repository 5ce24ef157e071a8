package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.List;
import java.util.Map;

/**
 * ConfigMaps (core/v1), kube's {@code ValidateConfigMap} and {@code ValidateConfigMapUpdate}:
 * the keys of {@code data} and {@code binaryData} are config keys and none is in both; all
 * values together at most 1 MiB (the error at the path {@code ""}, the whole object); once
 * {@code immutable} is true, {@code immutable}, {@code data} and {@code binaryData} no longer
 * change. Stateless.
 */
final class ConfigMapStrategy implements RestStrategy {

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    DataMaps.immutable(obj, old, List.of("data", "binaryData"), errors);
    long size = DataMaps.keys(obj, "data", false, errors);
    for (Map.Entry<String, ?> e : obj.path("data").properties()) {
      if (obj.path("binaryData").has(e.getKey())) {
        errors.add(FieldErrors.invalid("data[" + e.getKey() + "]", e.getKey(), "duplicate of key present in binaryData"));
      }
    }
    size += DataMaps.keys(obj, "binaryData", true, errors);
    DataMaps.maxSize(size, "", errors);
  }
}
