package io.listwatch.bench.server;

import io.listwatch.server.tls.CertifiedKey;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.IOException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocketFactory;

/**
 * The client side of the benchmark's TLS: whom to trust and which certificate to present,
 * from the PEM files the server writes into {@code <data-dir>/tls/} on first start
 * ({@value #CA_FILE}, {@value #CERT_FILE}, {@value #KEY_FILE}: its CA and the admin client
 * certificate, CN=admin, O=system:masters; read with the server's own {@link CertifiedKey}). Without the CA file the server's certificate is
 * not checked; without the client pair no certificate is presented. Host names are not
 * checked either way (the benchmark talks to 127.0.0.1).
 *
 * <p>Immutable; its contexts are thread-safe.
 *
 * @param http1 for HTTP/1.1 watches and WebSocket upgrades (ALPN offers http/1.1 only)
 * @param h2 for HTTP/2 watches (ALPN offers h2 only)
 * @param writers for the writers' blocking connections
 * @param description what the client does, for the report's parameters
 */
record TlsClient(SslContext http1, SslContext h2, SSLSocketFactory writers, String description) {

  static final String CA_FILE = "ca.crt";
  static final String CERT_FILE = "admin.crt";
  static final String KEY_FILE = "admin.key";

  /**
   * Contexts for a server whose data directory is {@code dataDir}; the watches use
   * {@code provider} (null: OpenSSL when Netty finds netty-tcnative, else the JDK's), the
   * writers the JDK's {@code SSLSocket}.
   */
  static TlsClient forServer(Path dataDir, SslProvider provider) throws SSLException {
    SslProvider p = provider != null ? provider : OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
    Path dir = dataDir.resolve("tls");
    Path ca = dir.resolve(CA_FILE);
    Path cert = dir.resolve(CERT_FILE);
    Path key = dir.resolve(KEY_FILE);
    X509Certificate trust = Files.isRegularFile(ca) ? readCertificate(ca) : null;
    CertifiedKey clientCert = Files.isRegularFile(cert) && Files.isRegularFile(key) ? CertifiedKey.read(cert, key)
        : null;
    SslContext http1 = builder(p, trust, clientCert, ApplicationProtocolNames.HTTP_1_1).build();
    SslContext h2 = builder(p, trust, clientCert, ApplicationProtocolNames.HTTP_2).build();
    JdkSslContext jdk = (JdkSslContext) builder(SslProvider.JDK, trust, clientCert, null).build();
    String description = "client TLS: watches " + p + (p == SslProvider.OPENSSL ? " (" + OpenSsl.versionString() + ")" : "")
        + ", writers JDK SSLSocket; " + (trust != null ? "trusting tls/" + CA_FILE : "trusting any server certificate")
        + (clientCert != null ? ", client certificate tls/" + CERT_FILE : ", no client certificate");
    return new TlsClient(http1, h2, jdk.context().getSocketFactory(), description);
  }

  private static SslContextBuilder builder(SslProvider p, X509Certificate trust, CertifiedKey clientCert,
      String alpn) {
    SslContextBuilder b = SslContextBuilder.forClient().sslProvider(p).endpointIdentificationAlgorithm(null);
    if (trust != null) {
      b.trustManager(trust);
    } else {
      b.trustManager(InsecureTrustManagerFactory.INSTANCE);
    }
    if (clientCert != null) {
      b.keyManager(clientCert.privateKey(), clientCert.chain().toArray(new X509Certificate[0]));
    }
    if (alpn != null) {
      b.applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
          ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
          ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, alpn));
    }
    return b;
  }

  private static X509Certificate readCertificate(Path pem) throws SSLException {
    try (var in = Files.newInputStream(pem)) {
      return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    } catch (IOException | CertificateException e) {
      throw new SSLException("cannot read " + pem, e);
    }
  }
}
