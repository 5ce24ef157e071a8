package io.listwatch.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.storage.RangeRequest;
import io.listwatch.storage.Storage;
import io.listwatch.storage.rocksdb.RocksDbStorage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A server given a {@link Storage} serves it, and leaves it open for its owner. */
class ApiServerStorageTest {

  @Test
  void aGivenStorage_isServed_andStaysOpenAfterTheServerStops(@TempDir Path storeDir) throws Exception {
    try (Storage storage = RocksDbStorage.builder(storeDir).open()) {
      try (ApiServer server = ApiServer.builder().storage(storage).build().start()) {
        HttpClient http = HttpClient.newHttpClient();
        String cm = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"given\"}}";
        HttpResponse<String> created = http.send(HttpRequest.newBuilder(
                URI.create(server.url() + "/api/v1/namespaces/default/configmaps"))
            .timeout(Duration.ofSeconds(15)).header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(cm)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
      }
      var stored = storage.range(RangeRequest.prefix("/registry/core/configmaps/default/")).join().kvs();
      assertThat(stored).hasSize(1);
      assertThat(new String(stored.getFirst().value(), StandardCharsets.UTF_8)).contains("\"given\"");
    }
  }
}
