package io.listwatch.apiserver.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.registry.ResourceDefinition;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/**
 * What kube's conversion of a written v1 Secret to its internal form does: {@code stringData}
 * is a write-only convenience, each of its entries replaces the entry of {@code data} with the
 * same key (the value's UTF-8 bytes, base64 in JSON), and {@code stringData} itself is neither
 * stored nor returned. It applies to every body a client writes: create, update and the result
 * of a patch. Stateless.
 */
final class SecretConversion {

  private SecretConversion() {
  }

  /** Merges {@code stringData} into {@code data} if {@code obj} is a core/v1 Secret; changes {@code obj}. */
  static void convertWritten(ResourceDefinition def, ObjectNode obj) {
    if (!def.group().isEmpty() || !def.plural().equals("secrets") || !obj.has("stringData")) {
      return;
    }
    JsonNode stringData = obj.remove("stringData");
    if (!(stringData instanceof ObjectNode entries) || entries.isEmpty()) {
      return;
    }
    ObjectNode data = obj.get("data") instanceof ObjectNode d ? d : obj.putObject("data");
    for (Map.Entry<String, JsonNode> e : entries.properties()) {
      data.put(e.getKey(), Base64.getEncoder().encodeToString(e.getValue().asText().getBytes(StandardCharsets.UTF_8)));
    }
  }
}
