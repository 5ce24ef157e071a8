/**
 * The REST client: talk to kube-apiserver (or listwatch's server) over {@code java.net.http}.
 *
 * <p>Map: {@link io.listwatch.client.KubeClient} is the entry point (one per cluster, holds the
 * HTTP client); {@link io.listwatch.client.ResourceClient} does the verbs on one resource;
 * {@link io.listwatch.client.ObjectCodec} says how objects of a Java type are read, written
 * and identified, so any Jackson-mapped class (fabric8's models included) or
 * {@link io.listwatch.client.DynamicObject} can be used; {@link io.listwatch.client.ObjectMeta}
 * (with {@link io.listwatch.client.OwnerReference}) is the metadata for model classes users
 * write for their own kinds, e.g. custom resources; {@link io.listwatch.client.WatchStream}
 * is one open watch. API errors are {@link io.listwatch.api.StatusException}s carrying the
 * server's {@code Status}. Sub-packages: {@code cache} (informers), {@code workqueue},
 * {@code clock} (injectable time), {@code testing} (a fake client).
 */
package io.listwatch.client;
