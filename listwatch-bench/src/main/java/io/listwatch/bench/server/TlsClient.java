package io.listwatch.bench.server;

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
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocketFactory;

/**
 * The client side of the benchmark's TLS: whom to trust and which certificate to present,
 * from the PEM files the server writes into its data directory on first start
 * ({@value #CA_FILE}, {@value #CERT_FILE}, {@value #KEY_FILE}: its CA and the admin client
 * certificate, CN=admin, O=system:masters). Without the CA file the server's certificate is
 * not checked; without the client pair no certificate is presented. Host names are not
 * checked either way (the benchmark talks to 127.0.0.1).
 *
 * <p>Immutable; its contexts are thread-safe.
 */
final class TlsClient {

  static final String CA_FILE = "ca.crt";
  static final String CERT_FILE = "admin.crt";
  static final String KEY_FILE = "admin.key";

  private final SslContext http1;
  private final SslContext h2;
  private final SSLSocketFactory writers;
  private final String description;

  private TlsClient(SslContext http1, SslContext h2, SSLSocketFactory writers, String description) {
    this.http1 = http1;
    this.h2 = h2;
    this.writers = writers;
    this.description = description;
  }

  /**
   * Contexts for a server whose data directory is {@code dataDir}; the watches use
   * {@code provider} (null: OpenSSL when Netty finds netty-tcnative, else the JDK's), the
   * writers the JDK's {@code SSLSocket}.
   */
  static TlsClient forServer(Path dataDir, SslProvider provider) throws SSLException {
    SslProvider p = provider != null ? provider : OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
    Path ca = dataDir.resolve(CA_FILE);
    Path cert = dataDir.resolve(CERT_FILE);
    Path key = dataDir.resolve(KEY_FILE);
    boolean trust = Files.isRegularFile(ca);
    boolean clientCert = Files.isRegularFile(cert) && Files.isRegularFile(key);
    SslContext http1 = builder(p, ca, cert, key, trust, clientCert, ApplicationProtocolNames.HTTP_1_1).build();
    SslContext h2 = builder(p, ca, cert, key, trust, clientCert, ApplicationProtocolNames.HTTP_2).build();
    JdkSslContext jdk = (JdkSslContext) builder(SslProvider.JDK, ca, cert, key, trust, clientCert, null).build();
    String description = "client TLS: watches " + p + (p == SslProvider.OPENSSL ? " (" + OpenSsl.versionString() + ")" : "")
        + ", writers JDK SSLSocket; " + (trust ? "trusting " + CA_FILE : "trusting any server certificate")
        + (clientCert ? ", client certificate " + CERT_FILE : ", no client certificate");
    return new TlsClient(http1, h2, jdk.context().getSocketFactory(), description);
  }

  private static SslContextBuilder builder(SslProvider p, Path ca, Path cert, Path key, boolean trust,
      boolean clientCert, String alpn) {
    SslContextBuilder b = SslContextBuilder.forClient().sslProvider(p).endpointIdentificationAlgorithm(null);
    if (trust) {
      b.trustManager(ca.toFile());
    } else {
      b.trustManager(InsecureTrustManagerFactory.INSTANCE);
    }
    if (clientCert) {
      b.keyManager(cert.toFile(), key.toFile());
    }
    if (alpn != null) {
      b.applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
          ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
          ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, alpn));
    }
    return b;
  }

  /** For HTTP/1.1 watches and WebSocket upgrades (ALPN offers http/1.1 only). */
  SslContext http1() {
    return http1;
  }

  /** For HTTP/2 watches (ALPN offers h2 only). */
  SslContext h2() {
    return h2;
  }

  /** For the writers' blocking connections. */
  SSLSocketFactory writers() {
    return writers;
  }

  /** What the client does, for the report's parameters. */
  String description() {
    return description;
  }
}
