package io.listwatch.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.client.Config;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.KubeClient;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.cache.SharedIndexInformer;
import io.listwatch.client.cache.SharedInformerFactory;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.Haproxy;
import io.listwatch.server.tls.TlsConfig;
import io.listwatch.storage.etcd.testing.EtcdServer;
import io.listwatch.testsupport.Await;
import io.listwatch.testsupport.EndToEnd;
import io.listwatch.testsupport.Kubectl;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distributed deployment end to end: two API servers over one real etcd behind HAProxy,
 * with kubectl and an informer talking to HAProxy's address only. When the server holding the
 * informer's watch goes away, the informer's next watch lands on the other server and resumes
 * from the resourceVersion the first one gave it, without listing again; kubectl sees no
 * difference.
 */
@EndToEnd
class HaproxyReplicasTest {

  private static final Duration BOUND = Duration.ofSeconds(30);
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;
  private final List<AutoCloseable> resources = new ArrayList<>();

  @AfterEach
  void stopAll() throws Exception {
    for (int i = resources.size() - 1; i >= 0; i--) {
      resources.get(i).close();
    }
  }

  private <T extends AutoCloseable> T closeLater(T resource) {
    resources.add(resource);
    return resource;
  }

  @Test
  void informerAndKubectlThroughHaproxy_carryOnWhenTheServerHoldingTheWatchGoes() throws Exception {
    EtcdServer etcd = closeLater(EtcdServer.start(dir.resolve("etcd")));
    Path firstDir = dir.resolve("first");
    Path secondDir = dir.resolve("second");
    ApiServer first = closeLater(ApiServer.builder().dataDir(firstDir).tls()
        .etcdServers(List.of(etcd.endpoint())).auditLog(firstDir.resolve("audit.log")).build().start());
    // the second server serves the first one's certificate and trusts its client CA, as replicas share them
    Path tls = firstDir.resolve("tls");
    ApiServer second = closeLater(ApiServer.builder().dataDir(secondDir)
        .tls(TlsConfig.DEFAULTS.withServingCertificate(tls.resolve("server.crt"), tls.resolve("server.key"))
            .withClientCa(tls.resolve("ca.crt")))
        .etcdServers(List.of(etcd.endpoint())).auditLog(secondDir.resolve("audit.log")).build().start());
    Haproxy haproxy = closeLater(Haproxy.start(dir.resolve("haproxy"), List.of(first.port(), second.port())));
    Path kubeconfig = dir.resolve("kubeconfig.yaml");
    Files.writeString(kubeconfig, Files.readString(first.kubeconfig()).replace(first.url(), haproxy.url()));

    KubeClient client = closeLater(KubeClient.create(Config.fromKubeconfig(kubeconfig, null)));
    ResourceClient<DynamicObject> configMaps = client.dynamic(ResourceType.CONFIGMAPS);
    SharedInformerFactory factory = closeLater(SharedInformerFactory.builder(client).namespace("default").build());
    SharedIndexInformer<DynamicObject> informer = factory.informerFor(ResourceType.CONFIGMAPS, DynamicObject.CODEC);
    factory.start();
    assertThat(factory.waitForCacheSync(BOUND)).isTrue();

    configMaps.create(configMap("before"));
    Await.until("the informer has 'before'", BOUND, () -> names(informer).contains("before"));

    ApiServer holder = watching(firstDir) ? first : second;
    Path survivorDir = holder == first ? secondDir : firstDir;
    int survivorAuditLines = lines(survivorDir.resolve("audit.log")).size();
    holder.close();

    createThroughTheBalancer(configMaps, "after");
    Await.until("the informer has 'after'", BOUND, () -> names(informer).contains("after"));

    // read once: the audit writer appends in the background, so a second read may be longer
    List<JsonNode> survivorLog = lines(survivorDir.resolve("audit.log"));
    List<JsonNode> since = survivorLog.subList(survivorAuditLines, survivorLog.size());
    assertThat(since).as("the informer's requests to the surviving server").filteredOn(e -> isConfigMaps(e)
        && e.path("verb").asText().equals("watch")).isNotEmpty();
    assertThat(since).as("no relist: the watch resumed from the first server's resourceVersion")
        .filteredOn(e -> isConfigMaps(e) && e.path("verb").asText().equals("list")).isEmpty();

    Kubectl kubectl = DemoCluster.kubectl(kubeconfig, dir);
    assertThat(kubectl.ok("get", "configmaps", "-n", "default", "-o", "name").stdout())
        .contains("configmap/before", "configmap/after");
  }

  /** Whether the server with this data directory's audit log holds the informer's configmaps watch. */
  private static boolean watching(Path dataDir) {
    return lines(dataDir.resolve("audit.log")).stream()
        .anyMatch(e -> isConfigMaps(e) && e.path("verb").asText().equals("watch"));
  }

  private static boolean isConfigMaps(JsonNode event) {
    return event.path("objectRef").path("resource").asText().equals("configmaps")
        && event.path("requestURI").asText().startsWith("/api/v1/namespaces/default/configmaps");
  }

  /** Creates through HAProxy, which may need a moment to notice the server that went away. */
  private static void createThroughTheBalancer(ResourceClient<DynamicObject> configMaps, String name) {
    Await.until("'" + name + "' created through the balancer", BOUND, () -> {
      try {
        configMaps.create(configMap(name));
        return true;
      } catch (RuntimeException e) {
        return configMaps.get("default", name).isPresent();
      }
    });
  }

  private static DynamicObject configMap(String name) {
    return DynamicObject.parse("""
        {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"%s","namespace":"default"},"data":{"k":"v"}}"""
        .formatted(name));
  }

  private static List<String> names(SharedIndexInformer<DynamicObject> informer) {
    return informer.getIndexer().list().stream().map(DynamicObject::name).toList();
  }

  private static List<JsonNode> lines(Path file) {
    try {
      List<JsonNode> out = new ArrayList<>();
      for (String line : Files.readAllLines(file)) {
        if (!line.isBlank()) {
          out.add(JSON.readTree(line));
        }
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
