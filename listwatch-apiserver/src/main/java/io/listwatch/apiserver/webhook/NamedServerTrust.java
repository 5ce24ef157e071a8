package io.listwatch.apiserver.webhook;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Trusts a server whose certificate chains to given roots and names one expected host in its
 * subject alternative names (DNS names, one leading {@code *} label allowed, or IP addresses), as
 * Go's TLS client checks a webhook: the name is the one kube expects, not the address connected
 * to (a Service's {@code <name>.<namespace>.svc} reached at an endpoint's IP). The subject's
 * common name is not read, as Go no longer does. Client certificates are not trusted by it.
 *
 * <p>Immutable and thread-safe.
 */
final class NamedServerTrust extends X509ExtendedTrustManager {

  private static final int DNS_NAME = 2;
  private static final int IP_ADDRESS = 7;

  private final X509TrustManager roots;
  private final String serverName;

  NamedServerTrust(X509TrustManager roots, String serverName) {
    this.roots = roots;
    this.serverName = serverName.startsWith("[") && serverName.endsWith("]")
        ? serverName.substring(1, serverName.length() - 1) : serverName;
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    roots.checkServerTrusted(chain, authType); // the chain only: no socket, so no name check of its own
    checkName(chain[0]);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
    checkServerTrusted(chain, authType);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    checkServerTrusted(chain, authType);
  }

  private void checkName(X509Certificate leaf) throws CertificateException {
    boolean ip = isIpLiteral(serverName);
    for (List<?> san : names(leaf)) {
      int type = (Integer) san.get(0);
      String value = String.valueOf(san.get(1));
      if (ip ? type == IP_ADDRESS && sameAddress(value, serverName) : type == DNS_NAME && matches(value, serverName)) {
        return;
      }
    }
    throw new CertificateException("x509: certificate is not valid for " + serverName);
  }

  private static Collection<List<?>> names(X509Certificate leaf) throws CertificateParsingException {
    Collection<List<?>> names = leaf.getSubjectAlternativeNames();
    return names == null ? List.of() : names;
  }

  private static boolean isIpLiteral(String host) {
    return host.contains(":") || host.matches("[0-9]+(\\.[0-9]+){3}");
  }

  private static boolean sameAddress(String a, String b) {
    try { // both are address literals: no name is looked up
      return java.net.InetAddress.getByName(a).equals(java.net.InetAddress.getByName(b));
    } catch (java.net.UnknownHostException notAnAddress) {
      return false;
    }
  }

  /** A DNS name of the certificate against the host: case-insensitive, {@code *.} standing for one label. */
  static boolean matches(String pattern, String host) {
    String p = pattern.toLowerCase(Locale.ROOT);
    String h = host.toLowerCase(Locale.ROOT);
    if (p.startsWith("*.")) {
      int dot = h.indexOf('.');
      return dot > 0 && h.substring(dot).equals(p.substring(1));
    }
    return p.equals(h);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    throw new CertificateException("not a server's trust for clients");
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
    checkClientTrusted(chain, authType);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    checkClientTrusted(chain, authType);
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return roots.getAcceptedIssuers();
  }
}
