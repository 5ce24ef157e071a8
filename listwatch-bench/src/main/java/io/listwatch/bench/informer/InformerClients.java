package io.listwatch.bench.informer;

import java.util.List;

/**
 * The clients {@code informer-sync} compares, by the name given to {@code --clients}.
 * Stateless.
 */
final class InformerClients {

  /** Every name, in the order the results list them. */
  static final List<String> NAMES = List.of("listwatch", "listwatch-typed", "fabric8", "official");

  private InformerClients() {
  }

  static PodInformerUnderTest create(String name) {
    return switch (name) {
      case "fabric8" -> new Fabric8PodInformer();
      case "official" -> new OfficialPodInformer();
      case "listwatch" -> ListwatchPodInformer.dynamic();
      case "listwatch-typed" -> ListwatchPodInformer.typed();
      default -> throw new IllegalArgumentException("unknown client '" + name + "': one of " + NAMES);
    };
  }
}
