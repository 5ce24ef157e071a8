package io.listwatch.server.controllers.certificates;

import io.listwatch.server.tls.CertifiedKey;
import java.math.BigInteger;
import java.net.InetAddress;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.operator.jcajce.JcaContentVerifierProviderBuilder;

/**
 * kube's local signer ({@code authority.CertificateAuthority} with the
 * {@code PermissiveSigningPolicy} of {@code pkg/controller/certificates/signer}): signs a
 * request's public key, subject and subject alternative names with a CA, after checking the
 * request's own signature. The certificate has the key usages and extended key usages the
 * CertificateSigningRequest's {@code spec.usages} name (kube's table), basic constraints
 * {@code CA:false}, the CA's key identifier, and no other extension of the request.
 *
 * <p>Validity: {@code notBefore} is 5 minutes before now (clocks that are a little behind
 * accept it); {@code notAfter} is {@code notBefore + ttl}, or {@code now + ttl} for a
 * certificate shorter than 8 hours (the backdate is not taken from a short life), never after
 * the CA's own {@code notAfter}. The TTL is the request's {@code spec.expirationSeconds}, at least
 * 10 minutes, at most the signer's maximum ({@link #duration}).
 *
 * <p>Immutable and thread-safe.
 */
final class CertificateSigner {

  static final Duration BACKDATE = Duration.ofMinutes(5);
  static final Duration SHORT = Duration.ofHours(8);
  static final Duration MIN_TTL = Duration.ofMinutes(10);
  /** kube-controller-manager's {@code --cluster-signing-duration} default. */
  static final Duration DEFAULT_MAX_TTL = Duration.ofHours(8760);

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Map<String, Integer> KEY_USAGES = Map.of("signing", KeyUsage.digitalSignature,
      "digital signature", KeyUsage.digitalSignature, "content commitment", KeyUsage.nonRepudiation,
      "key encipherment", KeyUsage.keyEncipherment, "key agreement", KeyUsage.keyAgreement,
      "data encipherment", KeyUsage.dataEncipherment, "cert sign", KeyUsage.keyCertSign, "crl sign", KeyUsage.cRLSign,
      "encipher only", KeyUsage.encipherOnly, "decipher only", KeyUsage.decipherOnly);
  /** kube's extended usages, in the order of Go's {@code x509.ExtKeyUsage} (the order they are written in). */
  private static final Map<String, KeyPurposeId> EXT_KEY_USAGES = new LinkedHashMap<>();

  static {
    EXT_KEY_USAGES.put("any", KeyPurposeId.anyExtendedKeyUsage);
    EXT_KEY_USAGES.put("server auth", KeyPurposeId.id_kp_serverAuth);
    EXT_KEY_USAGES.put("client auth", KeyPurposeId.id_kp_clientAuth);
    EXT_KEY_USAGES.put("code signing", KeyPurposeId.id_kp_codeSigning);
    EXT_KEY_USAGES.put("email protection", KeyPurposeId.id_kp_emailProtection);
    EXT_KEY_USAGES.put("s/mime", KeyPurposeId.id_kp_emailProtection);
    EXT_KEY_USAGES.put("ipsec end system", KeyPurposeId.id_kp_ipsecEndSystem);
    EXT_KEY_USAGES.put("ipsec tunnel", KeyPurposeId.id_kp_ipsecTunnel);
    EXT_KEY_USAGES.put("ipsec user", KeyPurposeId.id_kp_ipsecUser);
    EXT_KEY_USAGES.put("timestamping", KeyPurposeId.id_kp_timeStamping);
    EXT_KEY_USAGES.put("ocsp signing", KeyPurposeId.id_kp_OCSPSigning);
    EXT_KEY_USAGES.put("microsoft sgc", KeyPurposeId.id_kp_msSGC);
    EXT_KEY_USAGES.put("netscape sgc", KeyPurposeId.id_kp_nsSGC);
  }

  private final CertifiedKey ca;
  private final Duration maxTtl;

  /**
   * @param ca the CA certificate and key that sign
   * @param maxTtl the longest certificate issued
   */
  CertificateSigner(CertifiedKey ca, Duration maxTtl) {
    this.ca = ca;
    this.maxTtl = maxTtl;
  }

  /** kube's {@code duration}: the requested seconds within [10 minutes, the maximum]; the maximum if none. */
  Duration duration(Long expirationSeconds) {
    if (expirationSeconds == null) {
      return maxTtl;
    }
    Duration requested = Duration.ofSeconds(expirationSeconds);
    return requested.compareTo(maxTtl) > 0 ? maxTtl : requested.compareTo(MIN_TTL) < 0 ? MIN_TTL : requested;
  }

  /**
   * Signs {@code request} for {@code usages}, valid for {@code ttl} from {@code now}.
   *
   * @throws IllegalStateException with kube's message when the request's signature does not
   *     verify, or the CA has expired
   */
  X509Certificate sign(CertificateRequest request, List<String> usages, Duration ttl, Instant now) {
    try {
      if (!request.request().isSignatureValid(
          new JcaContentVerifierProviderBuilder().build(request.request().getSubjectPublicKeyInfo()))) {
        throw new IllegalStateException("unable to verify certificate request signature: "
            + (request.request().getSubjectPublicKeyInfo().getAlgorithm().getAlgorithm().getId().equals("1.2.840.113549.1.1.1")
                ? "crypto/rsa: verification error" : "x509: ECDSA verification failure"));
      }
    } catch (org.bouncycastle.operator.OperatorCreationException | org.bouncycastle.pkcs.PKCSException e) {
      throw new IllegalStateException("unable to verify certificate request signature: " + e.getMessage(), e);
    }
    X509Certificate caCert = ca.certificate();
    Instant caNotAfter = caCert.getNotAfter().toInstant();
    Instant notBefore = now.minus(BACKDATE);
    Instant notAfter = ttl.compareTo(SHORT) < 0 ? now.plus(ttl) : notBefore.plus(ttl);
    if (!notAfter.isBefore(caNotAfter)) {
      notAfter = caNotAfter;
    }
    if (!notBefore.isBefore(caNotAfter)) {
      throw new IllegalStateException("the signer has expired: NotAfter=" + caNotAfter);
    }
    if (!now.isBefore(caNotAfter)) {
      throw new IllegalStateException("refusing to sign a certificate that expired in the past: NotAfter="
          + caNotAfter);
    }
    X509v3CertificateBuilder b = new X509v3CertificateBuilder(
        X500Name.getInstance(caCert.getSubjectX500Principal().getEncoded()),
        new BigInteger(128, RANDOM), Date.from(notBefore), Date.from(notAfter),
        request.request().getSubject(), request.request().getSubjectPublicKeyInfo());
    try {
      int keyUsage = 0;
      List<KeyPurposeId> purposes = new ArrayList<>();
      for (Map.Entry<String, KeyPurposeId> e : EXT_KEY_USAGES.entrySet()) {
        if (usages.contains(e.getKey()) && !purposes.contains(e.getValue())) {
          purposes.add(e.getValue());
        }
      }
      for (String u : usages) {
        keyUsage |= KEY_USAGES.getOrDefault(u, 0);
      }
      if (keyUsage != 0) {
        b.addExtension(Extension.keyUsage, true, new KeyUsage(keyUsage));
      }
      if (!purposes.isEmpty()) {
        b.addExtension(Extension.extendedKeyUsage, false,
            new ExtendedKeyUsage(purposes.toArray(KeyPurposeId[]::new)));
      }
      b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
      b.addExtension(Extension.authorityKeyIdentifier, false,
          new JcaX509ExtensionUtils().createAuthorityKeyIdentifier(caCert));
      GeneralNames sans = subjectAltNames(request);
      if (sans != null) {
        // critical when the subject is empty, as RFC 5280 asks
        b.addExtension(Extension.subjectAlternativeName, request.request().getSubject().getRDNs().length == 0, sans);
      }
      return new JcaX509CertificateConverter().getCertificate(
          b.build(new JcaContentSignerBuilder(signatureAlgorithm()).build(ca.privateKey())));
    } catch (java.io.IOException | GeneralSecurityException | org.bouncycastle.operator.OperatorCreationException e) {
      throw new IllegalStateException("failed to sign certificate: " + e.getMessage(), e);
    }
  }

  private String signatureAlgorithm() {
    return switch (ca.privateKey().getAlgorithm()) {
      case "RSA" -> "SHA256withRSA";
      case "Ed25519", "EdDSA" -> "Ed25519";
      default -> "SHA256withECDSA";
    };
  }

  private static GeneralNames subjectAltNames(CertificateRequest r) throws java.net.UnknownHostException {
    List<GeneralName> names = new ArrayList<>();
    r.dnsNames().forEach(n -> names.add(new GeneralName(GeneralName.dNSName, n)));
    r.emailAddresses().forEach(n -> names.add(new GeneralName(GeneralName.rfc822Name, n)));
    for (String ip : r.ipAddresses()) {
      names.add(new GeneralName(GeneralName.iPAddress,
          new org.bouncycastle.asn1.DEROctetString(InetAddress.getByName(ip).getAddress())));
    }
    r.uris().forEach(n -> names.add(new GeneralName(GeneralName.uniformResourceIdentifier, n)));
    return names.isEmpty() ? null : new GeneralNames(names.toArray(GeneralName[]::new));
  }
}
