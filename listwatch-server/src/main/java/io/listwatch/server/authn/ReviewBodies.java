package io.listwatch.server.authn;

import io.listwatch.apiserver.request.UserInfo;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.protobuf.KubeProtobuf;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reading and writing the bodies of the authentication API's create-only resources
 * (TokenRequest, TokenReview, SelfSubjectReview). Stateless and thread-safe.
 */
final class ReviewBodies {

  static final ObjectMapper JSON = new ObjectMapper();
  static final String GROUP_VERSION = "authentication.k8s.io/v1";

  private ReviewBodies() {
  }

  /**
   * The request's JSON object (a protobuf body is read into the same shape), or an empty object
   * for an empty body when {@code emptyAllowed}. A body of another kind or API version is
   * refused with 400, as kube's decoder does.
   */
  static ObjectNode read(ApiRequest request, String kind, boolean emptyAllowed) {
    boolean protobuf = KubeProtobuf.isProtobufBody(request.mediaType());
    if (request.body().length == 0) {
      if (emptyAllowed) {
        return JSON.createObjectNode();
      }
      throw StatusException.badRequest("the request has no body");
    }
    JsonNode node;
    try {
      node = protobuf ? KubeProtobuf.decode(request.body(), GROUP_VERSION, kind) : JSON.readTree(request.body());
    } catch (JsonProcessingException e) {
      throw StatusException.badRequest("the body of the request is not valid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw StatusException.badRequest("cannot read the body of the request: " + e.getMessage());
    }
    if (!(node instanceof ObjectNode o)) {
      throw StatusException.badRequest("the body of the request must be a JSON object");
    }
    String bodyKind = o.path("kind").asText("");
    String apiVersion = o.path("apiVersion").asText("");
    if (!bodyKind.isEmpty() && !bodyKind.equals(kind)) {
      throw StatusException.badRequest("the body kind " + bodyKind + " does not match the expected kind " + kind);
    }
    if (!apiVersion.isEmpty() && !apiVersion.equals(GROUP_VERSION)) {
      throw StatusException.badRequest("the body apiVersion " + apiVersion + " does not match the expected "
          + GROUP_VERSION);
    }
    o.put("kind", kind);
    o.put("apiVersion", GROUP_VERSION);
    if (!(o.get("metadata") instanceof ObjectNode)) {
      o.putObject("metadata").putNull("creationTimestamp");
    }
    return o;
  }

  /** The strings of a JSON array field; 400 when it is something else. */
  static List<String> strings(JsonNode parent, String field, String path) {
    JsonNode n = parent.get(field);
    if (n == null || n.isNull()) {
      return List.of();
    }
    if (!n.isArray()) {
      throw StatusException.badRequest(path + " must be an array of strings");
    }
    List<String> out = new ArrayList<>();
    for (JsonNode e : n) {
      if (!e.isTextual()) {
        throw StatusException.badRequest(path + " must be an array of strings");
      }
      out.add(e.textValue());
    }
    return out;
  }

  /** kube's authentication UserInfo: {@code username}, {@code uid}, {@code groups}, {@code extra}, empties left out. */
  static ObjectNode userInfo(UserInfo user) {
    ObjectNode u = JSON.createObjectNode();
    u.put("username", user.name());
    if (!user.uid().isEmpty()) {
      u.put("uid", user.uid());
    }
    if (!user.groups().isEmpty()) {
      ArrayNode groups = u.putArray("groups");
      user.groups().forEach(groups::add);
    }
    if (!user.extra().isEmpty()) {
      ObjectNode extra = u.putObject("extra");
      for (Map.Entry<String, List<String>> e : user.extra().entrySet()) {
        ArrayNode values = extra.putArray(e.getKey());
        e.getValue().forEach(values::add);
      }
    }
    return u;
  }
}
