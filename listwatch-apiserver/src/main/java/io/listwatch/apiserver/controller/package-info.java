/**
 * What the server's own control loops share: {@link io.listwatch.apiserver.controller.ControllerQueue},
 * a deduplicating work queue with one worker, gated by leadership and retried on the injected
 * clock (client-go's workqueue, reduced to what the server needs); and the control loop the
 * core runs itself, {@link io.listwatch.apiserver.controller.ServiceAccountsController} (a
 * {@code default} ServiceAccount in every namespace, which admission needs for pods).
 */
package io.listwatch.apiserver.controller;
