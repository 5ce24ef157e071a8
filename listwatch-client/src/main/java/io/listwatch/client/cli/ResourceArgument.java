package io.listwatch.client.cli;

import io.listwatch.client.ResourceType;
import java.util.List;
import java.util.Locale;

/**
 * Turns the {@code --resource} argument into a {@link ResourceType}: a built-in plural
 * ({@code pods}), a plural with its group ({@code deployments.apps}), or, with
 * {@code --api-version} and {@code --kind}, any other resource (custom resources included).
 */
final class ResourceArgument {

  private static final List<ResourceType> BUILTINS = List.of(
      ResourceType.PODS, ResourceType.NODES, ResourceType.NAMESPACES, ResourceType.CONFIGMAPS,
      ResourceType.SECRETS, ResourceType.SERVICES, ResourceType.EVENTS,
      new ResourceType("", "v1", "serviceaccounts", "ServiceAccount", true),
      ResourceType.DEPLOYMENTS, ResourceType.REPLICASETS, ResourceType.LEASES);

  private ResourceArgument() {}

  /**
   * @param resource {@code plural} or {@code plural.group}
   * @param apiVersion {@code group/version} or {@code version}; null for a built-in
   * @param kind the kind; null for a built-in
   * @param clusterScoped for a non-built-in: whether objects live outside namespaces
   * @throws IllegalArgumentException naming the resource when it is not known and no
   *     apiVersion/kind were given
   */
  static ResourceType parse(String resource, String apiVersion, String kind, boolean clusterScoped) {
    String r = resource.trim().toLowerCase(Locale.ROOT);
    int dot = r.indexOf('.');
    String plural = dot < 0 ? r : r.substring(0, dot);
    String group = dot < 0 ? "" : r.substring(dot + 1);
    if (apiVersion == null && kind == null) {
      for (ResourceType t : BUILTINS) {
        if (t.plural().equals(plural) && (dot < 0 || t.group().equals(group))) {
          return t;
        }
      }
      throw new IllegalArgumentException("unknown resource '" + resource
          + "': use one of " + BUILTINS.stream().map(ResourceType::toString).toList()
          + ", or give --api-version and --kind for any other resource");
    }
    if (apiVersion == null || kind == null) {
      throw new IllegalArgumentException("--api-version and --kind go together");
    }
    int slash = apiVersion.indexOf('/');
    String g = slash < 0 ? "" : apiVersion.substring(0, slash);
    String v = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
    if (dot >= 0 && !group.equals(g)) {
      throw new IllegalArgumentException("--resource " + resource + " names group '" + group
          + "' but --api-version names '" + g + "'");
    }
    return new ResourceType(g, v, plural, kind, !clusterScoped);
  }
}
