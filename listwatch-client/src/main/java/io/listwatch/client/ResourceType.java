package io.listwatch.client;

import io.listwatch.api.meta.ResourceDescriptor;
import java.util.Objects;
import java.util.Set;

/**
 * Identifies a REST resource: its group, version, plural name, kind, and whether objects
 * live in namespaces (a {@code GroupVersionResource} plus what the client needs to build
 * paths). The core group is {@code ""}.
 *
 * <p>As a {@link ResourceDescriptor} it also tells the client's fake how kube's strategy for
 * the type treats {@code generation} and {@code status}: the built-in types listwatch-server
 * serves answer as the server does (only Deployments and ReplicaSets track a generation;
 * ConfigMaps, Secrets, Events, ServiceAccounts and Leases have no status subresource); any
 * other type is taken for a custom resource, which tracks a generation and is assumed to have
 * a status subresource.
 *
 * @param group API group, {@code ""} for core
 * @param version API version, e.g. {@code v1}
 * @param plural the resource name in URLs, e.g. {@code pods}
 * @param kind the object kind, e.g. {@code Pod}
 * @param namespaced whether objects of this resource live in a namespace
 */
public record ResourceType(String group, String version, String plural, String kind,
    boolean namespaced) implements ResourceDescriptor {

  /** Built-in types ({@link #toString()}) whose objects carry no {@code generation}. */
  private static final Set<String> WITHOUT_GENERATION = Set.of("pods", "nodes", "namespaces", "configmaps",
      "secrets", "services", "events", "serviceaccounts", "leases.coordination.k8s.io");
  /** Built-in types ({@link #toString()}) without a status subresource. */
  private static final Set<String> WITHOUT_STATUS = Set.of("configmaps", "secrets", "events", "serviceaccounts",
      "leases.coordination.k8s.io");

  public static final ResourceType PODS = new ResourceType("", "v1", "pods", "Pod", true);
  public static final ResourceType NODES = new ResourceType("", "v1", "nodes", "Node", false);
  public static final ResourceType NAMESPACES =
      new ResourceType("", "v1", "namespaces", "Namespace", false);
  public static final ResourceType CONFIGMAPS =
      new ResourceType("", "v1", "configmaps", "ConfigMap", true);
  public static final ResourceType SECRETS =
      new ResourceType("", "v1", "secrets", "Secret", true);
  public static final ResourceType SERVICES =
      new ResourceType("", "v1", "services", "Service", true);
  public static final ResourceType EVENTS = new ResourceType("", "v1", "events", "Event", true);
  public static final ResourceType DEPLOYMENTS =
      new ResourceType("apps", "v1", "deployments", "Deployment", true);
  public static final ResourceType REPLICASETS =
      new ResourceType("apps", "v1", "replicasets", "ReplicaSet", true);
  public static final ResourceType LEASES =
      new ResourceType("coordination.k8s.io", "v1", "leases", "Lease", true);

  public ResourceType {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(plural, "plural");
    Objects.requireNonNull(kind, "kind");
    if (version.isEmpty() || plural.isEmpty() || kind.isEmpty()) {
      throw new IllegalArgumentException("version, plural and kind must not be empty");
    }
  }

  /** {@code v1} for core, otherwise {@code group/version}: the objects' apiVersion. */
  @Override
  public String apiVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }

  /** {@code /api/v1} for core, otherwise {@code /apis/group/version}. */
  public String basePath() {
    return group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
  }

  /** Whether kube sets and bumps {@code metadata.generation} for this type (see the class comment). */
  @Override
  public boolean tracksGeneration() {
    return !WITHOUT_GENERATION.contains(toString());
  }

  /** Whether this type has a {@code status} subresource (see the class comment). */
  @Override
  public boolean hasStatus() {
    return !WITHOUT_STATUS.contains(toString());
  }

  @Override
  public String toString() {
    return group.isEmpty() ? plural : plural + "." + group;
  }
}
