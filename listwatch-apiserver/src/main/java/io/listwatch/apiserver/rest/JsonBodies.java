package io.listwatch.apiserver.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.RequestInfo;
import java.io.IOException;

/** Reads JSON request bodies of subresources, with kube's 400 and 415 answers. Stateless. */
final class JsonBodies {

  private JsonBodies() {
  }

  /** The body as a JSON object; 415 for a media type other than JSON, 400 when it is not an object. */
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
    String type = request.mediaType();
    if (!type.isEmpty() && !type.equals("application/json") && !type.equals("*/*")) {
      throw StatusException.unsupportedMediaType("the body of the request was in an unknown format - accepted "
          + "media types include: application/json");
    }
    if (!(parse(request.body()) instanceof ObjectNode o)) {
      throw StatusException.badRequest("the body of the request must be a JSON object");
    }
    return o;
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
