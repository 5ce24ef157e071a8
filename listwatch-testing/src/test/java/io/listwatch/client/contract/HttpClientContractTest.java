package io.listwatch.client.contract;

import io.listwatch.api.ListOptions;
import io.listwatch.apiserver.cacher.CacherConfig;
import io.listwatch.client.Config;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ResourceClient;
import io.listwatch.server.ApiServer;
import io.listwatch.storage.Storage;
import io.listwatch.storage.rocksdb.RocksDbStorage;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract for the HTTP client, against the in-process server (plain HTTP on 127.0.0.1),
 * started once for the class over a store this test opens, so it can compact it.
 *
 * <p>The server's watch cache keeps a short history ({@value #HISTORY} events) and sends
 * bookmarks every second. Expiring resourceVersions is what a busy cluster does: more
 * ConfigMap writes than the watch cache's history holds (a watch from before them gets 410),
 * then the store compacted to its current revision (an Exact list or a continue token from
 * before gets 410).
 */
class HttpClientContractTest extends ResourceClientContract {

  /** Events the watch cache keeps per resource: the tests write fewer between a version and its use. */
  private static final int HISTORY = 50;
  private static final String SCRATCH = "contract-scratch";

  @TempDir
  static Path storeDir;

  private static Storage storage;
  private static ApiServer server;
  /** Writes the churn that expires old versions; closed after the class. */
  private static KubeClient admin;
  private static int churn;

  @BeforeAll
  static void startServer() {
    storage = RocksDbStorage.builder(storeDir).open();
    CacherConfig config = new CacherConfig(HISTORY, Duration.ofMinutes(5), 1_024, Duration.ofSeconds(1),
        Duration.ofSeconds(3));
    server = ApiServer.builder().bindAddress("127.0.0.1").storage(storage).cacherConfig(config).build().start();
    admin = KubeClient.create(Config.forUrl(server.url()));
    admin.dynamic(io.listwatch.client.ResourceType.NAMESPACES).create(ConfigMaps.namespace(SCRATCH));
    admin.dynamic(CONFIGMAPS).create(ConfigMaps.configMap(SCRATCH, "churn"));
  }

  @AfterAll
  static void stopServer() {
    if (admin != null) {
      admin.close();
    }
    if (server != null) {
      server.close();
    }
    if (storage != null) {
      storage.close();
    }
  }

  @Override
  protected KubeClient newClient() {
    return KubeClient.create(Config.forUrl(server.url()));
  }

  /**
   * More ConfigMap changes than the watch cache keeps, a consistent list (the cache has them
   * all), then the store compacted to its current revision.
   */
  @Override
  protected void expireResourceVersions() {
    ResourceClient<DynamicObject> cms = admin.dynamic(CONFIGMAPS);
    for (int i = 0; i <= HISTORY; i++) {
      cms.mergePatch(SCRATCH, "churn", "{\"data\":{\"n\":\"" + (++churn) + "\"}}");
    }
    cms.list(SCRATCH, ListOptions.builder().build());
    storage.compact(storage.currentRevision()).join();
  }

  /** The server's bookmark timer fires every second: nothing to do but wait (bounded by AWAIT). */
  @Override
  protected void makeBookmarksDue() {
  }

  /** The server runs on real time: the test waits for what is due. */
  @Override
  protected void timePasses(Duration duration) {
  }
}
