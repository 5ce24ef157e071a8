package io.listwatch.nodeagent;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.listwatch.api.clock.Clock;
import io.listwatch.client.DynamicObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's HTTP pod source: the static pods served at a manifest URL (one Pod or a
 * PodList, YAML or JSON), polled every {@code period} (the kubelet's default: 20 s).
 *
 * <p>Each poll is a GET with {@code If-None-Match} set to the last {@code ETag} the server
 * sent. A {@code 304 Not Modified}, or a body equal to the last one, sends nothing: the set
 * stays. Any other 2xx body is parsed and sent as a {@link PodOperation#SET} of
 * {@link PodSources#HTTP}. Errors (connection, non-2xx, unparsable body) are logged and keep
 * the set.
 *
 * <p>Thread-safe: {@link #poll} is synchronized; {@link #start} schedules polls on the
 * clock, {@link #close} (idempotent) stops them.
 */
public final class HttpSource implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(HttpSource.class);

  /** The kubelet's default {@code httpCheckFrequency}. */
  public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(20);

  private final URI url;
  private final String nodeName;
  private final Consumer<PodUpdate> channel;
  private final Duration period;
  private final Clock clock;
  private final HttpClient http;

  @GuardedBy("this")
  private String etag = "";
  @GuardedBy("this")
  private byte[] lastBody;
  @GuardedBy("this")
  private Clock.Cancellable next;
  @GuardedBy("this")
  private boolean closed;

  public HttpSource(URI url, String nodeName, Consumer<PodUpdate> channel, Duration period, Clock clock) {
    this.url = Objects.requireNonNull(url, "url");
    this.nodeName = Objects.requireNonNull(nodeName, "nodeName");
    this.channel = Objects.requireNonNull(channel, "channel");
    this.period = Objects.requireNonNull(period, "period");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  }

  /** Polls on a virtual thread now, then every period. */
  public void start() {
    Thread.ofVirtual().name("HttpSource[" + url + "]").start(this::pollAndReschedule);
  }

  private void pollAndReschedule() {
    poll();
    synchronized (this) {
      if (!closed) {
        next = clock.schedule(period,
            () -> Thread.ofVirtual().name("HttpSource[" + url + "]").start(this::pollAndReschedule));
      }
    }
  }

  /** One poll; returns whether it sent a SET. */
  public synchronized boolean poll() {
    if (closed) {
      return false;
    }
    HttpRequest.Builder req = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(30)).GET();
    if (!etag.isEmpty()) {
      req.header("If-None-Match", etag);
    }
    HttpResponse<byte[]> r;
    try {
      r = http.send(req.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      log.warn("HttpSource[{}]: {}", url, e.toString());
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
    if (r.statusCode() == 304) {
      return false;
    }
    if (r.statusCode() / 100 != 2) {
      log.warn("HttpSource[{}]: answered {}", url, r.statusCode());
      return false;
    }
    if (lastBody != null && java.util.Arrays.equals(lastBody, r.body())) {
      return false;
    }
    List<DynamicObject> pods = new ArrayList<>();
    try {
      for (ObjectNode pod : StaticPods.parse(r.body())) {
        pods.add(StaticPods.applyDefaults(pod, url.toString(), false, nodeName));
      }
    } catch (IllegalArgumentException e) {
      log.warn("HttpSource[{}]: cannot use the manifest: {}", url, e.getMessage());
      return false;
    }
    lastBody = r.body();
    etag = r.headers().firstValue("ETag").orElse("");
    channel.accept(new PodUpdate(pods, PodOperation.SET, PodSources.HTTP));
    return true;
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (next != null) {
      next.cancel();
    }
    http.close();
  }
}
