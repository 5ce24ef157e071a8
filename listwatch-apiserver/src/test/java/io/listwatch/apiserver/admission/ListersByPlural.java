package io.listwatch.apiserver.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** {@link Listers} for plug-in tests: each resource's objects, by plural, from a function read at each call (copies). */
final class ListersByPlural implements Listers {

  private final Function<String, List<ObjectNode>> byPlural;

  ListersByPlural(Function<String, List<ObjectNode>> byPlural) {
    this.byPlural = byPlural;
  }

  @Override
  public Optional<ObjectNode> get(String group, String plural, String namespace, String name) {
    return list(group, plural, namespace).stream()
        .filter(o -> o.path("metadata").path("name").asText().equals(name)).findFirst();
  }

  @Override
  public List<ObjectNode> list(String group, String plural, String namespace) {
    return byPlural.apply(plural).stream().map(ObjectNode::deepCopy).toList();
  }
}
