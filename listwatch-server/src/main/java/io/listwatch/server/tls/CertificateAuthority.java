package io.listwatch.server.tls;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.IPAddress;

/**
 * A certificate authority that signs the server's certificates: serving certificates with
 * subject alternative names, and client certificates that name a user (CN) and its groups
 * (one O each), which is how kube-apiserver reads a client certificate. Keys are ECDSA P-256.
 * The CA is valid for 10 years, what it issues for 1 year (as k3s).
 *
 * <p>Immutable and thread-safe.
 */
public final class CertificateAuthority {

  static final Duration CA_VALIDITY = Duration.ofDays(3650);
  static final Duration LEAF_VALIDITY = Duration.ofDays(365);
  /** Certificates start an hour in the past, so a client whose clock is a little behind accepts them. */
  private static final Duration BACKDATE = Duration.ofHours(1);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final CertifiedKey ca;

  private CertificateAuthority(CertifiedKey ca) {
    this.ca = ca;
  }

  /** A new self-signed CA named {@code commonName}. */
  public static CertificateAuthority create(String commonName) {
    KeyPair keys = newKeyPair();
    X500Name name = new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, commonName).build();
    Instant now = Instant.now();
    X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(name, serial(), Date.from(now.minus(BACKDATE)),
        Date.from(now.plus(CA_VALIDITY)), name, keys.getPublic());
    try {
      JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
      b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
      b.addExtension(Extension.keyUsage, true,
          new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign | KeyUsage.digitalSignature));
      b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(keys.getPublic()));
    } catch (CertIOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot build the CA certificate", e);
    }
    return new CertificateAuthority(new CertifiedKey(List.of(sign(b, keys.getPrivate())), keys.getPrivate()));
  }

  /** An existing CA: its certificate and private key. */
  public static CertificateAuthority of(CertifiedKey ca) {
    if (ca.certificate().getBasicConstraints() < 0) {
      throw new IllegalArgumentException("not a CA certificate: " + ca.certificate().getSubjectX500Principal());
    }
    return new CertificateAuthority(ca);
  }

  /** The CA's certificate and key. */
  public CertifiedKey certifiedKey() {
    return ca;
  }

  public X509Certificate certificate() {
    return ca.certificate();
  }

  /**
   * A serving certificate for {@code subjectAltNames}: each entry that is an IPv4 or IPv6
   * address becomes an IP SAN, every other entry a DNS SAN.
   */
  public CertifiedKey issueServing(String commonName, List<String> subjectAltNames) {
    List<GeneralName> names = new ArrayList<>();
    for (String san : subjectAltNames) {
      boolean ip = IPAddress.isValid(san);
      names.add(new GeneralName(ip ? GeneralName.iPAddress : GeneralName.dNSName, san));
    }
    X500Name subject = new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, commonName).build();
    return issue(subject, KeyPurposeId.id_kp_serverAuth, new GeneralNames(names.toArray(GeneralName[]::new)));
  }

  /** A client certificate for {@code user} (CN) in {@code groups} (one O each, in order). */
  public CertifiedKey issueClient(String user, List<String> groups) {
    if (Objects.requireNonNull(user).isEmpty()) {
      throw new IllegalArgumentException("a client certificate needs a user name");
    }
    X500NameBuilder subject = new X500NameBuilder(BCStyle.INSTANCE);
    for (String group : groups) {
      subject.addRDN(BCStyle.O, group);
    }
    subject.addRDN(BCStyle.CN, user);
    return issue(subject.build(), KeyPurposeId.id_kp_clientAuth, null);
  }

  private CertifiedKey issue(X500Name subject, KeyPurposeId purpose, GeneralNames sans) {
    KeyPair keys = newKeyPair();
    Instant now = Instant.now();
    Instant notAfter = now.plus(LEAF_VALIDITY);
    if (notAfter.isAfter(certificate().getNotAfter().toInstant())) {
      notAfter = certificate().getNotAfter().toInstant();
    }
    X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(certificate(), serial(),
        Date.from(now.minus(BACKDATE)), Date.from(notAfter), subject, keys.getPublic());
    try {
      JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
      b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
      b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
      b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose));
      b.addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(certificate()));
      if (sans != null) {
        b.addExtension(Extension.subjectAlternativeName, false, sans);
      }
    } catch (CertIOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot build a certificate for " + subject, e);
    }
    return new CertifiedKey(List.of(sign(b, ca.privateKey())), keys.getPrivate());
  }

  private static X509Certificate sign(X509v3CertificateBuilder b, PrivateKey signer) {
    try {
      return new JcaX509CertificateConverter()
          .getCertificate(b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer)));
    } catch (OperatorCreationException | CertificateException e) {
      throw new IllegalStateException("cannot sign a certificate", e);
    }
  }

  private static KeyPair newKeyPair() {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
      g.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
      return g.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("no ECDSA P-256 key generator", e);
    }
  }

  /** A random positive 127-bit serial number, as RFC 5280 asks (unique, at most 20 octets). */
  private static BigInteger serial() {
    return new BigInteger(127, RANDOM).add(BigInteger.ONE);
  }
}
