/**
 * The request pipeline before the handlers, in kube's order: authentication, impersonation,
 * in-flight limits, authorization ({@link io.listwatch.server.filters.HandlerChain}). Every
 * transport runs it the same way.
 */
package io.listwatch.server.filters;
