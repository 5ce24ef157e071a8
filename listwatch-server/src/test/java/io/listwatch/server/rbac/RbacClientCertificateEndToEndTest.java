package io.listwatch.server.rbac;

/** {@link RbacEndToEndTest} with users authenticated by client certificates. */
class RbacClientCertificateEndToEndTest extends RbacEndToEndTest {

  @Override
  UserCredentials credentials() {
    return new ClientCertificateCredentials();
  }
}
