package io.listwatch.bench.demo;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The API server's request counts by verb ({@code apiserver_request_total}, summed over
 * resources and codes) and the watch events it queued to watchers
 * ({@code apiserver_watch_events_total}, one per watcher per event, summed over resources),
 * read from its {@code /metrics}: what the whole system did in a phase is the difference of
 * two readings. The watch-event total is kept under the pseudo-verb {@value #WATCH_EVENTS}.
 *
 * <p>Stateless apart from its HTTP client; thread-safe.
 */
final class ServerRequests {

  private static final Pattern TOTAL = Pattern.compile("^apiserver_request_total\\{([^}]*)\\} ([0-9.eE+]+)");
  private static final Pattern WATCH_EVENTS_TOTAL = Pattern.compile("^apiserver_watch_events_total\\{[^}]*\\} ([0-9.eE+]+)");
  /** The key of the watch events delivered in {@link #read}'s map. */
  static final String WATCH_EVENTS = "watch events";
  private static final Pattern VERB = Pattern.compile("\\bverb=\"([A-Z]+)\"");
  /** kube's verbs on the metric that change something. */
  static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "APPLY", "DELETE", "DELETECOLLECTION");

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final URI metrics;

  ServerRequests(String serverUrl) {
    this.metrics = URI.create(serverUrl + "/metrics");
  }

  /** Requests so far by verb ({@code POST}, {@code LIST}, {@code WATCH}, ...), and the watch events. */
  Map<String, Long> read() throws IOException, InterruptedException {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(30)).build(),
        HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IOException("GET /metrics: HTTP " + r.statusCode());
    }
    return parse(r.body());
  }

  static Map<String, Long> parse(String text) {
    Map<String, Long> byVerb = new TreeMap<>();
    for (String line : text.split("\n")) {
      Matcher w = WATCH_EVENTS_TOTAL.matcher(line);
      if (w.find()) {
        byVerb.merge(WATCH_EVENTS, (long) Double.parseDouble(w.group(1)), Long::sum);
        continue;
      }
      Matcher m = TOTAL.matcher(line);
      if (!m.find()) {
        continue;
      }
      Matcher v = VERB.matcher(m.group(1));
      if (v.find()) {
        byVerb.merge(v.group(1), (long) Double.parseDouble(m.group(2)), Long::sum);
      }
    }
    return byVerb;
  }

  /** {@code after - before}, verb by verb. */
  static Map<String, Long> since(Map<String, Long> before, Map<String, Long> after) {
    Map<String, Long> d = new TreeMap<>();
    after.forEach((verb, n) -> d.put(verb, n - before.getOrDefault(verb, 0L)));
    return d;
  }

  static long writes(Map<String, Long> byVerb) {
    return byVerb.entrySet().stream().filter(e -> WRITES.contains(e.getKey())).mapToLong(Map.Entry::getValue).sum();
  }
}
