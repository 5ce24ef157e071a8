package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;

/**
 * ServiceAccounts (core/v1), kube's strategy: on create and update each of {@code secrets}
 * keeps only its {@code name} ({@code cleanSecretReferences}). kube validates nothing of a
 * ServiceAccount beyond its metadata ({@code ValidateServiceAccount}); neither
 * {@code secrets} nor {@code imagePullSecrets} is checked. Stateless.
 */
final class ServiceAccountStrategy implements RestStrategy {

  @Override
  public void prepareForCreate(ObjectNode obj, Instant now) {
    cleanSecretReferences(obj);
  }

  @Override
  public void prepareForUpdate(ObjectNode obj, ObjectNode old) {
    cleanSecretReferences(obj);
  }

  private static void cleanSecretReferences(ObjectNode obj) {
    if (!(obj.get("secrets") instanceof ArrayNode secrets)) {
      return;
    }
    for (int i = 0; i < secrets.size(); i++) {
      JsonNode name = secrets.get(i).path("name");
      ObjectNode ref = secrets.objectNode();
      if (name.isTextual() && !name.asText().isEmpty()) {
        ref.set("name", name);
      }
      secrets.set(i, ref);
    }
  }
}
