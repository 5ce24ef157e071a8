package io.listwatch.server.rest;

import io.listwatch.server.registry.ResourceDefinition;
import io.listwatch.server.registry.ResourceRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Legacy discovery documents: /api, /apis, and the resource list of each group-version,
 * built from the registry, with the fields the generated clients require (see "Discovery" in
 * docs/compatibility.md). Aggregated discovery is not served: clients that ask for it accept
 * the legacy answer (plain application/json). Immutable once built.
 */
final class Discovery {

  private static final List<String> STATUS_VERBS = List.of("get", "patch", "update");

  private final ResourceRegistry registry;

  Discovery(ResourceRegistry registry) {
    this.registry = registry;
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
    for (String group : registry.groups()) {
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
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", "APIGroupList");
    m.put("apiVersion", "v1");
    m.put("groups", groups);
    return m;
  }

  private List<String> versionsOf(String group) {
    List<String> versions = new ArrayList<>();
    for (ResourceDefinition d : registry.all()) {
      if (d.group().equals(group) && !versions.contains(d.version())) {
        versions.add(d.version());
      }
    }
    return versions;
  }

  /** The APIResourceList of a group-version, or null when it is not served. */
  Map<String, Object> apiResourceList(String group, String version) {
    List<ResourceDefinition> defs = registry.forGroupVersion(group, version);
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
      // deletecollection is not served yet; do not advertise it
      r.put("verbs", d.verbs().stream().filter(v -> !v.equals("deletecollection")).toList());
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
}
