package io.listwatch.apiserver.request;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.apiserver.cacher.CachedObject;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.registry.ResourceRegistry;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A response's JSON, the same whatever transport sends it. */
class ApiResponseTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ResourceDefinition PODS = ResourceRegistry.builtins().find("", "v1", "pods").orElseThrow();

  private static JsonNode parse(byte[][] parts) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.write(part);
    }
    return JSON.readTree(out.toByteArray());
  }

  private static CachedObject pod(String name) {
    byte[] json = ("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\"}}").getBytes(StandardCharsets.UTF_8);
    return new CachedObject("/registry/core/pods/ns/" + name, "ns", name, 7, json, Map.of(), Map.of());
  }

  @Test
  void aList_isKubesListDocument_aroundTheCachedBytesOfItsItems() throws Exception {
    CachedObject a = pod("a");
    ApiResponse.ListBody list = new ApiResponse.ListBody(PODS, 42, "token", 3L, List.of(a, pod("b")));

    byte[][] parts = new ApiResponse(200, list).jsonParts().orElseThrow();
    JsonNode doc = parse(parts);

    assertThat(doc.path("kind").asText()).isEqualTo("PodList");
    assertThat(doc.path("apiVersion").asText()).isEqualTo("v1");
    assertThat(doc.at("/metadata/resourceVersion").asText()).isEqualTo("42");
    assertThat(doc.at("/metadata/continue").asText()).isEqualTo("token");
    assertThat(doc.at("/metadata/remainingItemCount").asLong()).isEqualTo(3);
    assertThat(doc.path("items")).extracting(i -> i.at("/metadata/name").asText()).containsExactly("a", "b");
    assertThat(java.util.Arrays.stream(parts).anyMatch(p -> p == a.json()))
        .as("the item's cached bytes themselves, not a copy").isTrue();
  }

  @Test
  void anEmptyLastPage_hasEmptyItems_andNoContinue() throws Exception {
    JsonNode doc = parse(new ApiResponse(200, new ApiResponse.ListBody(PODS, 1, null, null, List.of()))
        .jsonParts().orElseThrow());
    assertThat(doc.path("items").isArray()).isTrue();
    assertThat(doc.path("items")).isEmpty();
    assertThat(doc.path("metadata").has("continue")).isFalse();
    assertThat(doc.path("metadata").has("remainingItemCount")).isFalse();
  }

  @Test
  void aValue_isSerialized_andTextIsNotJson() throws Exception {
    JsonNode value = parse(ApiResponse.ok(Map.of("kind", "Status", "code", 200)).jsonParts().orElseThrow());
    assertThat(value.path("kind").asText()).isEqualTo("Status");
    assertThat(value.path("code").asInt()).isEqualTo(200);
    assertThat(ApiResponse.okText("ok").jsonParts()).isEmpty();
  }
}
