package io.listwatch.apiserver.controller;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.apiserver.cacher.CacheListener;
import io.listwatch.apiserver.cacher.WatchCacheEvent;
import io.listwatch.apiserver.rest.ResourceStore;
import java.util.concurrent.CompletionException;

/**
 * kube's service accounts controller: every active namespace has a ServiceAccount named
 * {@code default}; one created in a new namespace, and created again if it is deleted while its
 * namespace is active (a terminating namespace is left to empty). The core runs it (see
 * {@code GenericApiServer#start}), so every server and the fake client have it: the
 * {@code ServiceAccount} admission plug-in refuses pods whose account does not exist.
 *
 * <p>Thread-safe: listeners only queue namespace names; the work runs on the
 * {@code serviceaccounts-controller} thread.
 */
public final class ServiceAccountsController implements AutoCloseable {

  static final String DEFAULT = "default";

  private final ResourceStore namespaces;
  private final ResourceStore serviceAccounts;
  private final ControllerQueue queue;

  /** A controller that acts only while {@code gate} is open (the server leads its controllers). */
  public ServiceAccountsController(ResourceStore namespaces, ResourceStore serviceAccounts, ControllerQueue.Gate gate,
      Clock clock) {
    this.queue = new ControllerQueue("serviceaccounts-controller", this::sync, gate, clock);
    this.namespaces = namespaces;
    this.serviceAccounts = serviceAccounts;
  }

  /** Registers the cache listeners and starts the worker. */
  public void start() {
    queue.start();
    namespaces.cacher().addListener(CacheListener.of(objects -> objects.forEach(o -> queue.add(o.name())), event -> {
      if (event.type() == WatchCacheEvent.Type.ADDED) {
        queue.add(event.object().name());
      }
    }));
    serviceAccounts.cacher().addListener(CacheListener.ofChanges(event -> {
      if (event.type() == WatchCacheEvent.Type.DELETED && event.object().name().equals(DEFAULT)) {
        queue.add(event.object().namespace());
      }
    }));
  }

  private void sync(String namespace) {
    var ns = namespaces.getInternal("", namespace).join();
    if (ns.isEmpty() || !"Active".equals(ns.get().path("status").path("phase").asText("Active"))
        || ns.get().path("metadata").has("deletionTimestamp")) {
      return;
    }
    createDefault(serviceAccounts, namespace);
  }

  /**
   * Creates the {@code default} ServiceAccount of {@code namespace} unless it exists (also what
   * the core does for the namespaces it creates at start, before this controller runs).
   */
  public static void createDefault(ResourceStore serviceAccounts, String namespace) {
    if (serviceAccounts.getInternal(namespace, DEFAULT).join().isPresent()) {
      return;
    }
    ObjectNode account = JsonNodeFactory.instance.objectNode().put("apiVersion", "v1").put("kind", "ServiceAccount");
    account.putObject("metadata").put("name", DEFAULT);
    try {
      serviceAccounts.createInternal(namespace, account).join();
    } catch (CompletionException e) {
      // created meanwhile (409), or the namespace began terminating (403): nothing to do
      if (!(e.getCause() instanceof StatusException se && (se.code() == 409 || se.code() == 403))) {
        throw e;
      }
    }
  }

  @Override
  public void close() {
    queue.close();
  }
}
