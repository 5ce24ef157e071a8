package io.listwatch.api.meta;

/**
 * What {@link ObjectMetaRules} needs to know about a resource: its type meta, its scope, and
 * the parts of kube's per-type strategy that change the metadata the server owns. The server's
 * resource definitions provide it.
 *
 * <p>Implementations are immutable values.
 */
public interface ResourceDescriptor {

  /** The API group, {@code ""} for core. */
  String group();

  /** The resource name in URLs, e.g. {@code pods}. */
  String plural();

  /** The objects' {@code kind}, e.g. {@code Pod}. */
  String kind();

  /** The objects' {@code apiVersion}: {@code v1} for core, otherwise {@code group/version}. */
  String apiVersion();

  /** Whether objects live in a namespace. */
  boolean namespaced();

  /**
   * Whether {@code metadata.generation} is set to 1 on create and bumped when {@code spec}
   * changes. kube 1.32 does this for Deployments and ReplicaSets (and every custom resource),
   * not for Pods, ConfigMaps, Secrets, Events or Leases, whose objects carry no generation.
   */
  boolean tracksGeneration();

  /**
   * Whether the resource has a {@code status} subresource: an update of the main resource then
   * keeps the stored {@code .status}, and only an update of {@code /status} changes it.
   */
  boolean hasStatus();
}
