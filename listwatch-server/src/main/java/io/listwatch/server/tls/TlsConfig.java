package io.listwatch.server.tls;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How the server's TLS listener is set up: extra names for the serving certificate, or the
 * operator's own certificate files, and the TLS implementation. Without files the server
 * creates its own CA and certificates in the data directory (see {@link TlsMaterial}).
 * Immutable.
 *
 * @param subjectAltNames extra DNS names and IP addresses for the generated serving
 *     certificate ({@code --tls-san}), beyond localhost, 127.0.0.1, ::1 and the host name
 * @param certificateFile the operator's serving certificate chain, PEM ({@code --tls-cert-file});
 *     null to generate one
 * @param privateKeyFile its private key, PEM ({@code --tls-private-key-file})
 * @param clientCaFile the CAs that sign client certificates, PEM ({@code --client-ca-file});
 *     null to trust the generated CA
 * @param provider the TLS implementation
 * @param handshakeTimeout a connection that has not completed its TLS handshake by then is closed
 */
public record TlsConfig(List<String> subjectAltNames, Path certificateFile, Path privateKeyFile, Path clientCaFile,
    Provider provider, Duration handshakeTimeout) {

  /** Generated certificates, OpenSSL when available, a 10 s handshake timeout. */
  public static final TlsConfig DEFAULTS = new TlsConfig(List.of(), null, null, null, Provider.DEFAULT,
      Duration.ofSeconds(10));

  /** The TLS implementation ({@code --tls-provider}). */
  public enum Provider {
    /** OpenSSL when netty-tcnative is on the class path and loads, else the JDK's. */
    DEFAULT,
    /** The JDK's TLS. */
    JDK,
    /** OpenSSL; the server does not start if it cannot be loaded. */
    OPENSSL
  }

  public TlsConfig {
    subjectAltNames = List.copyOf(subjectAltNames);
    Objects.requireNonNull(provider);
    Objects.requireNonNull(handshakeTimeout);
    if ((certificateFile == null) != (privateKeyFile == null)) {
      throw new IllegalArgumentException("a serving certificate file and its private key file go together");
    }
    if (handshakeTimeout.isNegative() || handshakeTimeout.isZero()) {
      throw new IllegalArgumentException("the handshake timeout must be positive");
    }
  }

  public TlsConfig withSubjectAltNames(List<String> sans) {
    List<String> all = new ArrayList<>(subjectAltNames);
    all.addAll(sans);
    return new TlsConfig(all, certificateFile, privateKeyFile, clientCaFile, provider, handshakeTimeout);
  }

  /** Serve with the operator's certificate chain and key instead of a generated one. */
  public TlsConfig withServingCertificate(Path certificate, Path privateKey) {
    return new TlsConfig(subjectAltNames, Objects.requireNonNull(certificate), Objects.requireNonNull(privateKey),
        clientCaFile, provider, handshakeTimeout);
  }

  /** Trust only the operator's CAs for client certificates; the server then issues no admin certificate. */
  public TlsConfig withClientCa(Path clientCa) {
    return new TlsConfig(subjectAltNames, certificateFile, privateKeyFile, Objects.requireNonNull(clientCa), provider,
        handshakeTimeout);
  }

  public TlsConfig withProvider(Provider p) {
    return new TlsConfig(subjectAltNames, certificateFile, privateKeyFile, clientCaFile, p, handshakeTimeout);
  }

  public TlsConfig withHandshakeTimeout(Duration timeout) {
    return new TlsConfig(subjectAltNames, certificateFile, privateKeyFile, clientCaFile, provider, timeout);
  }
}
