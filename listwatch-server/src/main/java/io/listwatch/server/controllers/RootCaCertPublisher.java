package io.listwatch.server.controllers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.apiserver.cacher.CacheListener;
import io.listwatch.apiserver.cacher.WatchCacheEvent;
import io.listwatch.apiserver.controller.ControllerQueue;
import io.listwatch.apiserver.rest.ResourceStore;
import java.util.concurrent.CompletionException;

/**
 * kube-controller-manager's root CA certificate publisher: every namespace has a ConfigMap
 * {@value #NAME} whose {@code ca.crt} is the CA clients verify this server with (the
 * service account token volume projects it into every pod), annotated
 * {@code kubernetes.io/description} as kube annotates it. One is created in a new namespace, and
 * created again when deleted, or written back when its data or description are changed. A
 * namespace that is gone or terminating is left alone (its create fails with 404 or 403).
 *
 * <p>Thread-safe: listeners only queue namespace names; the work runs on the
 * {@code root-ca-cert-publisher} thread.
 */
public final class RootCaCertPublisher implements AutoCloseable {

  static final String NAME = "kube-root-ca.crt";
  static final String DESCRIPTION_ANNOTATION = "kubernetes.io/description";
  static final String DESCRIPTION = "Contains a CA bundle that can be used to verify the kube-apiserver when using "
      + "internal endpoints such as the internal service IP or kubernetes.default.svc. "
      + "No other usage is guaranteed across distributions of Kubernetes clusters.";

  private final ResourceStore namespaces;
  private final ResourceStore configMaps;
  private final String caPem;
  private final ControllerQueue queue;

  /**
   * A publisher of {@code caPem} that acts while {@code gate} is open.
   *
   * @param clock when failed syncs are retried
   */
  public RootCaCertPublisher(ResourceStore namespaces, ResourceStore configMaps, String caPem,
      ControllerQueue.Gate gate, Clock clock) {
    this.namespaces = namespaces;
    this.configMaps = configMaps;
    this.caPem = caPem;
    this.queue = new ControllerQueue("root-ca-cert-publisher", this::sync, gate, clock);
  }

  /** Registers the cache listeners and starts the worker. */
  public void start() {
    queue.start();
    namespaces.cacher().addListener(CacheListener.of(objects -> objects.forEach(o -> queue.add(o.name())), event -> {
      if (event.type() != WatchCacheEvent.Type.DELETED) {
        queue.add(event.object().name());
      }
    }));
    configMaps.cacher().addListener(CacheListener.ofChanges(event -> {
      if (event.type() != WatchCacheEvent.Type.ADDED && event.object().name().equals(NAME)) {
        queue.add(event.object().namespace());
      }
    }));
  }

  private void sync(String namespace) {
    var current = configMaps.getInternal(namespace, NAME).join();
    if (current.isEmpty()) {
      create(namespace);
      return;
    }
    if (current.get().path("data").equals(data())
        && !current.get().path("metadata").path("annotations").path(DESCRIPTION_ANNOTATION).asText("").isEmpty()) {
      return;
    }
    try {
      configMaps.updateInternal(namespace, NAME, cm -> {
        cm.set("data", data());
        ObjectNode meta = cm.get("metadata") instanceof ObjectNode m ? m : cm.putObject("metadata");
        (meta.get("annotations") instanceof ObjectNode a ? a : meta.putObject("annotations"))
            .put(DESCRIPTION_ANNOTATION, DESCRIPTION);
        return cm;
      }).join();
    } catch (CompletionException e) {
      // deleted meanwhile: its deletion queues the namespace again
      if (!(e.getCause() instanceof StatusException se && se.code() == 404)) {
        throw e;
      }
    }
  }

  private void create(String namespace) {
    ObjectNode cm = JsonNodeFactory.instance.objectNode().put("apiVersion", "v1").put("kind", "ConfigMap");
    cm.putObject("metadata").put("name", NAME).putObject("annotations").put(DESCRIPTION_ANNOTATION, DESCRIPTION);
    cm.set("data", data());
    try {
      configMaps.createInternal(namespace, cm).join();
    } catch (CompletionException e) {
      // the namespace is gone (404) or terminating (403), or the map was created meanwhile (409)
      if (!(e.getCause() instanceof StatusException se && (se.code() == 404 || se.code() == 403 || se.code() == 409))) {
        throw e;
      }
    }
  }

  private JsonNode data() {
    return JsonNodeFactory.instance.objectNode().put("ca.crt", caPem);
  }

  @Override
  public void close() {
    queue.close();
  }
}
