package io.listwatch.apiserver.quota;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.core.Quantity;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Amounts by resource name ({@code pods: 2, requests.cpu: 500m}): kube's
 * {@code corev1.ResourceList} with the arithmetic of its {@code quota/v1} helpers ({@code Add},
 * {@code Mask}, {@code LessThanOrEqual}, {@code SubtractWithNonNegativeResult}, ...). Names are
 * kept sorted, so every listing and message is in kube's sorted order. Immutable and
 * thread-safe.
 */
public final class ResourceList {

  /** No resources. */
  public static final ResourceList EMPTY = new ResourceList(new TreeMap<>());

  private final SortedMap<String, Quantity> amounts;

  private ResourceList(SortedMap<String, Quantity> amounts) {
    this.amounts = Collections.unmodifiableSortedMap(amounts);
  }

  /** The amounts of {@code amounts}. */
  public static ResourceList of(Map<String, Quantity> amounts) {
    return new ResourceList(new TreeMap<>(amounts));
  }

  /**
   * The amounts of a JSON map of quantities ({@code spec.hard}, a container's
   * {@code resources.requests}); a missing or non-object node is empty. Values that are not
   * quantities are left out (validation refuses them).
   */
  public static ResourceList fromJson(JsonNode map) {
    TreeMap<String, Quantity> out = new TreeMap<>();
    if (map != null && map.isObject()) {
      for (var e : map.properties()) {
        try {
          out.put(e.getKey(), Quantity.of(e.getValue().asText()));
        } catch (IllegalArgumentException notAQuantity) {
          // left out: validation refuses it
        }
      }
    }
    return new ResourceList(out);
  }

  /** A JSON map of the amounts in kube's canonical form. */
  public ObjectNode toJson() {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    amounts.forEach((k, v) -> out.put(k, v.toString()));
    return out;
  }

  public SortedMap<String, Quantity> amounts() {
    return amounts;
  }

  public Set<String> names() {
    return amounts.keySet();
  }

  public Quantity get(String name) {
    return amounts.get(name);
  }

  public boolean has(String name) {
    return amounts.containsKey(name);
  }

  public boolean isEmpty() {
    return amounts.isEmpty();
  }

  /** This with {@code name} set to {@code amount}. */
  public ResourceList with(String name, Quantity amount) {
    TreeMap<String, Quantity> out = new TreeMap<>(amounts);
    out.put(name, amount);
    return new ResourceList(out);
  }

  /** The sum per name of this and {@code other}; a name in one only keeps its amount (kube's {@code Add}). */
  public ResourceList add(ResourceList other) {
    TreeMap<String, Quantity> out = new TreeMap<>(amounts);
    other.amounts.forEach((k, v) -> out.merge(k, v, Quantity::add));
    return new ResourceList(out);
  }

  /**
   * This minus {@code other} per name, never below zero; names only in {@code other} are zero
   * (kube's {@code SubtractWithNonNegativeResult}).
   */
  public ResourceList subtractWithNonNegativeResult(ResourceList other) {
    TreeMap<String, Quantity> out = new TreeMap<>();
    amounts.forEach((k, v) -> {
      Quantity d = other.has(k) ? v.subtract(other.get(k)) : v;
      out.put(k, d.signum() > 0 ? d : Quantity.ZERO);
    });
    other.amounts.keySet().forEach(k -> out.putIfAbsent(k, Quantity.ZERO));
    return new ResourceList(out);
  }

  /** Only the names in {@code names} (kube's {@code Mask}). */
  public ResourceList mask(Collection<String> names) {
    TreeMap<String, Quantity> out = new TreeMap<>(amounts);
    out.keySet().retainAll(Set.copyOf(names));
    return new ResourceList(out);
  }

  /**
   * The names whose amount here is above {@code limits}' (names missing on either side are not
   * compared), in order: empty when this is within them (kube's {@code LessThanOrEqual}).
   */
  public List<String> exceeding(ResourceList limits) {
    List<String> out = new ArrayList<>();
    limits.amounts.forEach((k, limit) -> {
      Quantity v = amounts.get(k);
      if (v != null && v.compareTo(limit) > 0) {
        out.add(k);
      }
    });
    return out;
  }

  /** Whether every amount is zero (kube's {@code IsZero}); true when empty. */
  public boolean isZero() {
    return amounts.values().stream().allMatch(q -> q.signum() == 0);
  }

  /** The names whose amount is negative, in order (kube's {@code IsNegative}). */
  public List<String> negatives() {
    return amounts.entrySet().stream().filter(e -> e.getValue().signum() < 0).map(Map.Entry::getKey).toList();
  }

  /** Same names with the same amounts, whatever their formats (kube's {@code quota.Equals}). */
  public boolean sameAmounts(ResourceList other) {
    if (!amounts.keySet().equals(other.amounts.keySet())) {
      return false;
    }
    return amounts.entrySet().stream().allMatch(e -> e.getValue().compareTo(other.amounts.get(e.getKey())) == 0);
  }

  /** {@code name=amount} pairs in name order, joined by commas (kube's {@code prettyPrint}). */
  @Override
  public String toString() {
    StringBuilder out = new StringBuilder();
    amounts.forEach((k, v) -> out.append(out.isEmpty() ? "" : ",").append(k).append('=').append(v));
    return out.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ResourceList r && r.amounts.equals(amounts);
  }

  @Override
  public int hashCode() {
    return amounts.hashCode();
  }
}
