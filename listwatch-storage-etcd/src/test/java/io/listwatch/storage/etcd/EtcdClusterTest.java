package io.listwatch.storage.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.storage.KeyValue;
import io.listwatch.storage.RecordingListener;
import io.listwatch.storage.StorageException;
import io.listwatch.storage.Watch;
import io.listwatch.storage.WatchEvent;
import io.listwatch.storage.etcd.testing.EtcdCluster;
import io.listwatch.testsupport.EndToEnd;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The etcd store over a real three-member etcd cluster: one member is killed in the middle of a
 * stream of writes, and nothing acknowledged is lost, neither from the store nor from a watch
 * that was open all along.
 */
@EndToEnd
class EtcdClusterTest {

  @TempDir
  Path dir;

  @Test
  void aMemberKilledMidStream_losesNoAcknowledgedWrite_andTheWatchGoesOn() throws Exception {
    try (EtcdCluster cluster = EtcdCluster.start(dir, 3);
        EtcdStorage storage = EtcdStorage.builder(cluster.endpoints()).compactionInterval(Duration.ZERO)
            .requestTimeout(Duration.ofSeconds(10)).open()) {
      cluster.awaitAgreedLeader(Duration.ofSeconds(30)); // all three in the raft group before one dies
      RecordingListener listener = new RecordingListener();
      Watch watch = storage.watch("/k/", storage.currentRevision(), listener);
      List<KeyValue> acknowledged = new ArrayList<>();
      int attempts = 0;
      int failures = 0;
      boolean killed = false;
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (acknowledged.size() < 150 && System.nanoTime() < deadline) {
        if (acknowledged.size() == 50 && !killed) {
          cluster.member(0).kill();
          killed = true;
        }
        attempts++;
        try {
          acknowledged.add(storage.create("/k/" + attempts, "v".getBytes(StandardCharsets.UTF_8)).join());
        } catch (java.util.concurrent.CompletionException e) {
          // refused while the cluster elects a leader or the client moves to another member;
          // such a write may or may not have been applied, and is not counted as acknowledged
          assertThat(e.getCause()).isInstanceOf(StorageException.class);
          failures++;
        }
      }

      assertThat(killed).isTrue();
      int refused = failures;
      assertThat(acknowledged).as(() -> "acknowledged writes, with " + refused + " refused; the members' logs:\n"
          + cluster.logs()).hasSize(150);
      KeyValue last = acknowledged.get(acknowledged.size() - 1);
      List<WatchEvent> events = listener.awaitRevision(last.modRevision());
      Map<String, KeyValue> seen = events.stream().collect(Collectors.toMap(e -> e.kv().key(), WatchEvent::kv,
          (a, b) -> b));
      assertThat(acknowledged).allSatisfy(kv -> assertThat(seen.get(kv.key())).as(kv.key()).isEqualTo(kv));
      assertThat(storage.range(io.listwatch.storage.RangeRequest.prefix("/k/")).join().kvs())
          .extracting(KeyValue::key).containsAll(acknowledged.stream().map(KeyValue::key).toList());
      listener.assertNoViolations();
      watch.close();
    }
  }
}
