package io.listwatch.server.apiextensions;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.server.registry.CustomResourceVersion;
import io.listwatch.server.registry.ResourceDefinition;
import java.util.ArrayList;
import java.util.List;

/**
 * How a CustomResourceDefinition becomes the {@link ResourceDefinition}s the server serves:
 * one per served version, each carrying its {@link CustomResourceVersion}. Stateless;
 * thread-safe.
 */
public final class CustomResources {

  private CustomResources() {
  }

  /**
   * The resource one version of a definition declares.
   *
   * @param spec the CustomResourceDefinition's {@code spec}
   * @param version the entry of {@code spec.versions} to serve
   */
  public static ResourceDefinition definition(JsonNode spec, JsonNode version) {
    JsonNode names = spec.path("names");
    ResourceDefinition.Builder b = ResourceDefinition.builder(spec.path("group").asText(),
        version.path("name").asText(), names.path("kind").asText(), names.path("plural").asText());
    if (!names.path("listKind").asText("").isEmpty()) {
      b.listKind(names.path("listKind").asText());
    }
    if (!names.path("singular").asText("").isEmpty()) {
      b.singular(names.path("singular").asText());
    }
    b.shortNames(strings(names.path("shortNames")));
    b.categories(strings(names.path("categories")));
    if (spec.path("scope").asText().equals("Cluster")) {
      b.clusterScoped();
    }
    b.tracksGeneration(); // kube sets metadata.generation on every custom resource
    if (version.path("subresources").has("status")) {
      b.hasStatus();
    }
    b.customResource(new CustomResourceVersion(spec.deepCopy(), version.deepCopy()));
    return b.build();
  }

  private static String[] strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(s -> out.add(s.asText()));
    return out.toArray(String[]::new);
  }

}
