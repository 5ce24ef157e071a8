/**
 * The consumers of list-watch, built on the client library's informers, listers and
 * workqueue: kube's deployment and replicaset controllers, the scheduler, the node lifecycle
 * controller, and (in {@code io.listwatch.nodeagent}) a kubelet-style node agent.
 *
 * <p>Every controller is a {@link io.listwatch.controllers.Controller} built from a
 * {@link io.listwatch.controllers.ControllerContext}; none polls. Which controllers a process
 * runs, and how, is {@code io.listwatch.controllers.manager}, which sits above the controller
 * packages: this package is their shared contract and knows none of them.
 */
package io.listwatch.controllers;
