package io.listwatch.client;

import java.util.Objects;

/**
 * Identifies a REST resource: its group, version, plural name, kind, and whether objects
 * live in namespaces (a {@code GroupVersionResource} plus what the client needs to build
 * paths). The core group is {@code ""}.

 *
 * <p>What kube does with objects of the type (generation, status) is the server's to know; the
 * fake client asks the server's own core.
 *
 * @param group API group, {@code ""} for core
 * @param version API version, e.g. {@code v1}
 * @param plural the resource name in URLs, e.g. {@code pods}
 * @param kind the object kind, e.g. {@code Pod}
 * @param namespaced whether objects of this resource live in a namespace
 */
public record ResourceType(String group, String version, String plural, String kind,
    boolean namespaced) {

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
  public String apiVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }

  /** {@code /api/v1} for core, otherwise {@code /apis/group/version}. */
  public String basePath() {
    return group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
  }

  @Override
  public String toString() {
    return group.isEmpty() ? plural : plural + "." + group;
  }
}
