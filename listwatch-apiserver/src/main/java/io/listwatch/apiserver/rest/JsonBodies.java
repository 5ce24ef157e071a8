package io.listwatch.apiserver.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.listwatch.api.JsonLimits;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.RequestInfo;
import java.io.IOException;

/**
 * Reads request bodies in JSON or YAML ({@code application/yaml}, which kube-apiserver decodes
 * to JSON for every kind), with kube's 400 and 415 answers. YAML is read within the JSON
 * limits ({@link JsonLimits}) and SnakeYAML's own (50 aliases, so no billion laughs).
 * Stateless.
 */
final class JsonBodies {

  /** kube's media type of a YAML body. */
  static final String YAML_MEDIA_TYPE = "application/yaml";
  /** Reads YAML within the JSON limits; also what server-side apply reads its body with. */
  static final ObjectMapper YAML = yamlMapper();

  private JsonBodies() {
  }

  private static ObjectMapper yamlMapper() {
    YAMLFactory yaml = new YAMLFactory(); // not its builder: built so, an empty value read as "", not null
    yaml.setStreamReadConstraints(JsonLimits.READ);
    return new ObjectMapper(yaml);
  }

  /** Whether a body of {@code mediaType} is read as JSON or YAML: those two, none, or {@code *}{@code /*}. */
  static boolean isJsonOrYaml(String mediaType) {
    return mediaType.isEmpty() || mediaType.equals("application/json") || mediaType.equals("*/*")
        || mediaType.equals(YAML_MEDIA_TYPE);
  }

  /** kube's 415 for a body in a type it does not read; {@code protobuf} when the kind is also read in protobuf. */
  static StatusException unsupportedMediaType(boolean protobuf) {
    return StatusException.unsupportedMediaType("the body of the request was in an unknown format - accepted "
        + "media types include: application/json, " + YAML_MEDIA_TYPE
        + (protobuf ? ", " + io.listwatch.apiserver.protobuf.KubeProtobuf.MEDIA_TYPE : ""));
  }

  /** The body, a JSON object, read as YAML for {@code application/yaml} and as JSON otherwise; 400 if it is not one. */
  static ObjectNode object(byte[] body, String mediaType) {
    JsonNode node = YAML_MEDIA_TYPE.equals(mediaType) ? parseYaml(body) : parse(body);
    if (!(node instanceof ObjectNode o)) {
      throw StatusException.badRequest("the body of the request must be a JSON object");
    }
    return o;
  }

  private static JsonNode parseYaml(byte[] body) {
    if (body.length == 0) {
      throw StatusException.badRequest("the request has no body");
    }
    try {
      return YAML.readTree(body);
    } catch (IOException e) {
      throw StatusException.badRequest("error converting YAML to JSON: " + e.getMessage());
    }
  }

  /**
   * The body of a {@code POST} to a pod's {@code binding} or {@code eviction}: 405 for another
   * method, 404 without a namespace and name, and 400, in kube's words, when the body names
   * another object than the URL.
   *
   * @param kind the body's kind, for the message ({@code Binding}, {@code Eviction})
   */
  static ObjectNode subresourcePost(RequestInfo info, ApiRequest request, String kind) {
    if (!ApiRequest.POST.equals(request.method())) {
      throw StatusException.methodNotAllowed();
    }
    if (info.name().isEmpty() || info.namespace().isEmpty()) {
      throw StatusException.pathNotFound();
    }
    ObjectNode body = object(request);
    String bodyName = body.path("metadata").path("name").asText("");
    if (!bodyName.isEmpty() && !bodyName.equals(info.name())) {
      throw StatusException.badRequest("name in URL does not match name in " + kind + " object");
    }
    return body;
  }

  static ObjectNode object(ApiRequest request) {
    if (!isJsonOrYaml(request.mediaType())) {
      throw unsupportedMediaType(false);
    }
    return object(request.body(), request.mediaType());
  }

  static JsonNode parse(byte[] body) {
    if (body.length == 0) {
      throw StatusException.badRequest("the request has no body");
    }
    try {
      return ResourceStore.MAPPER.readTree(body);
    } catch (JsonProcessingException e) {
      throw StatusException.badRequest("the body of the request is not valid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw StatusException.badRequest("cannot read the body of the request: " + e.getMessage());
    }
  }
}
