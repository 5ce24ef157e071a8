package io.listwatch.bench.informer;

import static io.listwatch.bench.Format.count;

import io.listwatch.bench.JfrProfile;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * Where a client's sync spent its time, from the JFR recording of its child JVM
 * ({@code --profile}): the {@code jdk.ExecutionSample} events taken between the informer's
 * start call and the end of the sync, counted by thread and by kind of work ({@link JfrProfile}).
 * A sample counts for the first kind whose code is anywhere on its stack, in this order: skipping
 * JSON that is not parsed (Jackson's {@code skipChildren}, and {@code SkippingJsonParser}'s scan of
 * the values a {@code DynamicObject} keeps as bytes), decoding JSON (Jackson, Gson, our codecs
 * and the copy of each object's bytes), the HTTP client (reading the response included), the
 * informer (queue, indexer, handlers), else other. JIT and GC threads are not
 * sampled by JFR: the client CPU column counts them.
 *
 * <p>Stateless.
 */
final class SyncProfile {

  private static final List<JfrProfile.Kind> KINDS = List.of(
      JfrProfile.Kind.of("skipping unread JSON", "com.fasterxml.jackson#skipChildren",
          "io.listwatch.client.internal.SkippingJsonParser#skipValue"),
      JfrProfile.Kind.of("decoding JSON", "com.fasterxml.jackson", "com.google.gson", "io.listwatch.client.DynamicObject",
          "io.listwatch.client.internal.List", "io.listwatch.client.JacksonCodec",
          "io.listwatch.client.internal.RecordingInputStream"),
      JfrProfile.Kind.of("HTTP client", "jdk.internal.net.http", "okhttp3", "okio", "io.vertx", "io.netty"),
      JfrProfile.Kind.of("informer", "io.listwatch.client.cache", "io.fabric8.kubernetes.client.informers",
          "io.kubernetes.client.informer"));

  /**
   * The JVM option that records the samples into {@code file}: JFR's default settings with
   * execution samples every 2 ms and no native method samples, so only execution samples count.
   */
  static String jvmOption(Path file) {
    return "-XX:StartFlightRecording:jdk.ExecutionSample#period=2ms,jdk.NativeMethodSample#enabled=false,filename="
        + file;
  }

  private SyncProfile() {
  }

  /** A one-line summary of {@code recording} over the sync that started at {@code start}. */
  static String summarize(Path recording, Instant start, long syncNanos) throws IOException {
    JfrProfile.Counts c = JfrProfile.count(List.of(recording), KINDS,
        List.of(new JfrProfile.Window(start, start.plusNanos(syncNanos)))).get(0);
    if (c.samples() == 0) {
      return "no execution samples in the sync window";
    }
    StringBuilder b = new StringBuilder(count(c.samples()) + " samples; by work: ");
    b.append(String.join(", ", c.byKind().entrySet().stream().map(k -> String.format(Locale.ROOT, "%s %.0f%%",
        k.getKey(), c.percent(k.getKey()))).toList()));
    b.append("; by thread: ").append(JfrProfile.Counts.shares(c.topThreads(4), c.samples()));
    return b.toString();
  }
}
