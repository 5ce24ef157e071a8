package io.listwatch.client.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.listwatch.client.ResourceType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A user's webhook manifests made to call a test's local webhook server, as envtest's
 * {@code WebhookInstallOptions} does: every webhook of a MutatingWebhookConfiguration or
 * ValidatingWebhookConfiguration, and the conversion webhook of a CustomResourceDefinition, gets
 * a {@code clientConfig} of {@code url: <base><path>} (the path of its Service reference, or of
 * its URL) and the local server's {@code caBundle}; nothing else changes. Stateless.
 */
final class WebhookManifests {

  private static final YAMLMapper YAML = new YAMLMapper();

  /** What an object of a manifest is written as, by its kind. */
  static final List<ResourceType> KINDS = List.of(
      new ResourceType("admissionregistration.k8s.io", "v1", "mutatingwebhookconfigurations",
          "MutatingWebhookConfiguration", false),
      new ResourceType("admissionregistration.k8s.io", "v1", "validatingwebhookconfigurations",
          "ValidatingWebhookConfiguration", false),
      new ResourceType("apiextensions.k8s.io", "v1", "customresourcedefinitions", "CustomResourceDefinition",
          false));

  private WebhookManifests() {
  }

  /**
   * The objects of {@code manifests} (YAML or JSON files, several documents each, or directories
   * of them read in name order), rewritten to call {@code base} trusting {@code caBundle}.
   *
   * @throws IllegalArgumentException for an object of another kind than {@link #KINDS}
   */
  static List<ObjectNode> read(List<Path> manifests, URI base, String caBundle) {
    List<ObjectNode> out = new ArrayList<>();
    for (Path file : files(manifests)) {
      try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
        while (docs.hasNext()) {
          JsonNode doc = docs.next();
          if (doc instanceof ObjectNode o && !o.isEmpty()) {
            out.add(rewrite(o, base, caBundle, file));
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + file, e);
      }
    }
    return out;
  }

  /** The kind {@code object} is created as. */
  static ResourceType type(ObjectNode object) {
    String kind = object.path("kind").asText();
    return KINDS.stream().filter(t -> t.kind().equals(kind)).findFirst().orElseThrow();
  }

  private static List<Path> files(List<Path> manifests) {
    List<Path> files = new ArrayList<>();
    for (Path p : manifests) {
      if (Files.isDirectory(p)) {
        try (Stream<Path> in = Files.list(p)) {
          in.filter(f -> f.toString().matches(".*\\.(ya?ml|json)$")).sorted().forEach(files::add);
        } catch (IOException e) {
          throw new UncheckedIOException("cannot list " + p, e);
        }
      } else {
        files.add(p);
      }
    }
    return files;
  }

  private static ObjectNode rewrite(ObjectNode object, URI base, String caBundle, Path file) {
    String kind = object.path("kind").asText();
    switch (kind) {
      case "MutatingWebhookConfiguration", "ValidatingWebhookConfiguration" -> {
        for (JsonNode webhook : object.path("webhooks")) {
          if (webhook instanceof ObjectNode w) {
            w.set("clientConfig", clientConfig(w.path("clientConfig"), base, caBundle));
          }
        }
      }
      case "CustomResourceDefinition" -> {
        JsonNode webhook = object.path("spec").path("conversion").path("webhook");
        if (webhook instanceof ObjectNode w && object.path("spec").path("conversion").path("strategy").asText()
            .equals("Webhook")) {
          w.set("clientConfig", clientConfig(w.path("clientConfig"), base, caBundle));
        }
      }
      default -> throw new IllegalArgumentException(file + ": " + kind + " " + object.path("metadata").path("name")
          .asText() + " is not a webhook configuration or a CustomResourceDefinition");
    }
    return object;
  }

  private static ObjectNode clientConfig(JsonNode old, URI base, String caBundle) {
    String path = old.has("service") ? old.path("service").path("path").asText("")
        : URI.create(old.path("url").asText("https://localhost/")).getRawPath();
    if (path == null || path.isEmpty()) {
      path = "/";
    }
    ObjectNode out = YAML.createObjectNode();
    out.put("url", base.resolve(path.startsWith("/") ? path : "/" + path).toString());
    out.put("caBundle", caBundle);
    return out;
  }
}
