package io.listwatch.apiserver.request;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiPredicate;

/**
 * What a request means, as kube's RequestInfoFactory reads it: the verb, and for a resource
 * request {@code /api/v1/[namespaces/{ns}/]{resource}[/{name}[/{subresource}]]} (the same under
 * {@code /apis/{group}/{version}}) its parts. Anything else ({@code /version}, {@code /healthz},
 * {@code /api}, {@code /apis/apps/v1}, ...) is a non-resource request whose verb is the lower-case
 * HTTP method. Immutable.
 *
 * <p>Verbs of resource requests, as kube derives them: POST is {@code create}, PUT {@code update},
 * PATCH {@code patch}; GET is {@code get} on an object and {@code list} or (with
 * {@code watch=true}) {@code watch} on a collection; DELETE is {@code delete} on an object and
 * {@code deletecollection} on a collection.
 *
 * @param resourceRequest true for an API resource path, false for everything else
 * @param path the request path without the query
 * @param verb the kube verb (see above)
 * @param group "" for the core group (and for non-resource requests)
 * @param version the API version, "" for non-resource requests
 * @param namespace "" when the path has no namespace segment
 * @param resource the plural resource, "" for non-resource requests
 * @param name "" for a collection
 * @param subresource "" when none
 */
public record RequestInfo(boolean resourceRequest, String path, String verb, String group, String version,
    String namespace, String resource, String name, String subresource) {

  /**
   * Reads a request. {@code isNamespacedResource} tells whether {@code (group, resource)} is a
   * namespaced resource; it decides between {@code namespaces/{ns}/{resource}} and the
   * namespace object's own subresources.
   */
  public static RequestInfo parse(String method, String path, Map<String, List<String>> query,
      BiPredicate<String, String> isNamespacedResource) {
    String verb = method.toLowerCase(Locale.ROOT);
    RequestInfo nonResource = new RequestInfo(false, path, verb, "", "", "", "", "", "");
    List<String> s = segments(path);
    int i;
    String group;
    if (s.size() >= 3 && s.get(0).equals("api")) {
      group = "";
      i = 1;
    } else if (s.size() >= 4 && s.get(0).equals("apis")) {
      group = s.get(1);
      i = 2;
    } else {
      return nonResource;
    }
    String version = s.get(i);
    List<String> rest = s.subList(i + 1, s.size());
    boolean legacyWatch = false;
    if (rest.getFirst().equals("watch")) { // the deprecated /api/v1/watch/... form
      legacyWatch = true;
      rest = rest.subList(1, rest.size());
      if (rest.isEmpty()) {
        return nonResource;
      }
    }
    String namespace = "";
    if (rest.size() >= 3 && rest.get(0).equals("namespaces") && isNamespacedResource.test(group, rest.get(2))) {
      namespace = rest.get(1);
      rest = rest.subList(2, rest.size());
    }
    if (rest.size() > 3) {
      return nonResource;
    }
    String resource = rest.get(0);
    String name = rest.size() > 1 ? rest.get(1) : "";
    String subresource = rest.size() > 2 ? rest.get(2) : "";
    verb = switch (verb) {
      case "post" -> "create";
      case "put" -> "update";
      case "get", "head" -> "get";
      default -> verb; // patch, delete, and anything kube would refuse later
    };
    if (legacyWatch) {
      verb = "watch";
    } else if (name.isEmpty() && verb.equals("get")) {
      verb = isTrue(query.get("watch")) ? "watch" : "list";
    } else if (name.isEmpty() && verb.equals("delete")) {
      verb = "deletecollection";
    }
    return new RequestInfo(true, path, verb, group, version, namespace, resource, name, subresource);
  }

  private static boolean isTrue(List<String> values) {
    if (values == null || values.isEmpty()) {
      return false;
    }
    String v = values.getFirst();
    return !v.equals("0") && !v.equalsIgnoreCase("false");
  }

  private static List<String> segments(String path) {
    String p = path;
    int q = p.indexOf('?');
    if (q >= 0) {
      p = p.substring(0, q);
    }
    List<String> out = new ArrayList<>();
    for (String seg : p.split("/")) {
      if (!seg.isEmpty()) {
        out.add(seg); // the path is decoded already (once, as kube's)
      }
    }
    return out;
  }

  /**
   * The one object a list or watch asks for when its field selector pins {@code metadata.name}
   * ({@code =} or {@code ==}) to a name that can be a path segment (not {@code .} or {@code ..},
   * no {@code /} or {@code %}), or "": kube's RequestInfoFactory takes that name as the
   * request's, so RBAC's {@code resourceNames} can allow the request and API Priority and
   * Fairness counts it as one object. A selector that does not parse names nothing (the request
   * answers 400).
   */
  public String listedName(Map<String, List<String>> query) {
    if (!resourceRequest || !name.isEmpty() || !(verb.equals("list") || verb.equals("watch"))) {
      return "";
    }
    List<String> selectors = query.get("fieldSelector");
    if (selectors == null || selectors.isEmpty() || selectors.getFirst().isEmpty()) {
      return "";
    }
    try {
      return io.listwatch.api.FieldSelector.parse(selectors.getFirst()).requiredValue("metadata.name")
          .filter(n -> !n.isEmpty() && !n.equals(".") && !n.equals("..") && !n.contains("/") && !n.contains("%"))
          .orElse("");
    } catch (io.listwatch.api.StatusException e) {
      return "";
    }
  }
}
