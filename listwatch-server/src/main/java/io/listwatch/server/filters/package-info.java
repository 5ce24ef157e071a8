/**
 * The request pipeline before the handlers, in kube's order: authentication, impersonation,
 * in-flight limits (API Priority and Fairness, {@code io.listwatch.apiserver.flowcontrol}, by
 * default, or {@link io.listwatch.server.filters.MaxInFlightLimit}; {@link
 * io.listwatch.server.filters.WatchLimit}), authorization ({@link io.listwatch.server.filters.HandlerChain}). Every
 * transport runs it the same way.
 */
package io.listwatch.server.filters;
