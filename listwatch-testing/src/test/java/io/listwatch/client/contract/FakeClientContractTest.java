package io.listwatch.client.contract;

import io.listwatch.client.KubeClient;
import java.time.Duration;
import io.listwatch.client.testing.FakeClient;

/**
 * The contract for {@link FakeClient}: a new fake API server for each test (closing the
 * client stops it). Expiring
 * resourceVersions is one more write (outside the tests' namespaces) and the server's
 * {@code compact()} (time passes beyond the watch cache's history, the store compacts); a
 * bookmark is due when the server's clock moves by the bookmark interval.
 */
class FakeClientContractTest extends ResourceClientContract {

  private static final String SCRATCH = "contract-scratch";

  private FakeClient fake;
  private int churn;

  @Override
  protected KubeClient newClient() {
    fake = FakeClient.create();
    return fake;
  }

  @Override
  protected void expireResourceVersions() {
    fake.server().add(CONFIGMAPS, ConfigMaps.configMap(SCRATCH, "churn-" + (++churn)).toTree());
    fake.server().compact();
  }

  @Override
  protected void makeBookmarksDue() {
    fake.server().sendBookmarks();
  }

  @Override
  protected void timePasses(Duration duration) {
    fake.server().clock().advance(duration);
  }
}
