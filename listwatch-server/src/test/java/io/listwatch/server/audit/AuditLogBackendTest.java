package io.listwatch.server.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The log backend's promises: lines appended in order, flushed by close, never blocking a caller. */
class AuditLogBackendTest {

  private static AuditEvent event(String id) {
    return new AuditEvent(AuditEvent.KIND, AuditEvent.API_VERSION, AuditEvent.LEVEL_METADATA, id,
        AuditEvent.RESPONSE_COMPLETE, "/version", "get", AuditEvent.User.NONE, null, List.of("127.0.0.1"), null, null,
        AuditEvent.ResponseStatus.of(200), "2026-01-01T00:00:00.000000Z", "2026-01-01T00:00:00.000001Z",
        Map.of());
  }

  @Test
  void close_writesEveryEventTaken_inOrder_appendingToTheFile(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("nested/audit.log");
    Files.createDirectories(file.getParent());
    Files.writeString(file, "{\"earlier\":true}\n");
    AuditLogBackend log = AuditLogBackend.open(file.toString());
    for (int i = 0; i < 2000; i++) {
      log.process(event("id-" + i));
    }
    log.close();
    log.process(event("after-close")); // ignored

    List<String> lines = Files.readAllLines(file);
    assertThat(lines).hasSize(2001);
    assertThat(lines.getFirst()).isEqualTo("{\"earlier\":true}");
    for (int i = 0; i < 2000; i++) {
      assertThat(lines.get(i + 1)).startsWith("{\"kind\":\"Event\",\"apiVersion\":\"audit.k8s.io/v1\","
          + "\"level\":\"Metadata\",\"auditID\":\"id-" + i + "\"");
    }
  }

  @Test
  void aDiskThatCannotKeepUp_dropsEventsBeyondTheQueue_withoutBlockingTheCaller() throws Exception {
    CountDownLatch writing = new CountDownLatch(1);
    CountDownLatch diskBack = new CountDownLatch(1);
    StringWriter written = new StringWriter();
    Writer stuck = new Writer() {
      @Override
      public void write(char[] buf, int off, int len) throws IOException {
        writing.countDown();
        try {
          diskBack.await();
        } catch (InterruptedException e) {
          throw new java.io.InterruptedIOException();
        }
        written.write(buf, off, len);
      }

      @Override
      public void flush() {
      }

      @Override
      public void close() {
      }
    };
    AuditLogBackend log = new AuditLogBackend(stuck, true, "test");
    log.process(event("first"));
    assertThat(writing.await(10, TimeUnit.SECONDS)).as("the writer took the first event").isTrue();
    // the writer is stuck on the first line: the queue fills, then events are dropped at once
    for (int i = 0; i < AuditLogBackend.QUEUE_CAPACITY + 5; i++) {
      log.process(event("e" + i));
    }
    assertThat(log.dropped()).isEqualTo(5);

    diskBack.countDown();
    log.close();
    long lines = written.toString().lines().count();
    assertThat(lines).isEqualTo(1 + AuditLogBackend.QUEUE_CAPACITY);
    assertThat(written.toString()).contains("\"auditID\":\"e" + (AuditLogBackend.QUEUE_CAPACITY - 1) + "\"")
        .doesNotContain("\"auditID\":\"e" + AuditLogBackend.QUEUE_CAPACITY + "\"");
  }
}
