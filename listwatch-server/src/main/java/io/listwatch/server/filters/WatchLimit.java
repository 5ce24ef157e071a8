package io.listwatch.server.filters;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.request.UserInfo;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code --max-watches-per-user}: how many watches one user (by name) may hold open at once; one
 * more is answered 429 TooManyRequests with {@code Retry-After: 1} before it streams. kube has no
 * such flag (its priority-and-fairness filter bounds watches per flow); this is the simpler
 * guard against one client opening watches until the server runs out of memory. Like kube's
 * in-flight limit, members of system:masters are not limited. 0 means unlimited.
 *
 * <p>Thread-safe: a concurrent map of counts, updated atomically per user; a user with no watch
 * has no entry.
 */
public final class WatchLimit {

  /** The default: far above what a controller or kubectl opens, far below what hurts the server. */
  public static final int DEFAULT_MAX_WATCHES_PER_USER = 1000;

  private final int maxPerUser;
  private final ConcurrentHashMap<String, Integer> watches = new ConcurrentHashMap<>();

  /** @param maxPerUser the most open watches per user, 0 for unlimited */
  public WatchLimit(int maxPerUser) {
    if (maxPerUser < 0) {
      throw new IllegalArgumentException("the watch limit must be >= 0 (0 = unlimited)");
    }
    this.maxPerUser = maxPerUser;
  }

  /** Counts one more watch of {@code user}, or throws 429. The slot ends the count. */
  public MaxInFlightLimit.Slot acquire(UserInfo user) {
    if (maxPerUser == 0 || user.inGroup(UserInfo.MASTERS)) {
      return MaxInFlightLimit.Slot.NONE;
    }
    String name = user.name();
    boolean[] over = new boolean[1];
    watches.compute(name, (k, n) -> {
      int current = n == null ? 0 : n;
      if (current >= maxPerUser) {
        over[0] = true;
        return n;
      }
      return current + 1;
    });
    if (over[0]) {
      throw StatusException.tooManyRequests("Too many watches for user " + name + " (limit " + maxPerUser
          + "), please try again later.", MaxInFlightLimit.RETRY_AFTER_SECONDS);
    }
    return () -> watches.computeIfPresent(name, (k, n) -> n <= 1 ? null : n - 1);
  }

  /** Open watches of {@code userName} counted now. */
  public int watches(String userName) {
    return watches.getOrDefault(userName, 0);
  }
}
