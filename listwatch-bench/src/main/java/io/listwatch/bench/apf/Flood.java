package io.listwatch.bench.apf;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The heavy user: {@code lists} threads each listing the whole collection again as soon as the
 * last list is answered, and {@code watches} threads each watching it from its current state
 * (every object sent as ADDED first) for one second ({@code timeoutSeconds=1}), then again. A
 * 429 is retried at once, the flood ignoring {@code Retry-After} (the worst client there is), or,
 * with {@code retryAfter}, once the answer's {@code Retry-After} has passed, as client-go does.
 * With {@code gzip} it asks for compressed answers, as client-go does by default, so that the
 * server compresses each list (kube's {@code APIResponseCompression}); it never reads what it is
 * sent, compressed or not. Counts answers by kind.
 *
 * <p>The benchmark runs it in a JVM of its own ({@link #main}), so that the flood's client, which
 * reads hundreds of MB a second, neither pauses the light user's JVM with its garbage nor, when
 * pinned elsewhere, takes its CPU.
 *
 * <p>Thread-safe: {@link #start} and {@link #close} from one thread, counters read from any.
 */
final class Flood implements AutoCloseable {

  private final AtomicBoolean running = new AtomicBoolean(true);
  /** Whether a 429 waits out its Retry-After before the thread's next request. */
  private final boolean retryAfter;
  private final List<Thread> threads = new ArrayList<>();
  final AtomicLong listsServed = new AtomicLong();
  final AtomicLong watchesServed = new AtomicLong();
  final AtomicLong rejected = new AtomicLong();
  final AtomicLong failed = new AtomicLong();

  /**
   * Starts the flood of {@code collection} (a URL of a list) as the user of {@code token}, with
   * {@code Accept-Encoding: gzip} when {@code gzip}, honouring {@code Retry-After} when {@code retryAfter}.
   */
  static Flood start(HttpClient client, URI collection, String token, int lists, int watches, boolean gzip,
      boolean retryAfter) {
    Flood f = new Flood(retryAfter);
    HttpRequest list = request(collection, token, gzip);
    HttpRequest watch = request(URI.create(collection + "?watch=true&timeoutSeconds=1"), token, gzip);
    for (int i = 0; i < lists + watches; i++) {
      boolean isList = i < lists;
      f.threads.add(Thread.ofPlatform().name((isList ? "flood-list-" : "flood-watch-") + i).daemon()
          .start(() -> f.loop(client, isList ? list : watch, isList ? f.listsServed : f.watchesServed)));
    }
    return f;
  }

  private static HttpRequest request(URI uri, String token, boolean gzip) {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).header("Authorization", "Bearer " + token)
        .timeout(Duration.ofSeconds(120)).GET();
    if (gzip) {
      b.header("Accept-Encoding", "gzip");
    }
    return b.build();
  }

  private Flood(boolean retryAfter) {
    this.retryAfter = retryAfter;
  }

  private void loop(HttpClient client, HttpRequest request, AtomicLong served) {
    while (running.get()) {
      try {
        HttpResponse<Void> r = client.send(request, HttpResponse.BodyHandlers.discarding());
        int code = r.statusCode();
        (code == 200 ? served : code == 429 ? rejected : failed).incrementAndGet();
        if (code == 429 && retryAfter) {
          // client-go waits the seconds the server names (kube's APF and max-in-flight: 1)
          long seconds = r.headers().firstValue("Retry-After").map(Long::parseLong).orElse(0L);
          Thread.sleep(Duration.ofSeconds(Math.min(seconds, 10)));
        }
      } catch (java.io.IOException e) {
        failed.incrementAndGet();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** The answers so far, as {@code counts} prints them: lists, watches, 429s, failures. */
  String counts() {
    return "counts " + listsServed.get() + " " + watchesServed.get() + " " + rejected.get() + " " + failed.get();
  }

  /**
   * The heavy user as a process: {@code main COLLECTION_URL TOKEN LISTS WATCHES CA_FILE ENCODING RETRY}
   * floods over HTTPS trusting {@code CA_FILE}, asking for gzip when {@code ENCODING} is
   * {@code gzip} (else {@code identity}: {@link ApfBenchmark.FloodEncoding}), retrying a 429 as
   * {@code RETRY} says ({@link ApfBenchmark.FloodRetry}), prints
   * {@code flooding}, then answers each line {@code counts} on its standard input with
   * {@link #counts()}, and stops at {@code stop} or the end of its input.
   */
  public static void main(String[] args) throws Exception {
    if (args.length != 7) {
      throw new IllegalArgumentException(
          "usage: Flood COLLECTION_URL TOKEN LISTS WATCHES CA_FILE gzip|identity now|after");
    }
    ApfBenchmark.FloodEncoding encoding = ApfBenchmark.FloodEncoding.valueOf(args[5]);
    ApfBenchmark.FloodRetry retry = ApfBenchmark.FloodRetry.valueOf(args[6]);
    HttpClient client = https(Path.of(args[4]), HttpClient.Version.HTTP_1_1);
    Flood flood = start(client, URI.create(args[0]), args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]),
        encoding == ApfBenchmark.FloodEncoding.gzip, retry == ApfBenchmark.FloodRetry.after);
    System.out.println("flooding");
    System.out.flush();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null && !line.equals("stop"); line = in.readLine()) {
      if (line.equals("counts")) {
        System.out.println(flood.counts());
        System.out.flush();
      }
    }
    flood.close();
    client.close();
  }

  /**
   * A client of HTTP {@code version} (HTTP/2 negotiated by ALPN) trusting the CA in {@code caFile}
   * (the server writes it into its data directory).
   */
  static HttpClient https(Path caFile, HttpClient.Version version) throws Exception {
    return HttpClient.newBuilder().version(version).sslContext(sslContext(caFile))
        .connectTimeout(Duration.ofSeconds(30)).build();
  }

  /** TLS trusting only the CA in {@code caFile}. */
  static SSLContext sslContext(Path caFile) throws Exception {
    KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
    trust.load(null, null);
    try (InputStream in = Files.newInputStream(caFile)) {
      trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext ssl = SSLContext.getInstance("TLS");
    ssl.init(null, tmf.getTrustManagers(), null);
    return ssl;
  }

  /** Stops the flood and waits (a few seconds at most) for its threads. */
  @Override
  public void close() throws InterruptedException {
    running.set(false);
    for (Thread t : threads) {
      t.join(Duration.ofSeconds(5));
      if (t.isAlive()) {
        t.interrupt();
      }
    }
  }
}
