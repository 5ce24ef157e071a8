/**
 * kube's string syntax rules, shared by the server's validation and the label selector parser.
 *
 * <ul>
 *   <li>{@link io.listwatch.api.validation.NameSyntax}: DNS-1123 subdomain and label, DNS-1035
 *       label, qualified name (label and annotation keys), label value and URL path segment,
 *       each returning kube's own messages.</li>
 * </ul>
 */
package io.listwatch.api.validation;
