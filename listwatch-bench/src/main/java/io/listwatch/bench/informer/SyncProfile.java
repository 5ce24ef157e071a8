package io.listwatch.bench.informer;

import static io.listwatch.bench.Format.count;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a client's sync spent its time, from the JFR recording of its child JVM
 * ({@code --profile}): the {@code jdk.ExecutionSample} events taken between the informer's
 * start call and the end of the sync, counted by thread and by kind of work. A sample counts
 * for the first kind whose code is anywhere on its stack, in this order: skipping JSON that is
 * not kept (Jackson's {@code skipChildren}), decoding JSON (Jackson, Gson, our codecs and the
 * copy of each object's bytes), the HTTP client (reading the response included), the informer
 * (queue, indexer, handlers), else other. JIT and GC threads are not
 * sampled by JFR: the client CPU column counts them.
 *
 * <p>Stateless.
 */
final class SyncProfile {

  /** The JVM option that records the samples into {@code file}. */
  static String jvmOption(Path file) {
    return "-XX:StartFlightRecording:jdk.ExecutionSample#period=2ms,filename=" + file;
  }

  private SyncProfile() {
  }

  /** A one-line summary of {@code recording} over the sync that started at {@code start}. */
  static String summarize(Path recording, Instant start, long syncNanos) throws IOException {
    Instant end = start.plusNanos(syncNanos);
    Map<String, Integer> threads = new HashMap<>();
    Map<String, Integer> work = new LinkedHashMap<>();
    for (String kind : List.of("skipping unread JSON", "decoding JSON", "HTTP client", "informer", "other")) {
      work.put(kind, 0);
    }
    int samples = 0;
    for (RecordedEvent e : RecordingFile.readAllEvents(recording)) {
      if (!e.getEventType().getName().equals("jdk.ExecutionSample") || e.getStartTime().isBefore(start)
          || e.getStartTime().isAfter(end) || e.getStackTrace() == null) {
        continue;
      }
      samples++;
      String thread = e.getThread("sampledThread") == null ? "?" : e.getThread("sampledThread").getJavaName();
      threads.merge(thread == null ? "?" : thread.replaceAll("[0-9]+", "N"), 1, Integer::sum);
      work.merge(kind(e.getStackTrace().getFrames()), 1, Integer::sum);
    }
    if (samples == 0) {
      return "no execution samples in the sync window";
    }
    int total = samples;
    StringBuilder b = new StringBuilder(count(samples) + " samples; by work: ");
    work.forEach((k, n) -> b.append(String.format(Locale.ROOT, "%s %.0f%%, ", k, 100.0 * n / total)));
    b.setLength(b.length() - 2);
    b.append("; by thread: ");
    threads.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(4)
        .forEach(t -> b.append(String.format(Locale.ROOT, "%s %.0f%%, ", t.getKey(), 100.0 * t.getValue() / total)));
    b.setLength(b.length() - 2);
    return b.toString();
  }

  private static String kind(List<RecordedFrame> frames) {
    boolean decode = false;
    boolean informer = false;
    boolean http = false;
    for (RecordedFrame f : frames) {
      if (f.getMethod() == null) {
        continue;
      }
      String type = f.getMethod().getType().getName();
      if (f.getMethod().getName().equals("skipChildren") && type.startsWith("com.fasterxml.jackson")) {
        return "skipping unread JSON";
      }
      decode |= type.startsWith("com.fasterxml.jackson") || type.startsWith("com.google.gson")
          || type.startsWith("io.listwatch.client.DynamicObject") || type.startsWith("io.listwatch.client.internal.List")
          || type.startsWith("io.listwatch.client.JacksonCodec")
          || type.startsWith("io.listwatch.client.internal.RecordingInputStream");
      informer |= type.startsWith("io.listwatch.client.cache") || type.startsWith("io.fabric8.kubernetes.client.informers")
          || type.startsWith("io.kubernetes.client.informer");
      http |= type.startsWith("jdk.internal.net.http") || type.startsWith("okhttp3") || type.startsWith("okio")
          || type.startsWith("io.vertx") || type.startsWith("io.netty");
    }
    return decode ? "decoding JSON" : http ? "HTTP client" : informer ? "informer" : "other";
  }
}
