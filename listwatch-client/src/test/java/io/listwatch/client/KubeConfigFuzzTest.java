package io.listwatch.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.listwatch.client.internal.Pem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Coverage-guided fuzzing (Jazzer) of kubeconfig files, read as {@code KUBECONFIG} names them,
 * and of the PEM keys and certificates they carry. The test command replays
 * {@code KubeConfigFuzzTestInputs/<method>/} (real kubeconfigs, keys of each kind and their
 * broken forms); {@code ./listwatch fuzz} looks for more.
 *
 * <p>Invariant: a file either gives a {@link Config} or is refused with the one documented
 * failure, an {@link IllegalArgumentException} naming what is wrong; never another exception
 * (a NullPointerException, a ClassCastException, a Jackson exception escaping).
 *
 * <p>Not thread-safe: one file, rewritten for each input.
 */
class KubeConfigFuzzTest {

  private static Path dir;
  private static Path file;

  @BeforeAll
  static void createFile() throws IOException {
    dir = Files.createTempDirectory("kubeconfig-fuzz");
    file = dir.resolve("config");
  }

  @AfterAll
  static void deleteFile() throws IOException {
    Files.deleteIfExists(file);
    Files.deleteIfExists(dir);
  }

  @FuzzTest(maxDuration = "2m")
  void kubeconfig(byte[] input) throws IOException {
    Files.write(file, input);
    KubeConfigLoader loader = new KubeConfigLoader(Map.of("KUBECONFIG", file.toString()), null, dir);
    try {
      Config config = loader.load();
      assertThat(config.server()).isNotNull();
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).as("the refusal says why").isNotBlank();
    }
  }

  /**
   * The PEM a kubeconfig's {@code client-key[-data]} and {@code certificate-authority[-data]}
   * hold, read by our own DER reader (PKCS#1 and SEC1 keys are rewrapped as PKCS#8 by hand).
   */
  @FuzzTest(maxDuration = "2m")
  void pem(byte[] input) {
    String pem = new String(input, StandardCharsets.UTF_8);
    try {
      assertThat(Pem.privateKey(pem, "client-key")).isNotNull();
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).as("the refusal says why").isNotBlank();
    }
    try {
      assertThat(Pem.certificates(pem, "certificate-authority")).isNotNull();
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).as("the refusal says why").isNotBlank();
    }
  }
}
