package io.listwatch.api.patch;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The order of a merged list, as kube's strategic merge decides it: the elements the patch
 * names come in the patch's order (or its {@code $setElementOrder}), the elements only the
 * server had keep their relative order from the live object, and the two runs are interleaved
 * by the live object's order where both elements were live (otherwise the patch's element
 * comes first). So adding an element by a patch without {@code $setElementOrder} puts it
 * before the live elements that follow it in no known order, as kube does. Stateless.
 */
final class ElementOrder {

  private ElementOrder() {
  }

  /**
   * Orders {@code merged}.
   *
   * @param merged the merged elements
   * @param patchOrder the patch's elements or its {@code $setElementOrder} list: membership and
   *     order of "patch" elements
   * @param serverOrder the live list
   * @param mergeKey the merge key, "" for primitives
   */
  static List<JsonNode> normalize(List<JsonNode> merged, List<JsonNode> patchOrder, List<JsonNode> serverOrder,
      String mergeKey) {
    List<JsonNode> patchItems = new ArrayList<>();
    List<JsonNode> serverOnly = new ArrayList<>();
    for (JsonNode v : merged) {
      (index(patchOrder, v, mergeKey) >= 0 ? patchItems : serverOnly).add(v);
    }
    patchItems.sort(Comparator.comparingInt(v -> index(patchOrder, v, mergeKey)));
    serverOnly.sort(Comparator.comparingInt(v -> index(serverOrder, v, mergeKey)));
    return interleave(serverOnly, patchItems, serverOrder, mergeKey);
  }

  /**
   * Merges two ordered runs: an element of {@code left} goes first only when both it and the
   * next element of {@code right} are in {@code serverOrder} and it comes earlier there.
   */
  private static List<JsonNode> interleave(List<JsonNode> left, List<JsonNode> right, List<JsonNode> serverOrder,
      String mergeKey) {
    List<JsonNode> out = new ArrayList<>(left.size() + right.size());
    int i = 0;
    int j = 0;
    while (i < left.size() || j < right.size()) {
      if (i >= left.size()) {
        out.add(right.get(j++));
      } else if (j >= right.size()) {
        out.add(left.get(i++));
      } else {
        int li = index(serverOrder, left.get(i), mergeKey);
        int ri = index(serverOrder, right.get(j), mergeKey);
        if (li >= 0 && ri >= 0 && li < ri) {
          out.add(left.get(i++));
        } else {
          out.add(right.get(j++));
        }
      }
    }
    return out;
  }

  /** The position of {@code item} in {@code list} (by merge key for objects), or -1. */
  static int index(List<JsonNode> list, JsonNode item, String mergeKey) {
    JsonNode key = mergeKey.isEmpty() ? item : item.get(mergeKey);
    for (int i = 0; i < list.size(); i++) {
      JsonNode candidate = mergeKey.isEmpty() ? list.get(i) : list.get(i).get(mergeKey);
      if (sameValue(candidate, key)) {
        return i;
      }
    }
    return -1;
  }

  /** JSON equality with numbers compared by value (80 and 80.0 are one port). */
  static boolean sameValue(JsonNode a, JsonNode b) {
    if (a == null || b == null) {
      return a == b;
    }
    if (a.isNumber() && b.isNumber()) {
      return a.decimalValue().compareTo(b.decimalValue()) == 0;
    }
    return a.equals(b);
  }
}
