package io.listwatch.server.authn;

import io.listwatch.apiserver.request.UserInfo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.api.StatusException;
import io.listwatch.server.authz.Decision;
import io.listwatch.server.filters.HandlerChain;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.request.ConnectionInfo;
import io.listwatch.apiserver.request.RequestInfo;
import io.listwatch.server.tls.CertificateAuthority;
import java.math.BigInteger;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.Test;

class X509AuthenticatorTest {

  private static final CertificateAuthority CA = CertificateAuthority.create("test-ca");

  private final X509Authenticator authenticator = new X509Authenticator();

  @Test
  void clientCertificate_namesTheUserByCn_andAGroupByEachO() {
    X509Certificate cert = CA.issueClient("jane", List.of("dev", "ops")).certificate();

    assertThat(authenticator.authenticate(request(cert))).contains(UserInfo.of("jane", List.of("dev", "ops")));
  }

  @Test
  void connectionWithoutCertificate_isNotThisAuthenticatorsKind() {
    assertThat(authenticator.authenticate(request())).isEmpty();
  }

  @Test
  void certificateWithoutCommonName_isUnauthorized() throws Exception {
    KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
    g.initialize(256);
    var keys = g.generateKeyPair();
    X500Name subject = new X500Name("O=dev");
    X509Certificate noCn = new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(subject,
        BigInteger.ONE, Date.from(Instant.now()), Date.from(Instant.now().plusSeconds(60)), subject,
        keys.getPublic()).build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));

    assertThatThrownBy(() -> authenticator.authenticate(request(noCn)))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(401));
  }

  @Test
  void handlerChain_withX509_givesTheCertificateUser_systemAuthenticated() {
    AtomicReference<UserInfo> seen = new AtomicReference<>();
    HandlerChain chain = HandlerChain.builder().authenticators(List.of(authenticator))
        .authorizer(a -> {
          seen.set(a.user());
          return Decision.allow("");
        }).build();
    ApiRequest req = request(CA.issueClient("jane", List.of("dev")).certificate());

    HandlerChain.Admission admitted = chain.admit(req, RequestInfo.parse("GET", "/api/v1/pods", Map.of(),
        (group, resource) -> true));

    assertThat(admitted.request().user()).isEqualTo(UserInfo.of("jane", List.of("dev", UserInfo.AUTHENTICATED)));
    assertThat(seen.get()).isEqualTo(admitted.request().user());
  }

  @Test
  void handlerChain_withoutCertificate_isAnonymous() {
    HandlerChain chain = HandlerChain.builder().authenticators(List.of(authenticator)).build();

    HandlerChain.Admission admitted = chain.admit(request(), RequestInfo.parse("GET", "/version", Map.of(),
        (group, resource) -> true));

    assertThat(admitted.request().user()).isEqualTo(UserInfo.ANONYMOUS);
  }

  private static ApiRequest request(X509Certificate... chain) {
    return new ApiRequest(ApiRequest.GET, "/api/v1/pods", Map.of(), io.listwatch.apiserver.request.Headers.empty(), new byte[0],
        new ConnectionInfo(ConnectionInfo.Listener.SECURE, List.of(chain), null), null);
  }
}
