package io.listwatch.apiserver.apiextensions;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.apiserver.printers.CustomResourceTableConvertor;
import io.listwatch.apiserver.registry.CustomResourceVersion;
import io.listwatch.apiserver.registry.FieldExtractor;
import io.listwatch.apiserver.registry.ResourceDefinition;
import java.util.ArrayList;
import java.util.List;

/**
 * How a CustomResourceDefinition becomes the {@link ResourceDefinition}s the server serves:
 * one per served version, each carrying its {@link CustomResourceVersion}, its Table columns
 * ({@link CustomResourceTableConvertor}), its {@code selectableFields} (a missing field selects
 * as {@code ""}, a number or boolean as its JSON text) and its {@code scale} subresource. Stateless;
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
    return definition(spec, version, io.listwatch.apiserver.registry.CustomResourceConverter.NONE);
  }

  /**
   * {@link #definition(JsonNode, JsonNode)}, its objects moved between versions by
   * {@code converter} (the definition's {@code spec.conversion}).
   */
  public static ResourceDefinition definition(JsonNode spec, JsonNode version,
      io.listwatch.apiserver.registry.CustomResourceConverter converter) {
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
    b.tracksGeneration(); // every custom resource starts at generation 1 (CustomResourceStrategy moves it)
    if (version.path("subresources").has("status")) {
      b.hasStatus().clearsStatusOnCreate(); // kube's strategy drops a new object's status then
    }
    if (version.path("subresources").has("scale")) {
      b.subresource("scale", "autoscaling", "v1", "Scale", "get", "patch", "update");
    }
    b.tableConvertor(CustomResourceTableConvertor.of(version.path("additionalPrinterColumns")));
    for (JsonNode field : version.path("selectableFields")) {
      // kube names the field by its path without the leading dot: spec.color
      String path = field.path("jsonPath").asText("");
      String name = path.startsWith(".") ? path.substring(1) : path;
      b.selectableField(name, FieldExtractor.string(name));
    }
    b.customResource(new CustomResourceVersion(spec.deepCopy(), version.deepCopy(), converter));
    return b.build();
  }

  private static String[] strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(s -> out.add(s.asText()));
    return out.toArray(String[]::new);
  }

}
