package io.listwatch.client.contract;

import io.listwatch.client.KubeClient;
import io.listwatch.client.testing.FakeClient;
import io.listwatch.client.testing.ObjectTracker;

/**
 * The contract for {@link FakeClient}: a new tracker for each test. Expiring resourceVersions
 * is one more write (outside the tests' namespaces) and the tracker's compaction; a bookmark
 * is due when the tracker is told to send them.
 */
class FakeClientContractTest extends ResourceClientContract {

  private static final String SCRATCH = "contract-scratch";

  private FakeClient fake;
  private int churn;

  @Override
  protected KubeClient newClient() {
    fake = FakeClient.create(ObjectTracker.create());
    return fake;
  }

  @Override
  protected void expireResourceVersions() {
    fake.tracker().add(CONFIGMAPS, ConfigMaps.configMap(SCRATCH, "churn-" + (++churn)).toTree());
    fake.tracker().compact();
  }

  @Override
  protected void makeBookmarksDue() {
    fake.tracker().sendBookmarks();
  }
}
