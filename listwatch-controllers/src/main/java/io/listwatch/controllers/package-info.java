/**
 * The consumers of list-watch, built on the client library's informers, listers and
 * workqueue: kube's deployment and replicaset controllers, the scheduler, the node lifecycle
 * controller, and (in {@code io.listwatch.nodeagent}) a kubelet-style node agent.
 *
 * <p>Every controller is a {@link io.listwatch.controllers.Controller} built from a
 * {@link io.listwatch.controllers.ControllerContext}; none polls.
 */
package io.listwatch.controllers;
