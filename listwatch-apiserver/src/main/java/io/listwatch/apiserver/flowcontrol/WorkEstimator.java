package io.listwatch.apiserver.flowcontrol;

import io.listwatch.apiserver.request.RequestInfo;
import java.util.List;
import java.util.Map;

/**
 * How many seats a request occupies while it executes (kube's {@code request.WorkEstimator}):
 * one for most requests; for a list (and a watch that asks for its initial events,
 * {@code sendInitialEvents=true}), one seat per 100 objects it is estimated to go through, at
 * least 1 and at most 10 (kube's {@code MaximumListSeatsLimit}) and never more than its
 * level's limit.
 *
 * <p>The estimate of objects, as kube's list estimator: every stored object of the resource
 * when the list is answered from the watch cache (no limit, or a limit not smaller than what
 * is stored); with a smaller {@code limit} the objects read from storage for one page, twice the
 * limit, or the stored count plus the limit when a selector filters them. An unknown resource
 * counts as 1 seat (kube: its count is not found). Simplified: a mutating request is 1 seat
 * (kube adds seats for the watchers it will notify, which stretch its execution, not its width
 * at start); a watch without initial events is 1 seat, held until the watch is set up.
 *
 * <p>Stateless.
 */
final class WorkEstimator {

  static final int MINIMUM_SEATS = 1;
  static final int MAXIMUM_LIST_SEATS = 10;
  static final double OBJECTS_PER_SEAT = 100.0;

  private WorkEstimator() {
  }

  static int seats(RequestInfo info, Map<String, List<String>> query, FlowControl.ObjectCounter counter, int levelLimit) {
    boolean list = info.resourceRequest() && info.verb().equals("list");
    boolean initialEvents = info.verb().equals("watch") && "true".equals(first(query, "sendInitialEvents"));
    if (!list && !initialEvents) {
      return MINIMUM_SEATS;
    }
    int maxSeats = Math.max(MINIMUM_SEATS, Math.min(MAXIMUM_LIST_SEATS, levelLimit));
    long stored = counter.count(info.group(), info.resource());
    if (stored < 0) {
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
    return (int) Math.max(MINIMUM_SEATS, Math.min(maxSeats, seats));
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
