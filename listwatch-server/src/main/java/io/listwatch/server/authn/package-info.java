/**
 * Authentication: who a request acts as ({@link io.listwatch.server.authn.UserInfo}), decided
 * by {@link io.listwatch.server.authn.Authenticator}s from the request's credentials.
 */
package io.listwatch.server.authn;
