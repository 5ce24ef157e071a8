package io.listwatch.controllers;

import io.listwatch.client.DynamicObject;
import io.listwatch.client.OwnerReference;
import io.listwatch.client.cache.Indexer;
import io.listwatch.client.cache.SharedIndexInformer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * kube's {@code PodControllerUIDIndex}: an index of the shared pods informer by the uid of each
 * pod's controller ({@code ownerReferences} entry with {@code controller: true}), orphans under
 * one key per namespace. A controller reads the pods it owns, and the orphans it may adopt,
 * from it ({@link #podsOf}, kube's {@code FilterPodsByOwner}) instead of scanning every pod of
 * the namespace on each sync, which at thousands of pods per namespace is what a sync would
 * otherwise cost.
 *
 * <p>Stateless; {@link #addTo} is safe to call from any thread, any number of times.
 */
public final class PodControllerIndex {

  /** The index's name on the informer. */
  public static final String NAME = "podControllerUID";
  private static final String ORPHAN = "_ORPHAN_POD_/";

  private PodControllerIndex() {
  }

  /** Adds the index to the pods informer unless it has it already. */
  public static void addTo(SharedIndexInformer<DynamicObject> pods) {
    synchronized (pods) {
      if (!pods.getIndexer().indexers().containsKey(NAME)) {
        pods.addIndexers(Map.of(NAME, PodControllerIndex::values));
      }
    }
  }

  private static List<String> values(DynamicObject pod) {
    return List.of(ControllerRefManager.controllerOf(pod).map(OwnerReference::uid)
        .orElse(ORPHAN + pod.namespace()));
  }

  /**
   * The pods of {@code namespace} whose controller has {@code ownerUid}, and with
   * {@code includeOrphans} the namespace's pods that have no controller.
   */
  public static List<DynamicObject> podsOf(Indexer<DynamicObject> pods, String namespace, String ownerUid,
      boolean includeOrphans) {
    List<DynamicObject> out = new ArrayList<>();
    for (DynamicObject pod : pods.byIndex(NAME, ownerUid)) {
      if (pod.namespace().equals(namespace)) {
        out.add(pod);
      }
    }
    if (includeOrphans) {
      out.addAll(pods.byIndex(NAME, ORPHAN + namespace));
    }
    return out;
  }
}
