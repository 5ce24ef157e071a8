package io.listwatch.server.controllers.certificates;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.ASN1String;
import org.bouncycastle.asn1.pkcs.Attribute;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.x500.AttributeTypeAndValue;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.Extensions;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;

/**
 * A PKCS#10 certificate request as kube's {@code ParseCSR} reads {@code spec.request} (the first
 * PEM block, of type {@code CERTIFICATE REQUEST}) and Go's {@code x509.CertificateRequest} shows
 * it: the subject's organizations (every {@code O}, in order) and common name (the last
 * {@code CN}), and the subject alternative names of its extension request by kind.
 *
 * @param request the parsed request (its signature is not checked here)
 * @param organizations the subject's {@code O} values
 * @param commonName the subject's {@code CN}, "" when none
 * @param dnsNames the DNS names asked for
 * @param ipAddresses the IP addresses asked for, as {@link InetAddress#getHostAddress}
 * @param emailAddresses the e-mail addresses asked for
 * @param uris the URIs asked for
 */
record CertificateRequest(PKCS10CertificationRequest request, List<String> organizations, String commonName,
    List<String> dnsNames, List<String> ipAddresses, List<String> emailAddresses, List<String> uris) {

  private static final Pattern PEM = Pattern.compile(
      "-----BEGIN ([^\\n-]*)-----\\r?\\n(.*?)-----END \\1-----", Pattern.DOTALL);

  /**
   * Parses the PEM of {@code spec.request}.
   *
   * @throws IllegalArgumentException with kube's (or the parser's) message when it is not a request
   */
  static CertificateRequest parse(byte[] pem) {
    Matcher m = PEM.matcher(new String(pem, StandardCharsets.ISO_8859_1));
    if (!m.find() || !m.group(1).equals("CERTIFICATE REQUEST")) {
      throw new IllegalArgumentException("PEM block type must be CERTIFICATE REQUEST");
    }
    PKCS10CertificationRequest request;
    try {
      request = new PKCS10CertificationRequest(java.util.Base64.getMimeDecoder().decode(m.group(2)));
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("x509: malformed certificate request: " + e.getMessage(), e);
    }
    List<String> organizations = new ArrayList<>();
    String commonName = "";
    for (RDN rdn : request.getSubject().getRDNs()) {
      for (AttributeTypeAndValue tv : rdn.getTypesAndValues()) {
        String value = tv.getValue() instanceof ASN1String s ? s.getString() : tv.getValue().toString();
        if (tv.getType().equals(BCStyle.O)) {
          organizations.add(value);
        } else if (tv.getType().equals(BCStyle.CN)) {
          commonName = value;
        }
      }
    }
    List<String> dns = new ArrayList<>();
    List<String> ips = new ArrayList<>();
    List<String> emails = new ArrayList<>();
    List<String> uris = new ArrayList<>();
    for (Attribute a : request.getAttributes(PKCSObjectIdentifiers.pkcs_9_at_extensionRequest)) {
      for (ASN1Encodable value : a.getAttrValues()) {
        Extension san = Extensions.getInstance(value).getExtension(Extension.subjectAlternativeName);
        if (san == null) {
          continue;
        }
        for (GeneralName n : GeneralNames.getInstance(san.getParsedValue()).getNames()) {
          switch (n.getTagNo()) {
            case GeneralName.dNSName -> dns.add(((ASN1String) n.getName()).getString());
            case GeneralName.rfc822Name -> emails.add(((ASN1String) n.getName()).getString());
            case GeneralName.uniformResourceIdentifier -> uris.add(((ASN1String) n.getName()).getString());
            case GeneralName.iPAddress -> ips.add(ip(ASN1OctetString.getInstance(n.getName()).getOctets()));
            default -> { } // other names are ignored, as Go does
          }
        }
      }
    }
    return new CertificateRequest(request, List.copyOf(organizations), commonName, List.copyOf(dns), List.copyOf(ips),
        List.copyOf(emails), List.copyOf(uris));
  }

  private static String ip(byte[] octets) {
    try {
      return InetAddress.getByAddress(octets).getHostAddress();
    } catch (java.net.UnknownHostException e) {
      throw new IllegalArgumentException("x509: certificate request contained IP address of length " + octets.length, e);
    }
  }
}
