package io.listwatch.apiserver.apiextensions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Reasons;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.api.clock.Clock;
import io.listwatch.api.meta.Conditions;
import io.listwatch.api.meta.ObjectMetaRules;
import io.listwatch.apiserver.controller.ControllerQueue;
import io.listwatch.apiserver.cacher.CacheListener;
import io.listwatch.apiserver.cacher.CachedObject;
import io.listwatch.apiserver.cacher.WatchCacheEvent;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.rest.ResourceStore;
import io.listwatch.apiserver.rest.WriteAdmission;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Serves the custom resources CustomResourceDefinitions declare, as kube's apiextensions
 * controllers (naming, establishing, finalizer) and its CRD handler do together:
 *
 * <ul>
 *   <li><b>Names</b>: {@link NamingConditions} decides the accepted names and the
 *       {@code NamesAccepted} condition; a definition whose names were never accepted is not
 *       served ({@code Established} False, {@code NotAccepted}). A change of one definition's
 *       accepted names brings a new look at the others of its group, so a conflict that goes
 *       away is resolved.
 *   <li><b>Versions</b>: every version with {@code served: true} is served, each as its own
 *       resource over the same storage (objects are kept in the storage version, see
 *       {@code CustomResourceConversion}); {@code status.storedVersions} accumulates the
 *       storage versions. Any change of the spec or accepted names serves the new definition.
 *   <li><b>Deletion</b>: a definition marked for deletion stays served but refuses creates
 *       (405, as kube), {@link CustomResourceCleanup} deletes its objects and removes its
 *       finalizer; once it is gone, its versions are no longer served.
 * </ul>
 *
 * <p>Thread-safe: listeners only queue definition names, the work runs on the
 * {@code crd-controller} thread; {@link #terminating} is read by request threads.
 */
public final class CustomResourceDefinitionController implements AutoCloseable {

  /** How the server starts and stops serving a resource (it owns the caches). */
  public interface Serving {
    /**
     * Serves {@code def} (replacing the definition served under the same group, version and
     * plural), checking its writes with {@code admission}; returns its store.
     */
    ResourceStore serve(ResourceDefinition def, WriteAdmission admission);

    void unserve(ResourceDefinition def);
  }

  private final ResourceStore definitions;
  private final Serving serving;
  private final io.listwatch.apiserver.webhook.WebhookClient webhooks;
  private final Clock clock;
  private final List<ResourceDefinition> builtins;
  private final CustomResourceCleanup cleanup;
  /** What each definition is served as now, by the definition's name; written by the worker. */
  private final Map<String, Served> served = new ConcurrentHashMap<>();
  /** Names of the definitions being deleted: their resources refuse creates. */
  private final Set<String> terminating = ConcurrentHashMap.newKeySet();
  private final ControllerQueue queue;

  /**
   * @param group the definition's group
   * @param signature the spec (with the accepted names) the versions were built from
   * @param versions the served versions' resources, by version name
   * @param instances the store whose objects are the definition's (its storage version's when served)
   */
  private record Served(String group, String signature, Map<String, ResourceDefinition> versions,
      ResourceStore instances) {
  }

  /**
   * @param definitions the store of CustomResourceDefinitions
   * @param builtins the built-in resources, whose names a definition of their group may not take
   * @param webhooks what calls the conversion webhooks of definitions with strategy {@code Webhook}
   */
  public CustomResourceDefinitionController(ResourceStore definitions, Serving serving, Clock clock,
      List<ResourceDefinition> builtins, io.listwatch.apiserver.webhook.WebhookClient webhooks) {
    this.webhooks = webhooks;
    this.definitions = definitions;
    this.serving = serving;
    this.clock = clock;
    this.builtins = List.copyOf(builtins);
    this.cleanup = new CustomResourceCleanup(definitions, clock);
    // every server serves every definition: no election gates this queue
    this.queue = new ControllerQueue("crd-controller", this::sync, ControllerQueue.Gate.ALWAYS, clock);
  }

  /** Registers the cache listener and starts the worker. */
  public void start() {
    queue.start();
    definitions.cacher().addListener(new CacheListener() {
      @Override
      public void onReplace(List<CachedObject> objects, long resourceVersion) {
        objects.forEach(o -> queue.add(o.name()));
      }

      @Override
      public void onEvent(WatchCacheEvent event) {
        queue.add(event.object().name());
      }
    });
  }

  private void sync(String name) {
    Optional<ObjectNode> found = definitions.getInternal("", name).join();
    if (found.isEmpty()) {
      terminating.remove(name);
      Served gone = served.remove(name);
      if (gone != null) {
        gone.versions().values().forEach(serving::unserve);
        requeueGroup(gone.group(), name);
      }
      return;
    }
    ObjectNode crd = found.get();
    JsonNode spec = crd.path("spec");
    String group = spec.path("group").asText();
    String storageVersion = storageVersion(spec);
    if (storageVersion == null) {
      return; // validation refuses such a definition
    }
    List<ObjectNode> others = definitions.listInternal("").join().stream()
        .filter(o -> o.path("spec").path("group").asText().equals(group)
            && !o.path("metadata").path("name").asText().equals(name))
        .toList();
    NamingConditions.Result naming = NamingConditions.calculate(crd, others,
        builtins.stream().filter(b -> b.group().equals(group)).toList());
    boolean serve = naming.accepted() || isTrue(crd, "Established");
    if (ObjectMetaRules.isMarkedForDeletion(crd)) {
      terminating.add(name);
    } else {
      terminating.remove(name);
    }
    if (serve) {
      serveVersions(name, spec, naming.acceptedNames(), storageVersion);
    } else {
      Served was = served.remove(name);
      if (was != null) {
        was.versions().values().forEach(serving::unserve);
      }
    }
    writeStatus(name, naming, serve, storageVersion);
    if (!crd.path("status").path("acceptedNames").equals(naming.acceptedNames())) {
      requeueGroup(group, name);
    }
    if (ObjectMetaRules.isMarkedForDeletion(crd) && CustomResourceCleanup.hasFinalizer(crd)) {
      Served now = served.get(name);
      cleanup.cleanUp(crd, now == null ? null : now.instances());
    }
  }

  private static String storageVersion(JsonNode spec) {
    for (JsonNode v : spec.path("versions")) {
      if (v.path("storage").asBoolean(false)) {
        return v.path("name").asText();
      }
    }
    return null;
  }

  /** Serves every served version of the spec under the accepted names, unless it already is. */
  private void serveVersions(String name, JsonNode spec, ObjectNode acceptedNames, String storageVersion) {
    ObjectNode servedSpec = spec.deepCopy();
    servedSpec.set("names", acceptedNames);
    String signature = servedSpec.toString();
    Served now = served.get(name);
    if (now != null && now.signature().equals(signature)) {
      return;
    }
    if (now != null) {
      now.versions().values().forEach(serving::unserve);
    }
    Map<String, ResourceDefinition> versions = new LinkedHashMap<>();
    ResourceStore instances = null;
    // one converter for all the versions (its webhook's HTTP client is shared)
    io.listwatch.apiserver.registry.CustomResourceConverter converter =
        servedSpec.path("conversion").path("strategy").asText().equals("Webhook")
            ? new WebhookConverter(webhooks, servedSpec.path("conversion"))
            : io.listwatch.apiserver.registry.CustomResourceConverter.NONE;
    for (JsonNode v : servedSpec.path("versions")) {
      if (!v.path("served").asBoolean(false)) {
        continue;
      }
      ResourceDefinition def = CustomResources.definition(servedSpec, v, converter);
      ResourceStore store = serving.serve(def, refuseCreatesWhileTerminating(name, def));
      versions.put(def.version(), def);
      if (instances == null || def.version().equals(storageVersion)) {
        instances = store;
      }
    }
    if (instances != null) {
      // while the definition is being deleted, each deleted object brings a new look
      instances.cacher().addListener(new CacheListener() {
        @Override
        public void onReplace(List<CachedObject> objects, long resourceVersion) {
        }

        @Override
        public void onEvent(WatchCacheEvent event) {
          if (event.type() == WatchCacheEvent.Type.DELETED && terminating.contains(name)) {
            queue.add(name);
          }
        }
      });
    }
    served.put(name, new Served(spec.path("group").asText(), signature, versions, instances));
  }

  /** kube's CRD handler: no creates while the definition is terminating (405 MethodNotAllowed). */
  private WriteAdmission refuseCreatesWhileTerminating(String name, ResourceDefinition def) {
    return (user, namespace, object, old) -> {
      if (old == null && terminating.contains(name)) {
        throw new StatusException(Status.failure(405, Reasons.METHOD_NOT_ALLOWED,
            "create not allowed while custom resource definition is terminating",
            Status.Details.of(null, def.group(), def.plural())));
      }
    };
  }

  private void requeueGroup(String group, String except) {
    for (ObjectNode o : definitions.listInternal("").join()) {
      String other = o.path("metadata").path("name").asText();
      if (o.path("spec").path("group").asText().equals(group) && !other.equals(except)) {
        queue.add(other);
      }
    }
  }

  /** Sets the accepted names, stored versions and the two conditions, unless they are already so. */
  private void writeStatus(String name, NamingConditions.Result naming, boolean served, String storageVersion) {
    definitions.updateStatusInternal("", name, crd -> {
      ObjectNode status = crd.get("status") instanceof ObjectNode s ? s : crd.putObject("status");
      status.set("acceptedNames", naming.acceptedNames());
      ArrayNode stored = status.get("storedVersions") instanceof ArrayNode a ? a : status.putArray("storedVersions");
      boolean has = false;
      for (JsonNode v : stored) {
        has |= v.asText().equals(storageVersion);
      }
      if (!has) {
        stored.add(storageVersion);
      }
      setCondition(crd, "NamesAccepted", naming.accepted() ? "True" : "False", naming.reason(), naming.message(), clock);
      if (served) {
        setCondition(crd, "Established", "True", "InitialNamesAccepted", "the initial names have been accepted", clock);
      } else {
        setCondition(crd, "Established", "False", "NotAccepted", "not all names are accepted", clock);
      }
      return crd;
    }).join();
  }

  private static boolean isTrue(ObjectNode crd, String type) {
    for (JsonNode c : crd.path("status").path("conditions")) {
      if (c.path("type").asText().equals(type)) {
        return c.path("status").asText().equals("True");
      }
    }
    return false;
  }

  /** kube's SetCRDCondition: sets a condition of {@code crd}'s status ({@link Conditions}). */
  static void setCondition(ObjectNode crd, String type, String status, String reason, String message, Clock clock) {
    Conditions.set(crd, type, status, reason, message, clock.now());
  }

  @Override
  public void close() {
    queue.close();
  }
}
