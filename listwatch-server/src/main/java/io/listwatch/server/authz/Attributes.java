package io.listwatch.server.authz;

import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.apiserver.request.RequestInfo;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What is asked of the authorizer (kube's {@code authorizer.Attributes}): who, which verb, and
 * either a resource (group, resource, subresource, namespace, name) or a non-resource path.
 * Immutable.
 *
 * @param namespace for the {@code namespaces} resource itself this is the namespace's own name,
 *     as kube sets it, so a RoleBinding in a namespace can grant access to that namespace object
 */
public record Attributes(UserInfo user, String verb, boolean resourceRequest, String path, String apiGroup,
    String apiVersion, String resource, String subresource, String namespace, String name) {

  public Attributes {
    Objects.requireNonNull(user);
    Objects.requireNonNull(verb);
  }

  /**
   * The attributes of a request as kube's filters build them. A list or watch whose field
   * selector pins {@code metadata.name} carries that name ({@link RequestInfo#listedName}), so
   * RBAC's resourceNames can allow it.
   */
  public static Attributes of(UserInfo user, RequestInfo info, Map<String, List<String>> query) {
    String namespace = info.namespace();
    if (info.resourceRequest() && info.group().isEmpty() && info.resource().equals("namespaces")
        && namespace.isEmpty()) {
      namespace = info.name(); // kube reads /namespaces/{name} as that namespace; a pinned list stays cluster-wide
    }
    String name = info.name().isEmpty() ? info.listedName(query) : info.name();
    return new Attributes(user, info.verb(), info.resourceRequest(), info.path(), info.group(), info.version(),
        info.resource(), info.subresource(), namespace, name);
  }

  /** A resource request, e.g. for access reviews. */
  public static Attributes resource(UserInfo user, String verb, String group, String resource, String subresource,
      String namespace, String name) {
    return new Attributes(user, verb, true, "", group, "*", resource, subresource, namespace, name);
  }

  /** A non-resource request. */
  public static Attributes nonResource(UserInfo user, String verb, String path) {
    return new Attributes(user, verb, false, path, "", "", "", "", "", "");
  }
}
