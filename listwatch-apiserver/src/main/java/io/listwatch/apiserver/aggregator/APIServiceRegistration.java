package io.listwatch.apiserver.aggregator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.apiserver.cacher.CacheListener;
import io.listwatch.apiserver.cacher.Cacher;
import io.listwatch.apiserver.controller.ControllerQueue;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.rest.DeleteOptions;
import io.listwatch.apiserver.rest.ResourceStore;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;

/**
 * The local APIServices, as kube-apiserver's autoregister and CRD registration controllers keep
 * them: at start, one per built-in group-version this server serves that kube has a priority for
 * ({@link APIServicePriorities}), labelled {@code kube-aggregator.kubernetes.io/automanaged:
 * onstart}; and, while running, one per served version of every CustomResourceDefinition whose
 * group-version is not built in (priorities 1000 and 100), labelled {@code automanaged: true},
 * deleted again when no definition serves it. Each is {@code v<version>.<group>} with no service,
 * so it is Available ({@code Local}) from its creation. An existing APIService of the same name
 * is left as it is.
 *
 * <p>Its work runs on its own queue's thread ({@code apiservice-registration}); the CRD cache
 * only queues. Thread-safe; {@link #start} once, {@link #close} idempotent.
 */
public final class APIServiceRegistration implements AutoCloseable {

  static final String AUTOMANAGED = "kube-aggregator.kubernetes.io/automanaged";
  private static final String CRDS = "customresourcedefinitions";

  private final ResourceStore apiServices;
  private final List<ResourceDefinition> builtins;
  private final Cacher crds;
  private final io.listwatch.apiserver.admission.Listers listers;
  private final ControllerQueue queue;

  /**
   * @param builtins the built-in resources served (their group-versions get local APIServices)
   * @param crds the CustomResourceDefinitions' cache, or null when they are not served
   * @param listers where the definitions are read
   */
  public APIServiceRegistration(ResourceStore apiServices, List<ResourceDefinition> builtins, Cacher crds,
      io.listwatch.apiserver.admission.Listers listers, ControllerQueue.Gate gate, Clock clock) {
    this.listers = listers;
    this.apiServices = apiServices;
    this.builtins = List.copyOf(builtins);
    this.crds = crds;
    this.queue = new ControllerQueue("apiservice-registration", key -> syncCustomResources(), gate, clock);
  }

  /** Creates the built-ins' APIServices (blocking), then follows the definitions. */
  public void start() {
    for (Map.Entry<String, APIServicePriorities.Priority> gv : builtinGroupVersions().entrySet()) {
      String[] parts = gv.getKey().split("/", 2);
      createIfAbsent(apiService(parts[0], parts[1], gv.getValue(), "onstart"));
    }
    queue.start();
    if (crds != null) {
      crds.addListener(CacheListener.of(all -> queue.add(CRDS), change -> queue.add(CRDS)));
    }
  }

  /** The built-in group-versions served with kube's priority, in the catalogue's order. */
  private Map<String, APIServicePriorities.Priority> builtinGroupVersions() {
    Map<String, APIServicePriorities.Priority> out = new LinkedHashMap<>();
    for (ResourceDefinition def : builtins) {
      if (def.customResource().isEmpty()) {
        APIServicePriorities.builtin(def.group(), def.version())
            .ifPresent(p -> out.putIfAbsent(def.group() + "/" + def.version(), p));
      }
    }
    return out;
  }

  /** Creates the custom resources' missing APIServices and deletes those no definition serves. */
  private void syncCustomResources() {
    Map<String, ObjectNode> wanted = new LinkedHashMap<>();
    Map<String, APIServicePriorities.Priority> builtin = builtinGroupVersions();
    for (ObjectNode crd : listers.list("apiextensions.k8s.io", CRDS, "")) {
      JsonNode spec = crd.path("spec");
      String group = spec.path("group").asText("");
      for (JsonNode v : spec.path("versions")) {
        String version = v.path("name").asText("");
        if (v.path("served").asBoolean(false) && !builtin.containsKey(group + "/" + version)) {
          wanted.putIfAbsent(version + "." + group,
              apiService(group, version, APIServicePriorities.CUSTOM_RESOURCES, "true"));
        }
      }
    }
    for (ObjectNode existing : apiServices.listInternal("").join()) {
      String name = existing.path("metadata").path("name").asText();
      boolean managed = existing.path("metadata").path("labels").path(AUTOMANAGED).asText("").equals("true");
      if (wanted.remove(name) == null && managed) {
        try {
          apiServices.deleteInternal("", name, DeleteOptions.DEFAULTS).join();
        } catch (CompletionException e) {
          if (!(e.getCause() instanceof StatusException se && se.code() == 404)) {
            throw e;
          }
        }
      }
    }
    wanted.values().forEach(this::createIfAbsent);
  }

  private static ObjectNode apiService(String group, String version, APIServicePriorities.Priority priority,
      String managed) {
    ObjectNode obj = JsonNodeFactory.instance.objectNode();
    obj.put("apiVersion", "apiregistration.k8s.io/v1").put("kind", "APIService");
    ObjectNode meta = obj.putObject("metadata");
    meta.put("name", version + "." + group);
    meta.putObject("labels").put(AUTOMANAGED, managed);
    obj.putObject("spec").put("group", group).put("version", version)
        .put("groupPriorityMinimum", priority.group()).put("versionPriority", priority.version());
    return obj;
  }

  private void createIfAbsent(ObjectNode obj) {
    try {
      apiServices.createInternal(obj).join();
    } catch (CompletionException e) {
      if (!(e.getCause() instanceof StatusException se && se.code() == 409)) {
        throw e;
      }
    }
  }

  @Override
  public void close() {
    queue.close();
  }
}
