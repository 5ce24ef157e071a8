package io.listwatch.server.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * kube's documentation examples kept as test resources under {@code docs-examples/}, each file
 * opening with the page it comes from. Stateless.
 */
final class DocsExamples {

  private DocsExamples() {
  }

  /** The text of {@code docs-examples/<file>}, as committed. */
  static String read(String file) {
    try (InputStream in = DocsExamples.class.getResourceAsStream("/docs-examples/" + file)) {
      assertThat(in).as("test resource docs-examples/%s", file).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
