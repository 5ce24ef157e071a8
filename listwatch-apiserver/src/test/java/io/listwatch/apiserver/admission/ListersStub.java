package io.listwatch.apiserver.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.InMemoryCore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link Listers} over objects a test puts in, for the plug-ins' unit tests; it counts reads, and
 * an object may be hidden for its first reads (a cache that has not seen it yet). Thread-safe.
 */
final class ListersStub implements Listers {

  private final Map<String, ObjectNode> objects = new ConcurrentHashMap<>();
  private final Map<String, Integer> hiddenReads = new ConcurrentHashMap<>();
  final AtomicInteger gets = new AtomicInteger();

  /** Adds the object {@code json} of {@code group}/{@code plural} in {@code namespace} ("" when cluster-scoped). */
  ListersStub add(String group, String plural, String namespace, String json) {
    ObjectNode obj = InMemoryCore.json(json);
    objects.put(key(group, plural, namespace, obj.path("metadata").path("name").asText()), obj);
    return this;
  }

  /** Makes the next {@code reads} gets of that object miss it. */
  ListersStub hideFor(String group, String plural, String namespace, String name, int reads) {
    hiddenReads.put(key(group, plural, namespace, name), reads);
    return this;
  }

  @Override
  public Optional<ObjectNode> get(String group, String plural, String namespace, String name) {
    gets.incrementAndGet();
    String key = key(group, plural, namespace, name);
    if (hiddenReads.merge(key, -1, Integer::sum) >= 0) {
      return Optional.empty();
    }
    return Optional.ofNullable(objects.get(key)).map(ObjectNode::deepCopy);
  }

  @Override
  public List<ObjectNode> list(String group, String plural, String namespace) {
    List<ObjectNode> found = new ArrayList<>();
    String prefix = group + "/" + plural + "/" + namespace + (namespace.isEmpty() ? "" : "/");
    objects.entrySet().stream().filter(e -> e.getKey().startsWith(prefix)).sorted(Map.Entry.comparingByKey())
        .forEach(e -> found.add(e.getValue().deepCopy()));
    return found;
  }

  private static String key(String group, String plural, String namespace, String name) {
    return group + "/" + plural + "/" + namespace + "/" + name;
  }
}
