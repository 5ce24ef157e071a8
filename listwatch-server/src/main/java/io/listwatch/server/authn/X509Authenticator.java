package io.listwatch.server.authn;

import io.listwatch.apiserver.request.UserInfo;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.request.ApiRequest;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.x500.AttributeTypeAndValue;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x500.style.IETFUtils;

/**
 * Authenticates a request by the client certificate of its TLS connection (kube's x509
 * authenticator): the subject's common name (CN) is the user name, each organization (O) a
 * group, in the certificate's order. The TLS handshake has already verified the chain against
 * the client CA, its validity period and its client-auth usage, so this only reads the subject.
 * A connection without a certificate is not this authenticator's kind; a certificate without a
 * common name is refused with 401, as kube does.
 *
 * <p>Stateless and thread-safe.
 */
public final class X509Authenticator implements Authenticator {

  @Override
  public Optional<UserInfo> authenticate(ApiRequest request) {
    List<X509Certificate> chain = request.connection().peerCertificates();
    if (chain.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(user(chain.getFirst()));
  }

  /** The user a client certificate names. */
  static UserInfo user(X509Certificate certificate) {
    X500Name subject = X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded());
    List<String> names = values(subject, BCStyle.CN);
    if (names.isEmpty() || names.getFirst().isEmpty()) {
      throw StatusException.unauthorized();
    }
    return UserInfo.of(names.getFirst(), values(subject, BCStyle.O));
  }

  private static List<String> values(X500Name name, org.bouncycastle.asn1.ASN1ObjectIdentifier type) {
    List<String> out = new ArrayList<>();
    for (RDN rdn : name.getRDNs()) {
      for (AttributeTypeAndValue atv : rdn.getTypesAndValues()) {
        if (atv.getType().equals(type)) {
          out.add(plain(atv.getValue()));
        }
      }
    }
    return out;
  }

  /** The attribute's text as the certificate holds it (no RFC 4514 escaping). */
  private static String plain(ASN1Encodable value) {
    return value instanceof org.bouncycastle.asn1.ASN1String s ? s.getString() : IETFUtils.valueToString(value);
  }
}
