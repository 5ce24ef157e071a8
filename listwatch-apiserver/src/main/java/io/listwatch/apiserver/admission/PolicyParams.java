package io.listwatch.apiserver.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.LabelSelector;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.registry.ResourceDefinition;
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
 * <p>The param kind is looked up at each request in what the server serves now
 * ({@link Listers#resource}: built-in kinds and the custom resources whose
 * CustomResourceDefinitions are served), as kube's policy source maps it with its RESTMapper, and params
 * are read from that resource's watch cache (kube reads them from an informer). So a policy
 * whose param kind's CRD does not exist yet fails with kube's configuration error
 * ({@code failed to find resource referenced by paramKind: '<group/version, Kind=kind>'}) and
 * works from the first request after the CRD is served, without a restart; a param object
 * changed or deleted is seen once the watch cache has its event. Simplified: kube also fails a
 * binding whose param informer has not synced within 1 s ({@code not yet synced to use for
 * admission}); here a read waits while a new custom resource's cache fills (at most 10 s, then
 * 503, see {@code CacheListers}).
 *
 * <p>Stateless; thread-safe.
 */
final class PolicyParams {

  private PolicyParams() {
  }

  /**
   * The resource {@code paramKind} names, if the server serves it now, built-in or custom; empty
   * for kube's {@code failed to find resource referenced by paramKind}.
   */
  static Optional<ResourceDefinition> resolve(JsonNode paramKind, Listers listers) {
    String apiVersion = paramKind.path("apiVersion").asText("");
    int slash = apiVersion.indexOf('/');
    String group = slash < 0 ? "" : apiVersion.substring(0, slash);
    String version = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
    return listers.resource(group, version, paramKind.path("kind").asText(""));
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
      listers.get(paramResource, readNamespace, name).ifPresent(params::add);
    } else if (selector != null && selector.isObject()) {
      LabelSelector s;
      try {
        s = LabelSelector.fromObject(selector);
      } catch (StatusException e) {
        throw new ConfigurationError(e.getMessage());
      }
      for (ObjectNode p : listers.list(paramResource, readNamespace)) {
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
