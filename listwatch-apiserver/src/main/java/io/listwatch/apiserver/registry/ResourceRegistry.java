package io.listwatch.apiserver.registry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The set of resources the server serves, looked up by group, version and plural as request
 * URLs name them. kube's counterpart is the REST storage map built at start plus the CRD
 * handler's dynamic set.
 *
 * <p>Immutable and thread-safe. {@link #with} returns a new registry, so the server can publish
 * a new one atomically (e.g. in a volatile field) when CRDs come and go, and a request keeps a
 * consistent view by reading that field once.
 *
 * <p>Order: {@link #all()} lists resources in registration order; {@link #groups()} and
 * {@link #versions(String)} list groups and versions in the order they first appear. For
 * {@link #builtins()} that is core, {@code apps}, {@code coordination.k8s.io}, which is also
 * the relative order kube's {@code /apis} uses.
 */
public final class ResourceRegistry {

  private static final ResourceRegistry BUILTINS = new ResourceRegistry(Builtins.definitions());
  private static final ResourceRegistry EMPTY = new ResourceRegistry(List.of());

  /** In registration order. */
  private final List<ResourceDefinition> definitions;
  private final Map<Gvr, ResourceDefinition> byGvr;
  /** Each resource by its group, version and kind (unique: the constructor refuses a second). */
  private final Map<Gvk, ResourceDefinition> byGvk;

  private ResourceRegistry(List<ResourceDefinition> definitions) {
    Map<Gvr, ResourceDefinition> index = new HashMap<>();
    Map<Gvk, ResourceDefinition> byKind = new HashMap<>();
    for (ResourceDefinition def : definitions) {
      ResourceDefinition previous = index.put(Gvr.of(def), def);
      if (previous != null) {
        throw new IllegalArgumentException("duplicate resource " + previous);
      }
      ResourceDefinition sameKind = byKind.put(Gvk.of(def), def);
      if (sameKind != null) {
        throw new IllegalArgumentException(
            "kind " + def.kind() + " in " + def.groupVersion() + " is served by both "
                + sameKind.plural() + " and " + def.plural());
      }
    }
    this.definitions = List.copyOf(definitions);
    this.byGvr = Map.copyOf(index);
    this.byGvk = Map.copyOf(byKind);
  }

  /**
   * The built-in resources of kube-apiserver 1.32 that this server serves: core/v1
   * configmaps, events, namespaces, nodes, pods, secrets, serviceaccounts, services; apps/v1
   * deployments, replicasets; coordination.k8s.io/v1 leases.
   */
  public static ResourceRegistry builtins() {
    return BUILTINS;
  }

  /** A registry with no resources. */
  public static ResourceRegistry empty() {
    return EMPTY;
  }

  /**
   * The resource a URL names.
   *
   * @param group {@code ""} for core ({@code /api/v1/...})
   * @param version e.g. {@code "v1"}
   * @param plural e.g. {@code "pods"}
   */
  public Optional<ResourceDefinition> find(String group, String version, String plural) {
    return Optional.ofNullable(byGvr.get(new Gvr(
        Objects.requireNonNull(group, "group"),
        Objects.requireNonNull(version, "version"),
        Objects.requireNonNull(plural, "plural"))));
  }

  /**
   * The resource serving a kind: kube's {@code RESTMapper.RESTMapping} (what a policy's
   * {@code paramKind} or an object's apiVersion and kind name), built-in or custom, whichever
   * this registry holds.
   *
   * @param group {@code ""} for core
   * @param version e.g. {@code "v1"}
   * @param kind e.g. {@code "ConfigMap"}
   */
  public Optional<ResourceDefinition> forKind(String group, String version, String kind) {
    return Optional.ofNullable(byGvk.get(new Gvk(
        Objects.requireNonNull(group, "group"),
        Objects.requireNonNull(version, "version"),
        Objects.requireNonNull(kind, "kind"))));
  }

  /** Every resource, in registration order. */
  public List<ResourceDefinition> all() {
    return definitions;
  }

  /** The non-core groups, each once, in the order they first appear; what {@code /apis} lists. */
  public List<String> groups() {
    Set<String> groups = new LinkedHashSet<>();
    for (ResourceDefinition def : definitions) {
      if (!def.group().isEmpty()) {
        groups.add(def.group());
      }
    }
    return List.copyOf(groups);
  }

  /**
   * The versions served for {@code group} ({@code ""} for core), in the order they first appear;
   * empty if the group is not served.
   */
  public List<String> versions(String group) {
    Objects.requireNonNull(group, "group");
    Set<String> versions = new LinkedHashSet<>();
    for (ResourceDefinition def : definitions) {
      if (def.group().equals(group)) {
        versions.add(def.version());
      }
    }
    return List.copyOf(versions);
  }

  /**
   * The resources of one group-version, in registration order: what {@code /api/v1} or
   * {@code /apis/{group}/{version}} lists. Empty if the group-version is not served.
   */
  public List<ResourceDefinition> forGroupVersion(String group, String version) {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(version, "version");
    List<ResourceDefinition> result = new ArrayList<>();
    for (ResourceDefinition def : definitions) {
      if (def.group().equals(group) && def.version().equals(version)) {
        result.add(def);
      }
    }
    return List.copyOf(result);
  }

  /** A registry without {@code def}'s group, version and plural; this one when it has none. */
  public ResourceRegistry without(ResourceDefinition def) {
    Gvr key = Gvr.of(def);
    List<ResourceDefinition> next = new ArrayList<>(definitions);
    return next.removeIf(d -> Gvr.of(d).equals(key)) ? new ResourceRegistry(next) : this;
  }

  /**
   * A registry that also serves {@code def}. A definition with the same group, version and
   * plural is replaced in place (a CRD update); otherwise {@code def} is appended. This
   * registry is unchanged.
   *
   * @throws IllegalArgumentException if another resource of the same group-version already
   *     has {@code def}'s kind
   */
  public ResourceRegistry with(ResourceDefinition def) {
    Objects.requireNonNull(def, "def");
    Gvr key = Gvr.of(def);
    List<ResourceDefinition> next = new ArrayList<>(definitions.size() + 1);
    boolean replaced = false;
    for (ResourceDefinition existing : definitions) {
      if (Gvr.of(existing).equals(key)) {
        next.add(def);
        replaced = true;
      } else {
        next.add(existing);
      }
    }
    if (!replaced) {
      next.add(def);
    }
    return new ResourceRegistry(next);
  }

  @Override
  public String toString() {
    return "ResourceRegistry" + definitions.stream()
        .map(d -> d.plural() + (d.group().isEmpty() ? "" : "." + d.group()) + "/" + d.version())
        .toList();
  }

  private record Gvr(String group, String version, String plural) {
    static Gvr of(ResourceDefinition def) {
      return new Gvr(def.group(), def.version(), def.plural());
    }
  }

  private record Gvk(String group, String version, String kind) {
    static Gvk of(ResourceDefinition def) {
      return new Gvk(def.group(), def.version(), def.kind());
    }
  }
}
