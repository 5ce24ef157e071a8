package io.listwatch.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.ListOptions;
import io.listwatch.client.Config;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.client.WatchEvent;
import io.listwatch.client.WatchStream;
import io.listwatch.server.ApiServer;
import io.listwatch.server.testing.ApiServerExtension;
import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The transport against our server's h2c: HTTP/2 by {@code Upgrade: h2c}, all watches on
 * one connection, even when they all start at once before any connection exists.
 */
@ExtendWith(ApiServerExtension.class)
@Timeout(60)
class Http2Test {

  private static final int WATCHES = 20;

  @Test
  void concurrentWatches_shareOneHttp2Connection_evenAsTheVeryFirstRequests(ApiServer server) throws Exception {
    assertThat(openConcurrentWatches(server, true, "h2")).isEqualTo(1);
  }

  @Test
  void withHttp2Off_eachWatchHoldsAnHttp11Connection(ApiServer server) throws Exception {
    assertThat(openConcurrentWatches(server, false, "h1")).isGreaterThanOrEqualTo(WATCHES);
  }

  /** Opens the watches concurrently, checks each sees a write, returns the connections used. */
  private static int openConcurrentWatches(ApiServer server, boolean http2, String ns) throws Exception {
    try (CountingProxy proxy = new CountingProxy(server.port());
        HttpKubeClient client = HttpKubeClient.create(Config.builder(proxy.url()).http2(http2).build());
        ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      ResourceClient<DynamicObject> cms = client.dynamic(ResourceType.CONFIGMAPS);
      List<Future<WatchStream<DynamicObject>>> opening = new ArrayList<>();
      for (int i = 0; i < WATCHES; i++) {
        opening.add(threads.submit(() -> cms.watch(ns, ListOptions.builder().build())));
      }
      List<WatchStream<DynamicObject>> watches = new ArrayList<>();
      for (Future<WatchStream<DynamicObject>> f : opening) {
        watches.add(f.get(20, TimeUnit.SECONDS));
      }
      assertThat(client.lastResponseVersion())
          .contains(http2 ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1);

      // the namespace does not need to exist for a watch; create it and a config map in it
      client.dynamic(ResourceType.NAMESPACES).create(DynamicObject.parse(
          "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + ns + "\"}}"));
      cms.create(DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"x\",\"namespace\":\"" + ns + "\"}}"));
      List<Future<WatchEvent<DynamicObject>>> firstEvents = new ArrayList<>();
      for (WatchStream<DynamicObject> w : watches) {
        firstEvents.add(threads.submit(() -> w.next().orElseThrow()));
      }
      for (Future<WatchEvent<DynamicObject>> e : firstEvents) {
        WatchEvent<DynamicObject> event = e.get(20, TimeUnit.SECONDS);
        assertThat(event.type() + " " + event.object().name()).isEqualTo("ADDED x");
      }
      watches.forEach(WatchStream::close);
      return proxy.connections();
    }
  }
}
