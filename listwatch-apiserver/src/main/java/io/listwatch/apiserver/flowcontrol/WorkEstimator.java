package io.listwatch.apiserver.flowcontrol;

import io.listwatch.apiserver.request.RequestInfo;
import java.util.List;
import java.util.Map;

/**
 * How many seats a request occupies while it executes (kube's {@code request.WorkEstimator}):
 * one for most requests; for a list (and a watch that asks for its initial events,
 * {@code sendInitialEvents=true}), one seat per 100 objects it is estimated to go through, at
 * least 1 and at most its level's maximum ({@link #maxSeats}).
 *
 * <p>The estimate of objects, as kube's list estimator: one when a field selector pins
 * {@code metadata.name} (kube's request info then names the object, and storage reads it
 * alone); every stored object of the resource when the list is answered from the watch cache
 * (no limit, or a limit not smaller than what is stored); with a smaller {@code limit} the
 * objects read from storage for one page, twice the limit, or the stored count plus the limit
 * when a selector filters them. An unknown resource counts as 1 seat (kube: its count is not
 * found). Simplified: a mutating request is 1 seat (kube adds seats for the watchers it will
 * notify, which stretch its execution, not its width at start); a watch without initial
 * events is 1 seat, held until the watch is set up.
 *
 * <p>Stateless.
 */
final class WorkEstimator {

  static final int MINIMUM_SEATS = 1;
  static final int MAXIMUM_LIST_SEATS = 10;
  static final double OBJECTS_PER_SEAT = 100.0;

  private WorkEstimator() {
  }

  /** kube's share of a level's nominal seats one request may take: 15%. */
  static final double MAX_SEATS_FRACTION = 0.15;

  /**
   * The widest request of a level (kube's {@code MaxSeatsTracker}, set as the configuration is
   * applied): for a level that queues, 15% of its nominal seats rounded up, but no more than its
   * nominal seats divided by its hand size, and at least 1; for any other level kube's overall
   * maximum of 10. Either way never more than 10. With kube's default 600 seats, global-default
   * (49 seats, hand size 6) takes lists of at most 8 seats and workload-low (245) of 10.
   */
  static int maxSeats(QueueSet.Config level) {
    if (level.exempt() || level.queues() == 0) {
      return MAXIMUM_LIST_SEATS;
    }
    int limit = level.concurrencyLimit();
    long tracked = Math.max(1, Math.min((long) Math.ceil(limit * MAX_SEATS_FRACTION), limit / level.handSize()));
    return (int) Math.min(MAXIMUM_LIST_SEATS, tracked);
  }

  /** @param maxSeats the level's {@link #maxSeats}; 0 or more than 10 counts as 10, as in kube */
  static int seats(RequestInfo info, Map<String, List<String>> query, FlowControl.ObjectCounter counter, int maxSeats) {
    boolean list = info.resourceRequest() && info.verb().equals("list");
    boolean initialEvents = info.verb().equals("watch") && "true".equals(first(query, "sendInitialEvents"));
    if (!list && !initialEvents) {
      return MINIMUM_SEATS;
    }
    long stored = counter.count(info.group(), info.resource());
    if (stored < 0 || !info.listedName(query).isEmpty()) {
      return MINIMUM_SEATS;
    }
    long limit = parseLimit(first(query, "limit"));
    long objects;
    if (list && limit > 0 && limit < stored) {
      boolean filtered = !first(query, "labelSelector").isEmpty() || !first(query, "fieldSelector").isEmpty();
      objects = filtered ? stored + limit : 2 * limit;
    } else {
      objects = stored;
    }
    long seats = (long) Math.ceil(objects / OBJECTS_PER_SEAT);
    int max = maxSeats <= 0 || maxSeats > MAXIMUM_LIST_SEATS ? MAXIMUM_LIST_SEATS : maxSeats;
    return (int) Math.max(MINIMUM_SEATS, Math.min(max, seats));
  }

  private static String first(Map<String, List<String>> query, String name) {
    List<String> values = query.get(name);
    return values == null || values.isEmpty() ? "" : values.get(0);
  }

  private static long parseLimit(String value) {
    try {
      return value.isEmpty() ? 0 : Long.parseLong(value);
    } catch (NumberFormatException e) {
      return 0; // the list itself answers 400
    }
  }
}
