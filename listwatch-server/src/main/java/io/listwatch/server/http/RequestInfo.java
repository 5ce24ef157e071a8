package io.listwatch.server.http;

import java.util.List;
import java.util.function.BiPredicate;

/**
 * What an API path means, as kube's RequestInfoFactory reads it:
 * {@code /api/v1/[namespaces/{ns}/]{resource}[/{name}[/{subresource}]]} and the same under
 * {@code /apis/{group}/{version}}. Immutable.
 *
 * @param group "" for the core group
 * @param version the API version
 * @param namespace "" when the path has no namespace segment
 * @param resource the plural resource, or "" for a group-version root (discovery)
 * @param name "" for a collection
 * @param subresource "" when none
 */
public record RequestInfo(String group, String version, String namespace, String resource, String name,
    String subresource) {

  /**
   * Parses an API path, or returns null when it is not one. {@code isNamespacedResource}
   * tells whether {@code (group, resource)} is a namespaced resource; it decides between
   * {@code namespaces/{ns}/{resource}} and the namespace object's own subresources.
   */
  public static RequestInfo parse(String path, BiPredicate<String, String> isNamespacedResource) {
    List<String> s = segments(path);
    int i;
    String group;
    String version;
    if (s.size() >= 2 && s.get(0).equals("api")) {
      group = "";
      version = s.get(1);
      i = 2;
    } else if (s.size() >= 3 && s.get(0).equals("apis")) {
      group = s.get(1);
      version = s.get(2);
      i = 3;
    } else {
      return null;
    }
    List<String> rest = s.subList(i, s.size());
    if (rest.isEmpty()) {
      return new RequestInfo(group, version, "", "", "", "");
    }
    String namespace = "";
    if (rest.size() >= 3 && rest.get(0).equals("namespaces") && isNamespacedResource.test(group, rest.get(2))) {
      namespace = rest.get(1);
      rest = rest.subList(2, rest.size());
    }
    if (rest.size() > 3) {
      return null;
    }
    return new RequestInfo(group, version, namespace, rest.get(0), rest.size() > 1 ? rest.get(1) : "",
        rest.size() > 2 ? rest.get(2) : "");
  }

  private static List<String> segments(String path) {
    String p = path;
    int q = p.indexOf('?');
    if (q >= 0) {
      p = p.substring(0, q);
    }
    List<String> out = new java.util.ArrayList<>();
    for (String seg : p.split("/")) {
      if (!seg.isEmpty()) {
        out.add(java.net.URLDecoder.decode(seg, java.nio.charset.StandardCharsets.UTF_8));
      }
    }
    return out;
  }
}
