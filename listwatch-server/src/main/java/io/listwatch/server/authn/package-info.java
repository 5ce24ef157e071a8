/**
 * Authentication: who a request acts as ({@link io.listwatch.apiserver.request.UserInfo}), decided by
 * {@link io.listwatch.server.authn.Authenticator}s from the request's credentials, and the
 * authentication API.
 *
 * <ul>
 *   <li>Bearer tokens: {@link io.listwatch.server.authn.BearerTokenAuthenticator} reads
 *       {@code Authorization: Bearer} and asks the {@link io.listwatch.server.authn.TokenAuthenticator}s:
 *       static tokens ({@link io.listwatch.server.authn.TokenFileAuthenticator}) and
 *       service-account JWTs ({@link io.listwatch.server.authn.ServiceAccountTokenAuthenticator},
 *       issued by {@link io.listwatch.server.authn.ServiceAccountTokenGenerator} with
 *       {@link io.listwatch.server.authn.ServiceAccountKeys}).
 *   <li>{@link io.listwatch.server.authn.Impersonation}: the {@code Impersonate-*} headers.
 *   <li>REST handlers: TokenRequest ({@link io.listwatch.server.authn.TokenRequestHandler}),
 *       TokenReview and SelfSubjectReview.
 *   <li>{@link io.listwatch.server.authn.AuthenticationConfig}: the flags and the wiring.
 * </ul>
 */
package io.listwatch.server.authn;
