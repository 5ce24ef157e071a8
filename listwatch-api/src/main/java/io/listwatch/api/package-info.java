/**
 * The wire model the server and the client share.
 *
 * <ul>
 *   <li>{@link io.listwatch.api.Status} and {@link io.listwatch.api.StatusException}: kube's
 *       error object and the exception that carries it; every non-2xx answer is one.</li>
 *   <li>{@link io.listwatch.api.LabelSelector}, {@link io.listwatch.api.FieldSelector}: the
 *       selector grammars of apimachinery, parsed once and matched many times.</li>
 *   <li>{@link io.listwatch.api.ListOptions}: list and watch query parameters, validated as
 *       kube-apiserver validates them; {@link io.listwatch.api.ResourceVersionMatch} is its
 *       {@code resourceVersionMatch}.</li>
 *   <li>{@link io.listwatch.api.ContinueToken}: the opaque paging token.</li>
 *   <li>{@link io.listwatch.api.JsonMergePatch}: RFC 7386, what the server applies for
 *       {@code application/merge-patch+json}. The other patch
 *       types and kube's table of merge keys are in {@link io.listwatch.api.patch}.</li>
 *   <li>{@link io.listwatch.api.GoDuration}: Go's duration strings ({@code "1m20s"}), as
 *       {@code metav1.Duration} is in JSON and as kube's messages write durations.</li>
 * </ul>
 *
 * <p>Package-private helpers: {@code LabelSelectorParser} (the {@code labels.Parse} lexer and
 * parser) and {@code Strconv} (Go's quoting and integer-parsing messages, so that our errors
 * read like kube's). Label key and value rules are in {@link io.listwatch.api.validation}.
 */
package io.listwatch.api;
