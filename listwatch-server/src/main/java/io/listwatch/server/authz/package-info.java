/**
 * Authorization: the {@link io.listwatch.server.authz.Authorizer} interface, the
 * {@link io.listwatch.server.authz.Attributes} it decides on, and kube's 403 message
 * ({@link io.listwatch.server.authz.Forbidden}).
 */
package io.listwatch.server.authz;
