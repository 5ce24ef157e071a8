/**
 * The server's own control loops and what they share: {@link io.listwatch.apiserver.controller.ControllerQueue},
 * a deduplicating work queue with one worker, gated by leadership and retried on the injected
 * clock (client-go's workqueue, reduced to what the server needs); and the control loops the
 * core runs itself, so that the network server and the fake client both have them:
 * {@link io.listwatch.apiserver.controller.ServiceAccountsController} (a {@code default}
 * ServiceAccount in every namespace, which admission needs for pods) and
 * {@link io.listwatch.apiserver.controller.ResourceQuotaController}, which keeps ResourceQuotas'
 * status (kube-controller-manager's resource quota controller).
 */
package io.listwatch.apiserver.controller;
