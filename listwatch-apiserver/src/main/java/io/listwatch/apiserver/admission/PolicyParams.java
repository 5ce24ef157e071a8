package io.listwatch.apiserver.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.LabelSelector;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.registry.ResourceRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The parameter objects one binding gives its policy: kube's {@code generic.CollectParams}.
 * The policy's {@code paramKind} names the resource ({@link #resolve}); the binding's
 * {@code paramRef} picks the objects, by {@code name} or by label {@code selector}, in
 * {@code paramRef.namespace} or else the request's namespace (for a namespaced param kind). With
 * {@code parameterNotFoundAction: Deny}, finding none is an error; with {@code Allow} the
 * binding is not evaluated. A policy without {@code paramKind}, or a binding without
 * {@code paramRef}, is evaluated once with {@code params} null.
 *
 * <p>Params are read through the server's {@link Listers}, so only built-in kinds serve as
 * params here (kube also reads custom resources).
 *
 * <p>Stateless; thread-safe.
 */
final class PolicyParams {

  private static final ResourceRegistry BUILTINS = ResourceRegistry.builtins();

  private PolicyParams() {
  }

  /** The resource {@code paramKind} names, if this server can read it. */
  static Optional<ResourceDefinition> resolve(JsonNode paramKind) {
    String apiVersion = paramKind.path("apiVersion").asText("");
    int slash = apiVersion.indexOf('/');
    String group = slash < 0 ? "" : apiVersion.substring(0, slash);
    String version = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
    String kind = paramKind.path("kind").asText("");
    return BUILTINS.forGroupVersion(group, version).stream()
        .filter(d -> d.kind().equals(kind) && d.stored()).findFirst();
  }

  /** kube's text of a GroupVersionKind: {@code /v1, Kind=ConfigMap}. */
  static String gvkString(JsonNode paramKind) {
    String apiVersion = paramKind.path("apiVersion").asText("");
    return (apiVersion.contains("/") ? apiVersion : "/" + apiVersion) + ", Kind=" + paramKind.path("kind").asText("");
  }

  /**
   * The params to evaluate the policy with: a list holding one null for "no params", empty for
   * "not found, allowed".
   *
   * @throws ConfigurationError kube's configuration errors (its texts)
   */
  static List<ObjectNode> collect(JsonNode paramKind, ResourceDefinition paramResource, JsonNode paramRef,
      String namespace, Listers listers) throws ConfigurationError {
    List<ObjectNode> params = new ArrayList<>();
    if (paramKind == null || paramRef == null || !paramRef.isObject()) {
      params.add(null);
      return params;
    }
    String refNamespace = paramRef.path("namespace").asText("");
    String readNamespace = "";
    if (paramResource.namespaced()) {
      readNamespace = refNamespace.isEmpty() ? namespace : refNamespace;
      if (readNamespace.isEmpty()) {
        throw new ConfigurationError(
            "cannot use namespaced paramRef in policy binding that matches cluster-scoped resources");
      }
    } else if (!refNamespace.isEmpty()) {
      throw new ConfigurationError("paramRef.namespace must not be provided for a cluster-scoped `paramKind`");
    }
    String name = paramRef.path("name").asText("");
    JsonNode selector = paramRef.get("selector");
    if (!name.isEmpty()) {
      if (selector != null && !selector.isNull()) {
        throw new ConfigurationError("paramRef.name and paramRef.selector are mutually exclusive");
      }
      listers.get(paramResource.group(), paramResource.plural(), readNamespace, name).ifPresent(params::add);
    } else if (selector != null && selector.isObject()) {
      LabelSelector s;
      try {
        s = LabelSelector.fromObject(selector);
      } catch (StatusException e) {
        throw new ConfigurationError(e.getMessage());
      }
      for (ObjectNode p : listers.list(paramResource.group(), paramResource.plural(), readNamespace)) {
        if (s.matches(PolicyMatcher.labels(p))) {
          params.add(p);
        }
      }
    } else {
      throw new ConfigurationError("one of name or selector must be provided");
    }
    if (params.isEmpty() && paramRef.path("parameterNotFoundAction").asText("").equals("Deny")) {
      throw new ConfigurationError("no params found for policy binding with `Deny` parameterNotFoundAction");
    }
    return params;
  }

  /** A policy or binding that cannot be evaluated as configured (kube's configuration error). */
  static final class ConfigurationError extends Exception {
    private static final long serialVersionUID = 1L;

    ConfigurationError(String message) {
      super(message, null, false, false);
    }
  }
}
