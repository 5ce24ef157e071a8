package io.listwatch.testsupport;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Every thread of this JVM, virtual ones included, with its stack: what a test prints when a
 * wait that should have ended did not, so that a failure seen once (in CI, say) tells where
 * each thread was.
 *
 * <pre>{@code
 * boolean synced = factory.waitForCacheSync(WAIT);
 * assertThat(synced).as("synced; threads: %s", synced ? "-" : ThreadDump.now()).isTrue();
 * }</pre>
 *
 * <p>Stateless and thread-safe.
 */
public final class ThreadDump {

  private ThreadDump() {
  }

  /**
   * The JVM's threads now, as {@code jcmd Thread.dump_to_file} writes them in plain text
   * ({@link Thread#getAllStackTraces()} leaves the virtual threads out).
   *
   * @throws UncheckedIOException if the dump cannot be written to or read from a temp file
   */
  public static String now() {
    try {
      Path dir = Files.createTempDirectory("thread-dump");
      Path file = dir.resolve("threads.txt"); // the dump refuses a file that exists
      try {
        ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
            .dumpThreads(file.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.TEXT_PLAIN);
        return Files.readString(file);
      } finally {
        Files.deleteIfExists(file);
        Files.deleteIfExists(dir);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot dump this JVM's threads", e);
    }
  }
}
