package io.listwatch.apiserver.webhook;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * The HTTPS clients the server calls out with (webhooks, aggregated API servers): each trusts a
 * PEM CA bundle (or the JDK's roots when it is empty) and checks that the server's certificate
 * names the expected host ({@link NamedServerTrust}), or, for an APIService with
 * {@code insecureSkipTLSVerify}, checks nothing. Redirects are not followed; HTTP/1.1 only, so
 * a streamed answer (a watch) arrives as the remote sent it.
 *
 * <p>One client is kept per trust, name and connect timeout, so connections are reused between
 * calls. Thread-safe.
 */
public final class TlsClients {

  /** More kept clients than this and they are dropped and made anew. */
  private static final int MAX_CLIENTS = 256;

  private final Map<Key, HttpClient> clients = new ConcurrentHashMap<>();

  private record Key(String caBundle, String serverName, boolean insecure, Duration connectTimeout) {
  }

  /**
   * The client that trusts {@code caBundle} and expects {@code serverName}, or trusts any
   * server when {@code insecure}.
   *
   * @throws GeneralSecurityException when the bundle holds no certificate or TLS cannot be set up
   */
  public HttpClient client(byte[] caBundle, String serverName, boolean insecure, Duration connectTimeout)
      throws GeneralSecurityException, IOException {
    Key key = new Key(insecure ? "" : Arrays.toString(caBundle), insecure ? "" : serverName, insecure, connectTimeout);
    HttpClient found = clients.get(key);
    if (found != null) {
      return found;
    }
    if (clients.size() >= MAX_CLIENTS) {
      clients.clear();
    }
    SSLContext tls = SSLContext.getInstance("TLS");
    TrustManager trust = insecure ? new TrustAll() : new NamedServerTrust(roots(caBundle), serverName);
    tls.init(null, new TrustManager[] {trust}, new SecureRandom());
    HttpClient made = HttpClient.newBuilder().sslContext(tls).connectTimeout(connectTimeout)
        .version(HttpClient.Version.HTTP_1_1).followRedirects(HttpClient.Redirect.NEVER).build();
    HttpClient raced = clients.putIfAbsent(key, made);
    return raced != null ? raced : made;
  }

  /** The trust of {@code caBundle}'s certificates, or the JDK's roots when it is empty. */
  private static X509TrustManager roots(byte[] caBundle) throws GeneralSecurityException, IOException {
    KeyStore store = null;
    if (caBundle.length > 0) {
      store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int i = 0;
      for (Certificate c : CertificateFactory.getInstance("X.509")
          .generateCertificates(new ByteArrayInputStream(caBundle))) {
        store.setCertificateEntry("ca-" + i++, c);
      }
      if (i == 0) {
        throw new GeneralSecurityException("caBundle holds no certificate");
      }
    }
    TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(store);
    for (TrustManager m : factory.getTrustManagers()) {
      if (m instanceof X509TrustManager x) {
        return x;
      }
    }
    throw new GeneralSecurityException("no X.509 trust manager");
  }

  /** Go's {@code InsecureSkipVerify}: any server certificate, no name check. */
  private static final class TrustAll extends javax.net.ssl.X509ExtendedTrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws java.security.cert.CertificateException {
      throw new java.security.cert.CertificateException("not a server's trust for clients");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, java.net.Socket socket)
        throws java.security.cert.CertificateException {
      checkClientTrusted(chain, authType);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, javax.net.ssl.SSLEngine engine)
        throws java.security.cert.CertificateException {
      checkClientTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, java.net.Socket socket) {
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, javax.net.ssl.SSLEngine engine) {
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
