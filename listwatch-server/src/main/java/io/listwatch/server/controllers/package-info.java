/**
 * The controllers kube-controller-manager (and kube-apiserver's apiextensions side) would run
 * that the API server runs itself here, so that deletion and custom resources behave as in a
 * cluster: {@link io.listwatch.server.controllers.GarbageCollector} (ownerReferences:
 * background, foreground and orphan propagation),
 * {@link io.listwatch.server.controllers.NamespaceController} (emptying a Terminating
 * namespace), the service accounts controller, and
 * {@link io.listwatch.server.controllers.CustomResourceDefinitionController} (serving each
 * definition's versions, with {@code NamingConditions} deciding its accepted names and
 * {@code CustomResourceCleanup} emptying a definition being deleted). They watch the server's
 * own watch caches ({@link io.listwatch.apiserver.cacher.CacheListener}) and write through the
 * resources' {@link io.listwatch.apiserver.rest.ResourceStore}s on a thread of their own.
 */
package io.listwatch.server.controllers;
