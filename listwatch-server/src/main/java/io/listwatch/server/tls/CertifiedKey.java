package io.listwatch.server.tls;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A certificate chain (leaf first) with the leaf's private key, as Go's {@code tls.Certificate}.
 * Immutable.
 */
public record CertifiedKey(List<X509Certificate> chain, PrivateKey privateKey) {

  public CertifiedKey {
    chain = List.copyOf(chain);
    if (chain.isEmpty()) {
      throw new IllegalArgumentException("a certificate chain needs at least one certificate");
    }
  }

  /** Reads a PEM certificate file (the chain, leaf first) and its PEM private key file. */
  public static CertifiedKey read(Path certificateFile, Path keyFile) {
    return new CertifiedKey(Pem.certificates(Pem.read(certificateFile), certificateFile.toString()),
        Pem.privateKey(Pem.read(keyFile), keyFile.toString()));
  }

  /** The leaf certificate. */
  public X509Certificate certificate() {
    return chain.getFirst();
  }

  /** The chain as PEM, leaf first. */
  public String certificatePem() {
    return Pem.encode(chain);
  }

  /** The private key as PEM (PKCS#8, unencrypted). */
  public String privateKeyPem() {
    return Pem.encode(privateKey);
  }

  /** Writes the chain and the key as PEM files; the key file is readable by its owner only. */
  public void write(Path certificateFile, Path keyFile) {
    try {
      Files.writeString(certificateFile, certificatePem(), StandardCharsets.US_ASCII);
      Files.deleteIfExists(keyFile);
      if (keyFile.getFileSystem().supportedFileAttributeViews().contains("posix")) {
        Files.createFile(keyFile, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      }
      Files.writeString(keyFile, privateKeyPem(), StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + certificateFile + " and " + keyFile, e);
    }
  }

  /**
   * A TLS client context that presents this certificate and trusts the given CA certificates
   * (e.g. {@code ApiServer.caCertificate()}), for Java clients acting as this certificate's user.
   */
  public SSLContext clientSslContext(X509Certificate... trusted) {
    try {
      KeyManagerFactory kmf = keyManagers();
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      for (int i = 0; i < trusted.length; i++) {
        trust.setCertificateEntry("ca-" + i, trusted[i]);
      }
      TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trust);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("cannot build a TLS context for " + certificate().getSubjectX500Principal(), e);
    }
  }

  /**
   * A TLS server context that presents this certificate (and asks clients for none), for a
   * server of a test or an embedded one: a webhook, an aggregated API.
   */
  public SSLContext serverSslContext() {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keyManagers().getKeyManagers(), null, null);
      return context;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("cannot build a TLS context for " + certificate().getSubjectX500Principal(), e);
    }
  }

  private KeyManagerFactory keyManagers() throws GeneralSecurityException, IOException {
    KeyStore keys = KeyStore.getInstance("PKCS12");
    keys.load(null, null);
    keys.setKeyEntry("key", privateKey, new char[0], chain.toArray(X509Certificate[]::new));
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(keys, new char[0]);
    return kmf;
  }
}
