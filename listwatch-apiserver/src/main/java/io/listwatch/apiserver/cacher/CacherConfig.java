package io.listwatch.apiserver.cacher;

import java.time.Duration;

/**
 * Sizes and times of the watch cache.
 *
 * @param historyCapacity the most events kept per resource for resuming watches (kube's
 *     ceiling is 102,400)
 * @param historyMaxAge events older than this are dropped from the history (kube keeps about
 *     75 s, its {@code eventFreshDuration}). The history holds every version it covers, so
 *     under churn its age is what the cache's heap grows with: at 10,000 pods rolled out in
 *     3 minutes, 5 minutes of history held about 550 MiB more than 75 s did)
 * @param watcherQueueCapacity frames queued per watcher before it counts as too slow
 * @param bookmarkInterval how often a watch that allows bookmarks gets one (kube: 1 min)
 * @param freshnessTimeout how long a read waits for the cache to catch up before 504
 *     "Too large resource version" (kube: 3 s)
 */
public record CacherConfig(int historyCapacity, Duration historyMaxAge, int watcherQueueCapacity,
    Duration bookmarkInterval, Duration freshnessTimeout) {

  public static final CacherConfig DEFAULTS = new CacherConfig(102_400, Duration.ofSeconds(75), 1_024,
      Duration.ofMinutes(1), Duration.ofSeconds(3));

  public CacherConfig {
    if (historyCapacity < 1 || watcherQueueCapacity < 1) {
      throw new IllegalArgumentException("capacities must be >= 1");
    }
  }
}
