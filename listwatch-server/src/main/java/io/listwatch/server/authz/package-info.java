/**
 * Authorization: the {@link io.listwatch.server.authz.Authorizer} interface, the
 * {@link io.listwatch.server.authz.Attributes} it decides on, and kube's 403 message
 * ({@link io.listwatch.server.authz.Forbidden}); {@link io.listwatch.server.authz.AuthorizationMode}
 * ({@code --authorization-mode}); {@link io.listwatch.server.authz.RuleResolver} (what a user may
 * do, for rules reviews); {@link io.listwatch.server.authz.AccessReviews} (kube's
 * SelfSubjectAccessReview, SelfSubjectRulesReview, SubjectAccessReview and
 * LocalSubjectAccessReview).
 */
package io.listwatch.server.authz;
