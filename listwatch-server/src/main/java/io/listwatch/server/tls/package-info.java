/**
 * TLS for the API server: the certificates it serves with and trusts, and the kubeconfig it
 * hands out.
 *
 * <ul>
 *   <li>{@link io.listwatch.server.tls.CertificateAuthority}: a CA that issues serving
 *       certificates (with SANs) and client certificates (CN the user, each O a group).</li>
 *   <li>{@link io.listwatch.server.tls.CertifiedKey}: a certificate with its private key, as
 *       PEM or as a client {@link javax.net.ssl.SSLContext}.</li>
 *   <li>{@link io.listwatch.server.tls.TlsConfig}: what the operator chose (extra SANs, their own
 *       certificate files, the TLS provider).</li>
 *   <li>{@link io.listwatch.server.tls.TlsMaterial}: the certificates of one server, created in
 *       the data directory on first start and reused later, or loaded from the operator's files.</li>
 *   <li>{@link io.listwatch.server.tls.ServerSslContexts}: the Netty {@code SslContext} (ALPN h2
 *       and http/1.1, client certificates requested but not required).</li>
 *   <li>{@link io.listwatch.server.tls.Kubeconfig}: writes the admin kubeconfig as k3s does.</li>
 * </ul>
 */
package io.listwatch.server.tls;
