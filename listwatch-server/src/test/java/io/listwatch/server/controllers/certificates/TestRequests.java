package io.listwatch.server.controllers.certificates;

import java.io.StringWriter;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.ExtensionsGenerator;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequestBuilder;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder;

/**
 * PKCS#10 requests for tests, as Go's {@code x509.CreateCertificateRequest} makes them: a
 * subject of organizations then a common name, and subject alternative names in an extension
 * request, signed by a new ECDSA P-256 key. Stateless.
 */
final class TestRequests {

  private TestRequests() {
  }

  /** A new ECDSA P-256 key pair. */
  static KeyPair keyPair() {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
      g.initialize(new ECGenParameterSpec("secp256r1"));
      return g.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A request's PEM; {@code sans} entries are {@code DNS:x}, {@code IP:x}, {@code email:x} or {@code URI:x}. */
  static String pem(KeyPair keys, String commonName, List<String> organizations, List<String> sans) {
    try {
      X500NameBuilder subject = new X500NameBuilder(BCStyle.INSTANCE);
      organizations.forEach(o -> subject.addRDN(BCStyle.O, o));
      if (!commonName.isEmpty()) {
        subject.addRDN(BCStyle.CN, commonName);
      }
      PKCS10CertificationRequestBuilder b = new JcaPKCS10CertificationRequestBuilder(subject.build(), keys.getPublic());
      if (!sans.isEmpty()) {
        List<GeneralName> names = new ArrayList<>();
        for (String san : sans) {
          String value = san.substring(san.indexOf(':') + 1);
          names.add(switch (san.substring(0, san.indexOf(':'))) {
            case "DNS" -> new GeneralName(GeneralName.dNSName, value);
            case "IP" -> new GeneralName(GeneralName.iPAddress,
                new DEROctetString(InetAddress.getByName(value).getAddress()));
            case "email" -> new GeneralName(GeneralName.rfc822Name, value);
            default -> new GeneralName(GeneralName.uniformResourceIdentifier, value);
          });
        }
        ExtensionsGenerator ext = new ExtensionsGenerator();
        ext.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names.toArray(GeneralName[]::new)));
        b.addAttribute(PKCSObjectIdentifiers.pkcs_9_at_extensionRequest, ext.generate());
      }
      StringWriter out = new StringWriter();
      try (JcaPEMWriter w = new JcaPEMWriter(out)) {
        w.writeObject(b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
      }
      return out.toString();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@link #pem} parsed as the signer reads it. */
  static CertificateRequest parsed(String commonName, List<String> organizations, List<String> sans) {
    return CertificateRequest.parse(pem(keyPair(), commonName, organizations, sans).getBytes(StandardCharsets.US_ASCII));
  }
}
