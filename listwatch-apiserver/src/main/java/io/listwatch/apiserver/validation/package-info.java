/**
 * kube's object validation that does not depend on a type's spec: metadata rules and how a
 * resource's name rule applies. Name generation and the metadata the server sets are in
 * {@link io.listwatch.api.meta}, shared with the client's fake.
 *
 * <p>Map of the package:
 * <ul>
 *   <li>{@link io.listwatch.apiserver.validation.ObjectMetaValidator}: validates
 *       {@code metadata} on create as kube does, producing the causes of a 422 Invalid;
 *       {@code check} throws the {@link io.listwatch.api.StatusException}.</li>
 *   <li>{@link io.listwatch.apiserver.validation.NameRules}: a resource's name rule
 *       ({@link io.listwatch.apiserver.registry.NameValidation}) applied to a name or a
 *       {@code generateName}; the string syntaxes themselves (DNS-1123, DNS-1035, qualified
 *       name, label value, path segment) are {@link io.listwatch.api.validation.NameSyntax},
 *       shared with the client.</li>
 *   <li>{@code FieldErrors} (package-private): kube's {@code field.Error} constructors and Go's
 *       formatting of bad values.</li>
 * </ul>
 */
package io.listwatch.apiserver.validation;
