package io.listwatch.client.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Reads test resources. */
public final class TestFiles {

  private TestFiles() {
  }

  /** A classpath resource as a string, e.g. {@code tls/ca.crt}. */
  public static String resource(String name) {
    try (InputStream in = TestFiles.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalArgumentException("no test resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
