package io.listwatch.apiserver.request;

import java.net.SocketAddress;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * The connection a request arrived on, as the filters need it. Immutable.
 *
 * @param listener which listener accepted it
 * @param peerCertificates the client's certificate chain, leaf first, already verified against
 *     the client CA by the TLS handshake; empty when the client sent none (or on plain HTTP)
 * @param remoteAddress the client's address, for logs
 */
public record ConnectionInfo(Listener listener, List<X509Certificate> peerCertificates, SocketAddress remoteAddress) {

  /** Which listener a connection came in on. */
  public enum Listener {
    /** The TLS listener ({@code --secure-port}): every request is authenticated and authorized. */
    SECURE,
    /**
     * The plain-HTTP listener ({@code --http-port}, loopback only): every request acts as the
     * cluster admin, like kube's former insecure port.
     */
    INSECURE
  }

  public ConnectionInfo {
    peerCertificates = List.copyOf(peerCertificates);
  }

  /** A plain-HTTP connection with no certificates. */
  public static ConnectionInfo insecure(SocketAddress remoteAddress) {
    return new ConnectionInfo(Listener.INSECURE, List.of(), remoteAddress);
  }
}
