/**
 * The server's own control loops and what they share: {@link io.listwatch.apiserver.controller.ControllerQueue},
 * a deduplicating work queue with one worker, gated by leadership and retried on the injected
 * clock (client-go's workqueue, reduced to what the server needs), and
 * {@link io.listwatch.apiserver.controller.ResourceQuotaController}, which keeps ResourceQuotas'
 * status (kube-controller-manager's resource quota controller, run by the core so that the
 * network server and the fake client both have it).
 */
package io.listwatch.apiserver.controller;
