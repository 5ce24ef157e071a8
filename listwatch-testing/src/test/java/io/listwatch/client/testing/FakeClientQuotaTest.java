package io.listwatch.client.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.api.StatusException;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.ResourceType;
import io.listwatch.testsupport.Await;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The fake client runs the core's ResourceQuota admission and quota controller, as the server does. */
class FakeClientQuotaTest {

  private static final ResourceType QUOTAS = new ResourceType("", "v1", "resourcequotas", "ResourceQuota", true);

  private final FakeClient client = FakeClient.create();
  private final ResourceClient<DynamicObject> quotas = client.dynamic(QUOTAS);
  private final ResourceClient<DynamicObject> configMaps = client.dynamic(ResourceType.CONFIGMAPS);

  private static DynamicObject configMap(String name) {
    return DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
        + "\",\"namespace\":\"default\"}}");
  }

  private void awaitUsed(String count) {
    Await.until("the quota uses " + count, Duration.ofSeconds(10),
        () -> quotas.get("default", "objects").flatMap(q -> q.get("status")).map(Object::toString).orElse(""),
        status -> status.contains("\"used\":{\"count/configmaps\":\"" + count + "\"}"));
    // a list without a resourceVersion is served once the watch cache caught up: admission reads quotas there
    quotas.list("default", io.listwatch.api.ListOptions.parse(java.util.Map.of()));
  }

  @Test
  void aCreateOverQuota_isForbidden_untilADeleteReleasesItsUsage() {
    quotas.create(DynamicObject.parse("{\"apiVersion\":\"v1\",\"kind\":\"ResourceQuota\",\"metadata\":{\"name\":\"objects\","
        + "\"namespace\":\"default\"},\"spec\":{\"hard\":{\"count/configmaps\":\"1\"}}}"));
    awaitUsed("0");
    configMaps.create(configMap("one"));
    assertThatThrownBy(() -> configMaps.create(configMap("two")))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.status().code()).isEqualTo(403);
          assertThat(e.getMessage()).contains("exceeded quota: objects, requested: count/configmaps=1, "
              + "used: count/configmaps=1, limited: count/configmaps=1");
        });
    configMaps.delete("default", "one");
    awaitUsed("0");
    assertThat(configMaps.create(configMap("two")).name()).isEqualTo("two");
  }
}
