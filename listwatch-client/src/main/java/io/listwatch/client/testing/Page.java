package io.listwatch.client.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.ContinueToken;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.OptionalLong;

/**
 * One page of a list, as the tracker serves it: trees as stored (never mutate them).
 * Immutable.
 *
 * @param items the objects in key order
 * @param resourceVersion the revision the page was served at
 * @param continueToken the continue token, {@code ""} on the last page
 * @param remainingItemCount how many objects follow, when no selector is set
 */
record Page(List<ObjectNode> items, long resourceVersion, String continueToken,
    OptionalLong remainingItemCount) {

  /**
   * The page of the objects in {@code range} (key order) that match {@code filter}: at most
   * {@code limit} (0: all), with a continue token (kube's format: the revision and the key
   * after the last one returned) when more match. Like kube, the count of what follows is
   * only given without selectors.
   */
  static Page of(NavigableMap<String, ObjectNode> range, Filter filter, long limit, long rv) {
    List<ObjectNode> items = new ArrayList<>();
    String lastKey = null;
    long rest = 0;
    for (Map.Entry<String, ObjectNode> e : range.entrySet()) {
      if (!filter.matches(e.getValue())) {
        continue;
      }
      if (limit > 0 && items.size() == limit) {
        if (filter.selective()) {
          rest = 1; // no count with selectors: the first one past the page is enough
          break;
        }
        rest++;
        continue;
      }
      items.add(e.getValue());
      lastKey = e.getKey();
    }
    if (rest == 0) {
      return new Page(items, rv, "", OptionalLong.empty());
    }
    String token = new ContinueToken(rv, lastKey + "\u0000").encode();
    return new Page(items, rv, token, filter.selective() ? OptionalLong.empty() : OptionalLong.of(rest));
  }
}
