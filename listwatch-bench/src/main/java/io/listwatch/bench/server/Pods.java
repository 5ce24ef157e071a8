package io.listwatch.bench.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The pods the server benchmarks write: a realistic pod (owned by a ReplicaSet of 10, one
 * container with ports and resources, status, a pod IP of its own, 100 pods a node) padded so that the JSON the server stores, with the
 * uid, creationTimestamp and resourceVersion it adds, is about {@code objectBytes} long.
 *
 * <p>The first annotation, {@value #SENT}, carries the writer's send time (and, once written by
 * a fan-out point, the write's sequence number); it comes first in
 * {@code metadata} and stays there through the server's updates (Jackson keeps key order),
 * so a watcher finds it within the first bytes of each event. In kube's protobuf, whose maps
 * are written in key order, it comes before the padding annotation because its key sorts first
 * (the padding's key starts with {@code x-} for that). Stateless; thread-safe.
 */
public final class Pods {

  /** The namespace the server benchmarks create their pods in. */
  public static final String NAMESPACE = "default";

  /** The annotation holding the send time, decimal {@link System#nanoTime()}. */
  static final String SENT = "bench.listwatch.io/sent";

  /** What precedes the send time in an object's JSON. */
  static final String MARKER = "\"" + SENT + "\":\"";

  /** What the server adds on create: uid, creationTimestamp, resourceVersion (about). */
  private static final int SERVER_ADDED_BYTES = 150;

  /** Pods per ReplicaSet: pods share their owner's name and pod-template-hash label by this many. */
  private static final int REPLICAS = 10;

  /** Pods per node (kube's default maximum is 110). */
  static final int PODS_PER_NODE = 100;

  private final int objectBytes;

  public Pods(int objectBytes) {
    this.objectBytes = objectBytes;
  }

  /** The body of a create of {@code namespace/name}. */
  public byte[] create(String namespace, String name, int index) {
    String base = body(namespace, name, index, "");
    int pad = Math.max(0, objectBytes - SERVER_ADDED_BYTES - base.length()
        - ",\"bench.listwatch.io/x-padding\":\"\"".length());
    String padding = ",\"bench.listwatch.io/x-padding\":\"" + "x".repeat(pad) + "\"";
    return body(namespace, name, index, padding).getBytes(StandardCharsets.UTF_8);
  }

  private static String body(String namespace, String name, int index, String padding) {
    // pods come in ReplicaSets of 10: the template hash (label, owner name) is shared by 10
    String hash = String.format("%010x", ((index / REPLICAS) * 2654435761L) & 0xffffffffffL);
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{"
        + "\"annotations\":{\"" + SENT + "\":\"0\"" + padding + "},"
        + "\"name\":\"" + name + "\",\"namespace\":\"" + namespace + "\","
        + "\"labels\":{\"app\":\"bench\",\"pod-template-hash\":\"" + hash + "\",\"tier\":\"backend\"},"
        + "\"ownerReferences\":[{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"name\":\"bench-" + hash
        + "\",\"uid\":\"6f1e2b8a-3c4d-4e5f-9a0b-1c2d3e4f5a6b\",\"controller\":true}]},"
        + "\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"registry.example.com/bench/app:1.27.3\","
        + "\"ports\":[{\"containerPort\":8080,\"protocol\":\"TCP\"}],"
        + "\"resources\":{\"requests\":{\"cpu\":\"100m\",\"memory\":\"128Mi\"},\"limits\":{\"memory\":\"256Mi\"}},"
        + "\"imagePullPolicy\":\"IfNotPresent\"}],"
        + "\"restartPolicy\":\"Always\",\"terminationGracePeriodSeconds\":30,\"dnsPolicy\":\"ClusterFirst\","
        + "\"serviceAccountName\":\"default\",\"nodeName\":\"" + nodeName(index) + "\","
        + "\"schedulerName\":\"default-scheduler\"},"
        + "\"status\":{\"phase\":\"Running\",\"podIP\":\"" + podIp(index)
        + "\",\"startTime\":\"2026-11-01T00:00:00Z\",\"qosClass\":\"Burstable\"}}";
  }

  /**
   * The node pod {@code index} runs on: {@value #PODS_PER_NODE} pods a node, within kube's limit
   * of 110, so 100,000 pods fill 1,000 nodes.
   */
  static String nodeName(int index) {
    return String.format("node-%04d", index / PODS_PER_NODE);
  }

  /**
   * Pod {@code index}'s IP, unique (up to 2²⁴ pods): each node has a /24 of 10.0.0.0/8, as
   * kube gives each node a pod CIDR, and its pods the addresses from .1 on.
   */
  static String podIp(int index) {
    int node = index / PODS_PER_NODE;
    return "10." + (node >> 8 & 255) + "." + (node & 255) + "." + (index % PODS_PER_NODE + 1);
  }

  /**
   * The merge patch that stamps a write: {@code <sentNanos>-<seq>}, the write's (intended)
   * send time and its sequence number among the writes of a fan-out point.
   */
  static byte[] sentPatch(long sentNanos, int seq) {
    return ("{\"metadata\":{\"annotations\":{\"" + SENT + "\":\"" + sentNanos + "-" + seq + "\"}}}")
        .getBytes(StandardCharsets.US_ASCII);
  }

  /** What a parallel load did. */
  public record LoadResult(int created, double seconds, long errors, String firstError) {
  }

  /**
   * POSTs {@code body(i)} for i from {@code from} to {@code to - 1} to {@code path} (a
   * collection, e.g. {@code /api/v1/namespaces/default/pods}), {@code connections} requests
   * in flight (one virtual thread and one keep-alive connection each).
   */
  public static LoadResult createAll(InetSocketAddress server, String path, int from, int to, int connections,
      java.util.function.IntFunction<byte[]> body) throws InterruptedException {
    AtomicInteger next = new AtomicInteger(from);
    LongAdder errors = new LongAdder();
    AtomicReference<String> firstError = new AtomicReference<>();
    long t0 = System.nanoTime();
    Thread[] threads = new Thread[connections];
    for (int t = 0; t < connections; t++) {
      threads[t] = Thread.ofVirtual().name("pod-loader-" + t).start(() -> {
        try (RawHttp http = new RawHttp(server)) {
          for (int i = next.getAndIncrement(); i < to; i = next.getAndIncrement()) {
            RawHttp.Response r = http.send("POST", path, "application/json", body.apply(i), 512);
            if (r.status() != 201) {
              errors.increment();
              firstError.compareAndSet(null, "HTTP " + r.status() + ": " + r.bodyText());
            }
          }
        } catch (IOException e) {
          errors.increment();
          firstError.compareAndSet(null, e.toString());
        }
      });
    }
    for (Thread t : threads) {
      t.join();
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    return new LoadResult(to - from, seconds, errors.sum(), firstError.get());
  }
}
