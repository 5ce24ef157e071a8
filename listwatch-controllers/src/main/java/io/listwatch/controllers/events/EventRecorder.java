package io.listwatch.controllers.events;

import io.listwatch.client.DynamicObject;

/**
 * Records Events about objects, as client-go's {@code record.EventRecorder}: e.g. the
 * replicaset controller's {@code SuccessfulCreate} on a ReplicaSet, the scheduler's
 * {@code Scheduled} on a Pod. Recording never blocks the caller and never fails it: events
 * are best-effort, written in the background and aggregated as client-go's recorder does.
 *
 * <p>Implementations are thread-safe.
 */
public interface EventRecorder {

  /** kube's event types. */
  String NORMAL = "Normal";
  String WARNING = "Warning";

  /**
   * Records an event about {@code involved}.
   *
   * @param involved the object the event is about (its kind, apiVersion, namespace, name,
   *     uid and resourceVersion are referenced)
   * @param type {@link #NORMAL} or {@link #WARNING}
   * @param reason a short UpperCamelCase reason, e.g. {@code ScalingReplicaSet}
   * @param message a human-readable message
   */
  void event(DynamicObject involved, String type, String reason, String message);

  /** A recorder that drops every event (for tests that do not look at events). */
  EventRecorder DISCARD = (involved, type, reason, message) -> { };
}
