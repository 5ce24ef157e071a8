/**
 * The controllers kube-controller-manager would run that the API server runs itself here, so
 * that deletion behaves as in a cluster: {@link io.listwatch.server.controllers.GarbageCollector}
 * (ownerReferences: background, foreground and orphan propagation),
 * {@link io.listwatch.server.controllers.NamespaceController} (emptying a Terminating
 * namespace), {@link io.listwatch.server.controllers.RootCaCertPublisher} (the cluster CA in every
 * namespace), {@link io.listwatch.server.controllers.ValidatingAdmissionPolicyStatusController}
 * (policies' type checking) and the core's service accounts controller, leader-elected among servers sharing etcd
 * ({@link io.listwatch.server.controllers.ControllerLeadership}, {@code StoreLeaseLock}). They
 * watch the server's own watch caches ({@link io.listwatch.apiserver.cacher.CacheListener}),
 * work through a {@link io.listwatch.apiserver.controller.ControllerQueue} each, and write
 * through the resources' {@link io.listwatch.apiserver.rest.ResourceStore}s. Serving custom
 * resources is the core's ({@code io.listwatch.apiserver.apiextensions}).
 */
package io.listwatch.server.controllers;
