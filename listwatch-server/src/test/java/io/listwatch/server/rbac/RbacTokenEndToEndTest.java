package io.listwatch.server.rbac;

/** {@link RbacEndToEndTest} with users authenticated by static bearer tokens ({@code --token-auth-file}). */
class RbacTokenEndToEndTest extends RbacEndToEndTest {

  @Override
  UserCredentials credentials() {
    return new TokenCredentials();
  }
}
