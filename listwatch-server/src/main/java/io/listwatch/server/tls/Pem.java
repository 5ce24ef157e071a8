package io.listwatch.server.tls;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;

/**
 * Reads and writes certificates and private keys as PEM. Keys are written in OpenSSL's
 * traditional form, as kubeadm and kube's own tools write them: SEC1 for EC keys
 * ({@code EC PRIVATE KEY}), PKCS#1 for RSA ({@code RSA PRIVATE KEY}), which every client reads
 * (fabric8 6.x and 7.5 misread an EC key in PKCS#8 form as RSA); PKCS#8, PKCS#1 RSA and SEC1 EC
 * keys are read. Stateless.
 */
final class Pem {

  private Pem() {
  }

  static String encode(List<X509Certificate> certificates) {
    return write(certificates.toArray());
  }

  static String encode(PrivateKey key) {
    if (key instanceof java.security.interfaces.ECPrivateKey ec) {
      return write(new org.bouncycastle.util.io.pem.PemObject("EC PRIVATE KEY", sec1(ec)));
    }
    return write(key);
  }

  /**
   * An EC key as SEC1 DER with its public key, as OpenSSL writes it: some readers (BouncyCastle's
   * key-pair converter among them) need the public key, which the JDK's encoding leaves out.
   */
  private static byte[] sec1(java.security.interfaces.ECPrivateKey key) {
    try {
      PrivateKeyInfo info = PrivateKeyInfo.getInstance(key.getEncoded());
      org.bouncycastle.jce.spec.ECParameterSpec curve = org.bouncycastle.jcajce.provider.asymmetric.util.EC5Util
          .convertSpec(key.getParams());
      org.bouncycastle.math.ec.ECPoint q = curve.getG().multiply(key.getS()).normalize();
      return new org.bouncycastle.asn1.sec.ECPrivateKey(curve.getN().bitLength(), key.getS(),
          new org.bouncycastle.asn1.DERBitString(q.getEncoded(false)),
          info.getPrivateKeyAlgorithm().getParameters()).getEncoded();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String write(Object... objects) {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter w = new JcaPEMWriter(out)) {
      for (Object o : objects) {
        w.writeObject(o);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  /** Every certificate in the PEM text, in order; at least one. */
  static List<X509Certificate> certificates(String pem, String what) {
    List<X509Certificate> out = new ArrayList<>();
    try (PEMParser p = new PEMParser(new StringReader(pem))) {
      JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
      for (Object o = p.readObject(); o != null; o = p.readObject()) {
        if (o instanceof X509CertificateHolder h) {
          out.add(converter.getCertificate(h));
        }
      }
    } catch (IOException | CertificateException e) {
      throw new IllegalArgumentException(what + ": not a PEM certificate: " + e.getMessage(), e);
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException(what + ": no PEM CERTIFICATE block found");
    }
    return out;
  }

  /** The first private key in the PEM text. */
  static PrivateKey privateKey(String pem, String what) {
    try (Reader r = new StringReader(pem); PEMParser p = new PEMParser(r)) {
      JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
      for (Object o = p.readObject(); o != null; o = p.readObject()) {
        if (o instanceof PEMKeyPair kp) {
          return converter.getPrivateKey(kp.getPrivateKeyInfo());
        }
        if (o instanceof PrivateKeyInfo info) {
          return converter.getPrivateKey(info);
        }
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(what + ": not a PEM private key: " + e.getMessage(), e);
    }
    throw new IllegalArgumentException(what + ": no unencrypted PEM private key found");
  }

  static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
