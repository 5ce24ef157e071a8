package io.listwatch.apiserver.quota;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.api.core.Quantity;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Quota that counts the objects of a resource (kube's {@code objectCountEvaluator}): each
 * object uses one {@code count/<plural>.<group>} ({@code count/<plural>} in the core group), and
 * one of its legacy name where kube has one ({@code configmaps}, {@code secrets},
 * {@code resourcequotas}, {@code replicationcontrollers}). Only creates are measured; no scopes,
 * no constraints. Immutable.
 */
public final class ObjectCountEvaluator implements QuotaEvaluator {

  private final String group;
  private final String plural;
  private final List<String> names;

  /**
   * @param alias the resource's legacy quota name, or null
   */
  public ObjectCountEvaluator(String group, String plural, String alias) {
    this.group = group;
    this.plural = plural;
    List<String> names = new ArrayList<>();
    names.add(QuotaEvaluator.objectCountName(group, plural));
    if (alias != null) {
      names.add(alias);
    }
    this.names = List.copyOf(names);
  }

  @Override
  public String group() {
    return group;
  }

  @Override
  public String plural() {
    return plural;
  }

  @Override
  public boolean handlesUpdates() {
    return false;
  }

  @Override
  public List<String> matchingResources(Collection<String> input) {
    return input.stream().filter(names::contains).toList();
  }

  @Override
  public ResourceList usage(JsonNode object, Instant now) {
    Map<String, Quantity> out = new TreeMap<>();
    names.forEach(n -> out.put(n, Quantity.ofCount(1)));
    return ResourceList.of(out);
  }
}
