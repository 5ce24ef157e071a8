package io.listwatch.server.authn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JWSAlgorithm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import io.listwatch.api.clock.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServiceAccountKeysTest {

  @TempDir
  Path dir;

  private static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }

  @Test
  void signingKey_isGeneratedOnFirstStart_andReusedAfterwards() throws Exception {
    ServiceAccountKeys first = ServiceAccountKeys.load(null, List.of(), dir);
    Path file = dir.resolve(ServiceAccountKeys.GENERATED_KEY_FILE);
    String content = Files.readString(file);

    ServiceAccountKeys second = ServiceAccountKeys.load(null, List.of(), dir);

    assertThat(content).startsWith("-----BEGIN PRIVATE KEY-----");
    assertThat(second.signingKeyId()).isEqualTo(first.signingKeyId());
    assertThat(Files.readString(file)).isEqualTo(content);
    assertThat(first.algorithm()).isEqualTo(JWSAlgorithm.ES256);
    assertThat(content).contains("-----BEGIN PUBLIC KEY-----");
    assertThat(Files.getPosixFilePermissions(file)).containsExactlyInAnyOrder(
        java.nio.file.attribute.PosixFilePermission.OWNER_READ, java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
  }

  @Test
  void tokensSignedBeforeARestart_verifyAfterIt() {
    ServiceAccountKeys before = ServiceAccountKeys.load(null, List.of(), dir);
    String token = new ServiceAccountTokenGenerator("iss", before, Clock.system())
        .issue("default", "default", "u1", List.of("iss"), Duration.ofHours(1)).token();

    ServiceAccountKeys after = ServiceAccountKeys.load(null, List.of(), dir);
    ServiceAccountTokenAuthenticator authenticator = new ServiceAccountTokenAuthenticator(List.of("iss"), after,
        (ns, n) -> Optional.of(new ServiceAccountGetter.ServiceAccount(ns, n, "u1", false)), Clock.system());

    assertThat(authenticator.authenticateToken(token, Set.of("iss"))).isPresent();
  }

  @Test
  void operatorEcKey_signsWithEs256_andItsPublicKeyComesFromTheKeyFile() throws Exception {
    KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
    g.initialize(new ECGenParameterSpec("secp256r1"));
    KeyPair pair = g.generateKeyPair();
    Path signing = Files.writeString(dir.resolve("sa.key"), pem("PRIVATE KEY", pair.getPrivate().getEncoded()));
    Path pub = Files.writeString(dir.resolve("sa.pub"), pem("PUBLIC KEY", pair.getPublic().getEncoded()));

    ServiceAccountKeys keys = ServiceAccountKeys.load(signing, List.of(pub), dir);

    assertThat(keys.algorithm()).isEqualTo(JWSAlgorithm.ES256);
    assertThat(keys.verificationKeys()).hasSize(1);
    assertThat(Files.exists(dir.resolve(ServiceAccountKeys.GENERATED_KEY_FILE))).isFalse();
    assertThatThrownBy(() -> ServiceAccountKeys.load(signing, List.of(), dir))
        .hasMessageContaining("needs its public key in --service-account-key-file");
  }

  @Test
  void operatorRsaKey_signsWithRs256_andDerivesItsPublicKey() throws Exception {
    KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
    g.initialize(2048);
    KeyPair pair = g.generateKeyPair();
    Path signing = Files.writeString(dir.resolve("sa.key"), pem("PRIVATE KEY", pair.getPrivate().getEncoded()));

    ServiceAccountKeys keys = ServiceAccountKeys.load(signing, List.of(), dir);

    assertThat(keys.algorithm()).isEqualTo(JWSAlgorithm.RS256);
    assertThat(keys.verificationKeys()).singleElement()
        .satisfies(k -> assertThat(k.key()).isEqualTo(pair.getPublic()));
  }

  @Test
  void pkcs1Key_isRefusedWithHowToConvertIt() throws Exception {
    Path key = Files.writeString(dir.resolve("old.key"), pem("RSA PRIVATE KEY", new byte[] {1, 2, 3}));

    assertThatThrownBy(() -> ServiceAccountKeys.load(key, List.of(), dir))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("openssl pkcs8 -topk8 -nocrypt");
  }

  @Test
  void fileWithoutPem_isRefused() throws Exception {
    Path key = Files.writeString(dir.resolve("junk.key"), "hello");

    assertThatThrownBy(() -> ServiceAccountKeys.load(key, List.of(), dir)).hasMessageContaining("no PEM data in");
  }
}
