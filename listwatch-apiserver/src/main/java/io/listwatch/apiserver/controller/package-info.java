/**
 * What the server's own control loops share: {@link io.listwatch.apiserver.controller.ControllerQueue},
 * a deduplicating work queue with one worker, gated by leadership and retried on the injected
 * clock (client-go's workqueue, reduced to what the server needs).
 */
package io.listwatch.apiserver.controller;
