package io.listwatch.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.storage.StorageException;
import io.listwatch.storage.Watch;
import io.listwatch.storage.WatchEvent;
import io.listwatch.storage.WatchListener;
import io.listwatch.storage.etcd.EtcdStorage;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each {@link NetworkFault} does to a three-member etcd (Debian's etcd-server, each member in a
 * network namespace: run as root) what the chaos run's history says it did: a split member is
 * still reached from the host but neither commits a write nor sees the majority's; a partitioned
 * one is not reached at all; a lossy link drops packets while writes still get through; and each
 * heals. Talks to the members through etcd's JSON gateway ({@code /v3/kv/...}).
 */
@EndToEnd
class PrivateNetworkTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @TempDir
  static Path dir;
  private static PrivateNetwork network;
  private static final List<NamespacedEtcdMember> members = new ArrayList<>();

  @BeforeAll
  static void startCluster() throws Exception {
    try {
      network = PrivateNetwork.create(3);
    } catch (IOException e) {
      throw new AssertionError("network namespaces need root (ip netns, tc): run the tests as root, as CI does", e);
    }
    String initial = IntStream.range(0, 3).mapToObj(i -> NamespacedEtcdMember.peer(network, i))
        .collect(Collectors.joining(","));
    for (int i = 0; i < 3; i++) {
      members.add(new NamespacedEtcdMember(network, i, dir.resolve("etcd-" + i), initial));
    }
    for (NamespacedEtcdMember m : members) {
      m.launch();
    }
    for (NamespacedEtcdMember m : members) {
      m.awaitListening();
    }
    for (int i = 0; i < 3; i++) {
      int member = i;
      Await.until("etcd-" + i + " commits a write", Duration.ofSeconds(30), () -> tryPut(member, "ready", "yes"));
    }
  }

  @AfterEach
  void heal() throws Exception {
    for (int i = 0; i < 3; i++) {
      network.heal(i);
    }
  }

  @AfterAll
  static void stopCluster() throws Exception {
    for (NamespacedEtcdMember m : members) {
      m.close();
    }
    if (network != null) {
      network.close();
    }
  }

  @Test
  void split_leavesTheMemberReachable_butWithoutTheMajoritysWrites_untilHealed() throws Exception {
    network.splitFromPeers(0);

    assertThat(accepts(0)).as("the host still reaches the split member").isTrue();
    Await.until("the majority commits a write", Duration.ofSeconds(30), () -> tryPut(1, "split", "majority"));
    assertThatThrownBy(() -> put(0, "split-minority", "minority"))
        .as("a write through the split member is never committed").isInstanceOf(IOException.class);
    assertThat(serializableGet(0, "split")).as("the split member's own data").isNull();

    network.heal(0);

    Await.until("the healed member has the majority's write", Duration.ofSeconds(30),
        () -> serializableGet(0, "split"), "majority"::equals);
    Await.until("the healed member commits a write", Duration.ofSeconds(30), () -> tryPut(0, "split", "healed"));
  }

  /**
   * As kube's, our watches of etcd require a leader: the member a watch's stream went to, once
   * split from the majority, ends it ("no leader") and it is opened again on another, instead of
   * waiting silently for the split to heal. Each member is split in turn, so one split is the
   * stream's, wherever it went; each write must reach the watch while its split lasts.
   */
  @Test
  void split_doesNotStallAWatchOfEtcd_itMovesToAMemberWithALeader() throws Exception {
    List<URI> endpoints = IntStream.range(0, 3).mapToObj(i -> URI.create("http://" + network.address(i) + ":2379"))
        .toList();
    BlockingQueue<String> seen = new LinkedBlockingQueue<>();
    try (EtcdStorage storage = EtcdStorage.builder(endpoints).requestTimeout(Duration.ofSeconds(5)).open()) {
      Watch watch = storage.watch("watched/", storage.readCurrentRevision().get(10, TimeUnit.SECONDS),
          new WatchListener() {
            @Override
            public void onEvents(List<WatchEvent> events) {
              events.forEach(e -> seen.add(e.kv().key()));
            }

            @Override
            public void onError(StorageException error) {
              seen.add("error: " + error);
            }
          });
      try {
        for (int split = 0; split < 3; split++) {
          network.splitFromPeers(split);
          int majority = (split + 1) % 3;
          String key = "watched/" + split;
          Await.until("the majority commits a write", Duration.ofSeconds(30), () -> tryPut(majority, key, "v"));
          assertThat(next(seen, key, Duration.ofSeconds(15))).as("the write, while etcd-" + split + " is split")
              .isEqualTo(key);
          network.heal(split);
        }
      } finally {
        watch.close();
      }
    }
  }

  @Test
  void partition_cutsTheMemberOffTheHost_untilHealed() throws Exception {
    network.isolate(2);

    assertThat(accepts(2)).as("the host reaches the partitioned member").isFalse();
    Await.until("the other two commit a write", Duration.ofSeconds(30), () -> tryPut(0, "partition", "two"));

    network.heal(2);

    Await.until("the healed member has the others' write", Duration.ofSeconds(30),
        () -> accepts(2) ? serializableGet(2, "partition") : null, "two"::equals);
  }

  @Test
  void lossy_dropsPackets_whileWritesStillGetThrough() throws Exception {
    network.degrade(1);
    String value = "x".repeat(16 * 1024);
    for (int i = 0; i < 8; i++) {
      int n = i;
      Await.until("write " + i + " through the lossy member", Duration.ofSeconds(60),
          () -> tryPut(1, "lossy-" + n, value));
    }

    long dropped = network.heal(1);

    assertThat(dropped).as("packets dropped by the lossy link's queue").isPositive();
    assertThat(serializableGet(1, "lossy-7")).isEqualTo(value);
    assertThat(network.heal(1)).as("nothing is shaped once healed").isZero();
  }

  /**
   * The first of {@code seen} within {@code bound} that is {@code key} or an error, passing over
   * earlier keys (a write that timed out and was committed after all); null if none came.
   */
  private static String next(BlockingQueue<String> seen, String key, Duration bound) throws InterruptedException {
    long deadline = System.nanoTime() + bound.toNanos();
    for (String s = seen.poll(bound.toNanos(), TimeUnit.NANOSECONDS); s != null;
        s = seen.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
      if (s.equals(key) || s.startsWith("error")) {
        return s;
      }
    }
    return null;
  }

  private static boolean accepts(int member) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(network.address(member), 2379), 1_000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** A write through {@code member}, false if it failed (no leader, timed out). */
  private static boolean tryPut(int member, String key, String value) throws InterruptedException {
    try {
      put(member, key, value);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static void put(int member, String key, String value) throws IOException, InterruptedException {
    call(member, "put", Map.of("key", base64(key), "value", base64(value)));
  }

  /** The value of {@code key} as {@code member} has it, without asking the leader; null when absent. */
  private static String serializableGet(int member, String key) throws IOException, InterruptedException {
    JsonNode kvs = call(member, "range", Map.of("key", base64(key), "serializable", true)).path("kvs");
    return kvs.isEmpty() ? null
        : new String(Base64.getDecoder().decode(kvs.get(0).path("value").asText()), StandardCharsets.UTF_8);
  }

  private static JsonNode call(int member, String verb, Map<String, Object> body) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + network.address(member) + ":2379/v3/kv/" + verb))
        .timeout(Duration.ofSeconds(5)).POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build();
    HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    JsonNode answer = JSON.readTree(response.body());
    if (response.statusCode() != 200 || answer.has("error")) {
      throw new IOException("etcd-" + member + " answered " + response.statusCode() + ": " + response.body());
    }
    return answer;
  }

  private static String base64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }
}
