package io.listwatch.server.rbac;

import com.fasterxml.jackson.databind.JsonNode;

/** The role a binding grants (rbac.authorization.k8s.io/v1 {@code RoleRef}). Immutable. */
public record RoleRef(String apiGroup, String kind, String name) {

  public static final String ROLE = "Role";
  public static final String CLUSTER_ROLE = "ClusterRole";

  static RoleRef fromJson(JsonNode ref) {
    return new RoleRef(ref.path("apiGroup").asText(""), ref.path("kind").asText(""), ref.path("name").asText(""));
  }
}
