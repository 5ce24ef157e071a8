package io.listwatch.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.clock.FakeClock;
import io.listwatch.storage.KeyValue;
import io.listwatch.storage.Storage;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class InstrumentedStorageTest {

  @Test
  void storageType_isTheResourceOfTheKey() {
    assertThat(InstrumentedStorage.type("/registry/core/pods/default/a")).isEqualTo("pods");
    assertThat(InstrumentedStorage.type("/registry/core/namespaces/default")).isEqualTo("namespaces");
    assertThat(InstrumentedStorage.type("/registry/apps/deployments/")).isEqualTo("deployments.apps");
    assertThat(InstrumentedStorage.type("/other")).isEmpty();
  }

  @Test
  void storageLatency_isMeasuredOnTheServersClock() {
    FakeClock clock = new FakeClock();
    ServerMetrics metrics = new ServerMetrics(info -> true, clock);
    CompletableFuture<KeyValue> pending = new CompletableFuture<>();
    Storage backend = (Storage) Proxy.newProxyInstance(Storage.class.getClassLoader(), new Class<?>[] {Storage.class},
        (proxy, method, args) -> method.getName().equals("update") ? pending : null);
    Storage timed = metrics.instrument(backend);

    CompletableFuture<KeyValue> update = timed.update("/registry/core/pods/default/a", new byte[0], 1);
    clock.advance(Duration.ofMillis(250));
    pending.complete(null);

    assertThat(update).isDone();
    assertThat(metrics.exposition())
        .contains("etcd_request_duration_seconds_count{operation=\"update\",type=\"pods\"} 1")
        .contains("etcd_request_duration_seconds_sum{operation=\"update\",type=\"pods\"} 0.25");
  }
}
