package io.listwatch.server.http;

import io.listwatch.server.ApiServer;
import io.listwatch.storage.etcd.testing.EtcdServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the tests of two API servers over one real etcd share: one etcd and two replicas per
 * class ({@code first} and {@code second}, data in their own directories), a raw client of
 * each ({@code a}, {@code b}), all stopped after the class. A test may restart a replica with
 * {@link #replica}. The fields are static and set before each class's tests run.
 */
abstract class EtcdReplicas {

  @TempDir
  static Path dir;
  static EtcdServer etcd;
  static ApiServer first;
  static ApiServer second;
  static KubeHttp a;
  static KubeHttp b;

  @BeforeAll
  static void startReplicas() throws Exception {
    etcd = EtcdServer.start(dir.resolve("etcd"));
    first = replica(dir.resolve("first"));
    second = replica(dir.resolve("second"));
    a = new KubeHttp(first);
    b = new KubeHttp(second);
  }

  /** A started replica over the class's etcd, keeping its own files in {@code dataDir}. */
  static ApiServer replica(Path dataDir) {
    return ApiServer.builder().dataDir(dataDir).etcdServers(List.of(etcd.endpoint())).build().start();
  }

  @AfterAll
  static void stopReplicas() throws Exception {
    for (AutoCloseable c : new AutoCloseable[] {a, b, first, second, etcd}) {
      if (c != null) {
        c.close();
      }
    }
  }
}
