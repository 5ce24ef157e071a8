package io.listwatch.apiserver.rest;

import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.registry.ResourceRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The discovery documents, built from the registry: the legacy ones (/api, /apis, and the
 * resource list of each group-version, with the fields the generated clients require) and the
 * aggregated ones (apidiscovery.k8s.io APIGroupDiscoveryList: every group-version and its
 * resources in one document, which kubectl and client-go ask /api and /apis for first). Both
 * read the same facts of each {@link ResourceDefinition}: names, scope, verbs, short names,
 * categories, subresources. See "Discovery" in docs/compatibility.md. Immutable once built.
 */
final class Discovery {

  private static final List<String> STATUS_VERBS = List.of("get", "patch", "update");

  private final java.util.function.Supplier<ResourceRegistry> registries;
  private final java.util.function.Supplier<AggregatedApis> aggregated;

  /**
   * Discovery of the registry {@code registries} answers at each call (it grows as resources are
   * served), followed by the group-versions {@code aggregated} serves elsewhere.
   */
  Discovery(java.util.function.Supplier<ResourceRegistry> registries, java.util.function.Supplier<AggregatedApis> aggregated) {
    this.registries = registries;
    this.aggregated = aggregated;
  }

  Map<String, Object> apiVersions(String serverAddress) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", "APIVersions");
    m.put("versions", List.of("v1"));
    m.put("serverAddressByClientCIDRs", List.of(Map.of("clientCIDR", "0.0.0.0/0", "serverAddress", serverAddress)));
    return m;
  }

  Map<String, Object> apiGroupList() {
    List<Object> groups = new ArrayList<>();
    for (String group : registries.get().groups()) {
      List<Map<String, String>> versions = new ArrayList<>();
      for (String version : versionsOf(group)) {
        versions.add(Map.of("groupVersion", group + "/" + version, "version", version));
      }
      Map<String, Object> g = new LinkedHashMap<>();
      g.put("name", group);
      g.put("versions", versions);
      g.put("preferredVersion", versions.getFirst());
      groups.add(g);
    }
    remoteVersions().forEach((group, versions) -> {
      List<Map<String, String>> listed = versions.stream()
          .map(v -> Map.of("groupVersion", group + "/" + v.version(), "version", v.version())).toList();
      Map<String, Object> g = new LinkedHashMap<>();
      g.put("name", group);
      g.put("versions", listed);
      g.put("preferredVersion", listed.getFirst());
      groups.add(g);
    });
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", "APIGroupList");
    m.put("apiVersion", "v1");
    m.put("groups", groups);
    return m;
  }

  /**
   * The versions of a group, the preferred first: a built-in group's in the order kube lists
   * them, a group of custom resources' in kube's version priority (v2, v1, v1beta1, ...).
   */
  private List<String> versionsOf(String group) {
    List<String> versions = new ArrayList<>();
    boolean custom = false;
    for (ResourceDefinition d : registries.get().all()) {
      if (d.group().equals(group)) {
        custom |= d.customResource().isPresent();
        if (!versions.contains(d.version())) {
          versions.add(d.version());
        }
      }
    }
    if (custom) {
      versions.sort(io.listwatch.api.meta.VersionPriority.HIGHEST_FIRST);
    }
    return versions;
  }

  /** The APIResourceList of a group-version, or null when it is not served. */
  Map<String, Object> apiResourceList(String group, String version) {
    List<ResourceDefinition> defs = registries.get().forGroupVersion(group, version);
    if (defs.isEmpty()) {
      return null;
    }
    List<Object> resources = new ArrayList<>();
    for (ResourceDefinition d : defs) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("name", d.plural());
      r.put("singularName", d.singular());
      r.put("namespaced", d.namespaced());
      r.put("kind", d.kind());
      r.put("verbs", servedVerbs(d));
      if (!d.shortNames().isEmpty()) {
        r.put("shortNames", d.shortNames());
      }
      if (!d.categories().isEmpty()) {
        r.put("categories", d.categories());
      }
      resources.add(r);
      if (d.hasStatus()) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("name", d.plural() + "/status");
        s.put("singularName", "");
        s.put("namespaced", d.namespaced());
        s.put("kind", d.kind());
        s.put("verbs", STATUS_VERBS);
        resources.add(s);
      }
      for (ResourceDefinition.Subresource sub : d.subresources().values()) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("name", d.plural() + "/" + sub.name());
        s.put("singularName", "");
        s.put("namespaced", d.namespaced());
        if (!sub.group().isEmpty()) {
          s.put("group", sub.group());
        }
        if (!sub.version().isEmpty()) {
          s.put("version", sub.version());
        }
        s.put("kind", sub.kind());
        s.put("verbs", sub.verbs());
        resources.add(s);
      }
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", "APIResourceList");
    m.put("apiVersion", "v1");
    m.put("groupVersion", group.isEmpty() ? version : group + "/" + version);
    m.put("resources", resources);
    return m;
  }

  /** The verbs discovery lists for a resource. */
  private static List<String> servedVerbs(ResourceDefinition d) {
    // deletecollection is not served yet; do not advertise it
    return d.verbs().stream().filter(v -> !v.equals("deletecollection")).toList();
  }

  /**
   * The aggregated discovery document (an APIGroupDiscoveryList) of the core group, as /api
   * serves it, or of every other group, as /apis serves it; each group's versions in the order
   * of the legacy documents (the first is the preferred one).
   *
   * @param apiVersion {@code apidiscovery.k8s.io/v2} or {@code apidiscovery.k8s.io/v2beta1}
   *     (the same shape)
   */
  Map<String, Object> aggregated(boolean core, String apiVersion) {
    List<Object> items = new ArrayList<>();
    List<String> groups = core ? List.of("") : registries.get().groups();
    for (String group : groups) {
      List<Object> versions = new ArrayList<>();
      for (String version : versionsOf(group)) {
        List<Object> resources = new ArrayList<>();
        for (ResourceDefinition d : registries.get().forGroupVersion(group, version)) {
          resources.add(aggregatedResource(d));
        }
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("version", version);
        v.put("resources", resources);
        v.put("freshness", "Current");
        versions.add(v);
      }
      Map<String, Object> item = new LinkedHashMap<>();
      item.put("metadata", group.isEmpty() ? Map.of() : Map.of("name", group));
      item.put("versions", versions);
      items.add(item);
    }
    if (!core) {
      remoteVersions().forEach((group, remote) -> {
        List<Object> versions = new ArrayList<>();
        for (AggregatedApis.RemoteGroupVersion v : remote) {
          if (v.resources() != null) {
            versions.add(aggregatedRemoteVersion(v));
          }
        }
        if (!versions.isEmpty()) {
          items.add(Map.of("metadata", Map.of("name", group), "versions", versions));
        }
      });
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", "APIGroupDiscoveryList");
    m.put("apiVersion", apiVersion);
    m.put("metadata", Map.of());
    m.put("items", items);
    return m;
  }

  private static Map<String, Object> aggregatedResource(ResourceDefinition d) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("resource", d.plural());
    r.put("responseKind", kind(d.group(), d.version(), d.kind()));
    r.put("scope", d.namespaced() ? "Namespaced" : "Cluster");
    r.put("singularResource", d.singular());
    r.put("verbs", servedVerbs(d));
    if (!d.shortNames().isEmpty()) {
      r.put("shortNames", d.shortNames());
    }
    if (!d.categories().isEmpty()) {
      r.put("categories", d.categories());
    }
    List<Object> subresources = new ArrayList<>();
    if (d.hasStatus()) {
      subresources.add(Map.of("subresource", "status", "responseKind", kind(d.group(), d.version(), d.kind()),
          "verbs", STATUS_VERBS));
    }
    for (ResourceDefinition.Subresource sub : d.subresources().values()) {
      subresources.add(Map.of("subresource", sub.name(),
          "responseKind", kind(sub.group().isEmpty() ? d.group() : sub.group(),
              sub.version().isEmpty() ? d.version() : sub.version(), sub.kind()),
          "verbs", sub.verbs()));
    }
    if (!subresources.isEmpty()) {
      r.put("subresources", subresources);
    }
    return r;
  }

  private static Map<String, String> kind(String group, String version, String kind) {
    Map<String, String> k = new LinkedHashMap<>();
    k.put("group", group);
    k.put("version", version);
    k.put("kind", kind);
    return k;
  }

  /** The aggregated group-versions of groups not served here, by group in the order given. */
  private Map<String, List<AggregatedApis.RemoteGroupVersion>> remoteVersions() {
    java.util.Set<String> local = new java.util.HashSet<>(registries.get().groups());
    Map<String, List<AggregatedApis.RemoteGroupVersion>> byGroup = new LinkedHashMap<>();
    for (AggregatedApis.RemoteGroupVersion v : aggregated.get().groupVersions()) {
      if (!local.contains(v.group())) {
        byGroup.computeIfAbsent(v.group(), g -> new ArrayList<>()).add(v);
      }
    }
    return byGroup;
  }

  /**
   * A remote group-version in the aggregated document, from the APIResourceList its server
   * answered (kube's aggregator converts a legacy document so): each resource with its
   * subresources ({@code pods/status}) under it; {@code Stale} while its APIService is not available.
   */
  private static Map<String, Object> aggregatedRemoteVersion(AggregatedApis.RemoteGroupVersion v) {
    Map<String, Map<String, Object>> byName = new LinkedHashMap<>();
    for (Map<String, Object> r : v.resources()) {
      String name = String.valueOf(r.get("name"));
      int slash = name.indexOf('/');
      Map<String, String> kind = kind(String.valueOf(r.getOrDefault("group", v.group())),
          String.valueOf(r.getOrDefault("version", v.version())), String.valueOf(r.get("kind")));
      if (slash < 0) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("resource", name);
        entry.put("responseKind", kind);
        entry.put("scope", Boolean.TRUE.equals(r.get("namespaced")) ? "Namespaced" : "Cluster");
        entry.put("singularResource", r.getOrDefault("singularName", ""));
        entry.put("verbs", r.getOrDefault("verbs", List.of()));
        for (String optional : List.of("shortNames", "categories")) {
          if (r.get(optional) != null) {
            entry.put(optional, r.get(optional));
          }
        }
        byName.put(name, entry);
        continue;
      }
      Map<String, Object> parent = byName.get(name.substring(0, slash));
      if (parent != null) {
        @SuppressWarnings("unchecked")
        List<Object> subs = (List<Object>) parent.computeIfAbsent("subresources", k -> new ArrayList<>());
        subs.add(Map.of("subresource", name.substring(slash + 1), "responseKind", kind,
            "verbs", r.getOrDefault("verbs", List.of())));
      }
    }
    Map<String, Object> version = new LinkedHashMap<>();
    version.put("version", v.version());
    version.put("resources", new ArrayList<>(byName.values()));
    version.put("freshness", v.available() ? "Current" : "Stale");
    return version;
  }
}
