/**
 * The controllers kube-controller-manager would run that the API server runs itself here, so
 * that deletion behaves as in a cluster: {@link io.listwatch.server.controllers.GarbageCollector}
 * (ownerReferences: background, foreground and orphan propagation) and
 * {@link io.listwatch.server.controllers.NamespaceController} (emptying a Terminating namespace).
 * Both watch the server's own watch caches ({@link io.listwatch.server.cacher.CacheListener}) and
 * write through the resources' {@link io.listwatch.server.rest.ResourceStore}s on a thread of
 * their own.
 */
package io.listwatch.server.controllers;
