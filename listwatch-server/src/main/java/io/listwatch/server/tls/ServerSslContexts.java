package io.listwatch.server.tls;

import io.netty.handler.codec.http2.Http2SecurityUtil;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLException;

/**
 * Builds the server's Netty {@link SslContext}: the serving certificate, client certificates
 * requested but not required and verified against the client CAs when given (kube's
 * {@code VerifyClientCertIfGiven}; the CAs are named in the certificate request so clients can
 * choose), ALPN offering {@code h2} then {@code http/1.1} (a client without ALPN speaks
 * HTTP/1.1), TLS 1.2 and 1.3 with HTTP/2's cipher list. Stateless.
 */
public final class ServerSslContexts {

  private ServerSslContexts() {
  }

  public static SslContext build(TlsMaterial material, TlsConfig.Provider provider) {
    SslProvider p = provider(provider);
    try {
      return SslContextBuilder
          .forServer(material.serving().privateKey(), material.serving().chain().toArray(X509Certificate[]::new))
          .sslProvider(p)
          .trustManager(material.clientCas().toArray(X509Certificate[]::new))
          .clientAuth(ClientAuth.OPTIONAL)
          .protocols("TLSv1.3", "TLSv1.2")
          .ciphers(Http2SecurityUtil.CIPHERS, SupportedCipherSuiteFilter.INSTANCE)
          .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
              // a client that offers only protocols we do not speak gets a no_application_protocol
              // alert, as from Go's servers; OpenSSL cannot do that and lets it speak HTTP/1.1
              p == SslProvider.JDK ? ApplicationProtocolConfig.SelectorFailureBehavior.FATAL_ALERT
                  : ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
              ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
              ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1))
          .build();
    } catch (SSLException e) {
      throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
    }
  }

  /** The Netty provider for a configured one: OpenSSL when it loads (or fails if it was required), else the JDK. */
  static SslProvider provider(TlsConfig.Provider provider) {
    return switch (provider) {
      case JDK -> SslProvider.JDK;
      case OPENSSL -> {
        if (!OpenSsl.isAvailable()) {
          throw new IllegalStateException("OpenSSL is not available: " + OpenSsl.unavailabilityCause());
        }
        yield SslProvider.OPENSSL;
      }
      case DEFAULT -> OpenSsl.isAvailable() && SslProvider.isAlpnSupported(SslProvider.OPENSSL)
          ? SslProvider.OPENSSL : SslProvider.JDK;
    };
  }

  /** The name of the provider a configuration selects, for logs. */
  public static String describe(TlsConfig.Provider provider) {
    SslProvider p = provider(provider);
    return p == SslProvider.OPENSSL ? "OpenSSL (" + OpenSsl.versionString() + ")" : "JDK";
  }
}
