/**
 * The object metadata the server owns, as kube's {@code rest.BeforeCreate} and
 * {@code BeforeUpdate} set it, used by the API core (listwatch-apiserver), which the network
 * server and the fake client both run.
 *
 * <ul>
 *   <li>{@link io.listwatch.api.meta.ResourceDescriptor}: what the rules need to know about a
 *       resource (scope, generation tracking, status subresource).</li>
 *   <li>{@link io.listwatch.api.meta.ObjectMetaRules}: type meta checks, uid,
 *       creationTimestamp, generation, generated names, namespace and name checks, what an
 *       update may not change, and finalizers during deletion.</li>
 *   <li>{@link io.listwatch.api.meta.NameGenerator}: {@code generateName} plus five random
 *       characters from kube's alphabet.</li>
 *   <li>{@link io.listwatch.api.meta.VersionPriority}: kube's order of an API group's versions
 *       (the preferred one first).</li>
 * </ul>
 */
package io.listwatch.api.meta;
