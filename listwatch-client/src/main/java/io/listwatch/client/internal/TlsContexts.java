package io.listwatch.client.internal;

import io.listwatch.client.Config;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Builds the {@link SSLContext} of a {@link Config}: trust only the configured CA
 * certificates (as client-go does; the JDK's trust store when none are configured), present
 * the client certificate if configured, or trust anything when
 * {@code insecureSkipTlsVerify} (host names are then not checked either). Stateless.
 */
public final class TlsContexts {

  private static final char[] NO_PASSWORD = new char[0];

  private TlsContexts() {
  }

  /** The context for {@code config}. */
  public static SSLContext of(Config config) {
    try {
      KeyManager[] keyManagers = null;
      if (config.clientCertPem().isPresent()) {
        List<X509Certificate> chain = Pem.certificates(config.clientCertPem().get(), "client-certificate");
        PrivateKey key = Pem.privateKey(config.clientKeyPem().orElseThrow(), "client-key");
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setKeyEntry("client", key, NO_PASSWORD, chain.toArray(new X509Certificate[0]));
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, NO_PASSWORD);
        keyManagers = kmf.getKeyManagers();
      }
      TrustManager[] trustManagers = null;
      if (config.insecureSkipTlsVerify()) {
        trustManagers = new TrustManager[] {new TrustEverything()};
      } else if (config.caCertPem().isPresent()) {
        KeyStore ts = KeyStore.getInstance("PKCS12");
        ts.load(null, null);
        int i = 0;
        for (X509Certificate ca : Pem.certificates(config.caCertPem().get(), "certificate-authority")) {
          ts.setCertificateEntry("ca-" + i++, ca);
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ts);
        trustManagers = tmf.getTrustManagers();
      }
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keyManagers, trustManagers, null);
      return context;
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new IllegalArgumentException("cannot set up TLS: " + e.getMessage(), e);
    }
  }

  /**
   * Accepts every server certificate and, being an extended trust manager, also skips the
   * host name check (the JDK checks host names in the trust manager).
   */
  private static final class TrustEverything extends X509ExtendedTrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
