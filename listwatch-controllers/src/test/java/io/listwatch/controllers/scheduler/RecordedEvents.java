package io.listwatch.controllers.scheduler;

import io.listwatch.client.DynamicObject;
import io.listwatch.controllers.events.EventRecorder;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** An EventRecorder that keeps {@code "<type> <reason> <ns>/<name>: <message>"} lines. Thread-safe. */
final class RecordedEvents implements EventRecorder {

  final List<String> lines = new CopyOnWriteArrayList<>();

  @Override
  public void event(DynamicObject involved, String type, String reason, String message) {
    lines.add(type + " " + reason + " " + involved.namespace() + "/" + involved.name() + ": " + message);
  }
}
