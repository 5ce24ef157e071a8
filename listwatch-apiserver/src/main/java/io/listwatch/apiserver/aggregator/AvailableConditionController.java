package io.listwatch.apiserver.aggregator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Strconv;
import io.listwatch.api.clock.Clock;
import io.listwatch.api.meta.Conditions;
import io.listwatch.apiserver.admission.Listers;
import io.listwatch.apiserver.cacher.CacheListener;
import io.listwatch.apiserver.cacher.Cacher;
import io.listwatch.apiserver.controller.ControllerQueue;
import io.listwatch.apiserver.rest.ResourceStore;
import io.listwatch.apiserver.webhook.ServiceResolver;
import io.listwatch.apiserver.webhook.TlsClients;
import io.listwatch.apiserver.webhook.WebhookCallException;
import io.listwatch.apiserver.webhook.WebhookClientConfig;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Available condition of APIServices served by other servers (kube-aggregator's
 * AvailableConditionController, kube 1.32, reading Endpoints): for each APIService with a
 * {@code spec.service}, in kube's order, {@code ServiceNotFound} (no such Service), for a
 * ClusterIP Service {@code ServicePortError} (no port of {@code spec.service.port}),
 * {@code EndpointsNotFound} and {@code MissingEndpoints} (no Endpoints, or no address with the
 * port's name), then {@code FailedDiscoveryCheck} unless a GET of {@code /apis/<group>/<version>}
 * at a resolved endpoint answers 2xx within five seconds (as {@code system:kube-aggregator} in
 * {@code system:masters}, the certificate not checked, as kube does), else {@code Passed}. The
 * status is written only when it changes; the condition's {@code lastTransitionTime} moves when
 * its status does. The APIResourceList that check returns is kept for discovery
 * ({@link #remote()}).
 *
 * <p>An APIService is checked when it changes, when any Service or Endpoints changes, and every
 * 30 seconds of the injected clock. Checks run on the queue's thread
 * ({@code apiservice-availability}); the caches only queue. Thread-safe; {@link #start} once,
 * {@link #close} idempotent.
 */
public final class AvailableConditionController implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(AvailableConditionController.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  /** kube's resync of the APIServices' informer. */
  static final Duration RESYNC = Duration.ofSeconds(30);
  /** kube's discovery check timeout. */
  private static final Duration CHECK_TIMEOUT = Duration.ofSeconds(5);
  private static final String ALL = "*";

  private final ResourceStore apiServices;
  private final List<Cacher> watched;
  private final Listers listers;
  private final ServiceResolver resolver;
  private final TlsClients clients;
  private final Clock clock;
  private final ControllerQueue queue;
  /** The remote APIServices as last checked, by name. */
  private final Map<String, RemoteAPIService> remote = new ConcurrentHashMap<>();
  private volatile Clock.Cancellable resync;
  private volatile boolean closed;

  /**
   * @param services the Services' cache and {@code endpoints} the Endpoints' (a change of either re-checks)
   */
  public AvailableConditionController(ResourceStore apiServices, Cacher services, Cacher endpoints, Listers listers,
      TlsClients clients, ControllerQueue.Gate gate, Clock clock) {
    this.apiServices = apiServices;
    this.watched = List.of(apiServices.cacher(), services, endpoints);
    this.listers = listers;
    this.resolver = new ServiceResolver(listers);
    this.clients = clients;
    this.clock = clock;
    this.queue = new ControllerQueue("apiservice-availability", this::process, gate, clock);
  }

  /** The remote APIServices as last checked, by name; a live view. */
  Map<String, RemoteAPIService> remote() {
    return java.util.Collections.unmodifiableMap(remote);
  }

  /** Starts checking: at once, on every change, and every 30 seconds. */
  public void start() {
    queue.start();
    for (Cacher c : watched) {
      c.addListener(CacheListener.of(all -> queue.add(ALL), change -> queue.add(ALL)));
    }
    scheduleResync();
  }

  private void scheduleResync() {
    if (!closed) {
      resync = clock.schedule(RESYNC, () -> {
        queue.add(ALL);
        scheduleResync();
      });
    }
  }

  private void process(String key) {
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (ObjectNode apiService : listers.list("apiregistration.k8s.io", "apiservices", "")) {
      String name = apiService.path("metadata").path("name").asText();
      seen.add(name);
      if (!isLocal(apiService)) {
        check(name, apiService);
      } else {
        remote.remove(name);
      }
    }
    remote.keySet().retainAll(seen);
  }

  /** Whether this server serves the APIService itself: it names no service. */
  static boolean isLocal(JsonNode apiService) {
    JsonNode service = apiService.path("spec").path("service");
    return service.isMissingNode() || service.isNull();
  }

  /** A condition's status, reason and message. */
  record Condition(String status, String reason, String message) {
  }

  private void check(String name, ObjectNode apiService) {
    JsonNode spec = apiService.path("spec");
    JsonNode svc = spec.path("service");
    WebhookClientConfig.ServiceReference ref = new WebhookClientConfig.ServiceReference(
        svc.path("namespace").asText(""), svc.path("name").asText(""), "", svc.path("port").asInt(443));
    String group = spec.path("group").asText("");
    String version = spec.path("version").asText("");
    RemoteAPIService before = remote.get(name);
    List<Map<String, Object>> resources = before == null ? null : before.resources();
    Condition condition = serviceCondition(ref);
    if (condition == null) {
      String path = name.equals("v1.") ? "/api/" + version : "/apis/" + group + "/" + version;
      DiscoveryCheck result = discoveryCheck(ref, path);
      condition = result.condition();
      if (result.resources() != null) {
        resources = result.resources();
      }
    }
    String ca = spec.path("caBundle").asText("");
    remote.put(name, new RemoteAPIService(name, group, version, spec.path("groupPriorityMinimum").asInt(),
        spec.path("versionPriority").asInt(), ref, ca.isEmpty() ? new byte[0] : Base64.getDecoder().decode(ca),
        spec.path("insecureSkipTLSVerify").asBoolean(false), condition.status().equals("True"), resources));
    writeStatus(name, apiService, condition);
  }

  /** The Service and Endpoints checks; null when they pass. */
  private Condition serviceCondition(WebhookClientConfig.ServiceReference ref) {
    String where = "service/" + ref.name() + " in " + Strconv.quote(ref.namespace());
    var service = listers.get("", "services", ref.namespace(), ref.name());
    if (service.isEmpty()) {
      return new Condition("False", "ServiceNotFound", where + " is not present");
    }
    JsonNode spec = service.get().path("spec");
    if (!spec.path("type").asText("ClusterIP").equals("ClusterIP")) {
      return null;
    }
    String portName = null;
    for (JsonNode port : spec.path("ports")) {
      if (port.path("port").asInt() == ref.port()) {
        portName = port.path("name").asText("");
        break;
      }
    }
    if (portName == null) {
      return new Condition("False", "ServicePortError", where + " is not listening on port " + ref.port());
    }
    var endpoints = listers.get("", "endpoints", ref.namespace(), ref.name());
    if (endpoints.isEmpty()) {
      return new Condition("False", "EndpointsNotFound", "cannot find endpoints for " + where);
    }
    for (JsonNode subset : endpoints.get().path("subsets")) {
      for (JsonNode port : subset.path("ports")) {
        if (port.path("name").asText("").equals(portName) && !subset.path("addresses").isEmpty()) {
          return null;
        }
      }
    }
    return new Condition("False", "MissingEndpoints",
        "endpoints for " + where + " have no addresses with port name " + Strconv.quote(portName));
  }

  private record DiscoveryCheck(Condition condition, List<Map<String, Object>> resources) {
  }

  /** kube's discovery check: a GET of the group-version's path at an endpoint. */
  private DiscoveryCheck discoveryCheck(WebhookClientConfig.ServiceReference ref, String path) {
    URI url;
    try {
      url = resolver.resolve(ref).resolve(path);
    } catch (WebhookCallException e) {
      return new DiscoveryCheck(new Condition("False", "FailedDiscoveryCheck", e.getMessage()), null);
    }
    String failing = "failing or missing response from " + url + ": ";
    try {
      HttpClient client = clients.client(new byte[0], "", true, CHECK_TIMEOUT);
      HttpRequest request = HttpRequest.newBuilder(url).timeout(CHECK_TIMEOUT).GET()
          .header("Accept", "application/json")
          .header("X-Remote-User", "system:kube-aggregator").header("X-Remote-Group", "system:masters").build();
      HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
      if (response.statusCode() < 200 || response.statusCode() >= 300) {
        return new DiscoveryCheck(new Condition("False", "FailedDiscoveryCheck",
            "bad status from " + url + ": " + response.statusCode()), null);
      }
      return new DiscoveryCheck(new Condition("True", "Passed", "all checks passed"), resources(response.body()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new DiscoveryCheck(new Condition("False", "FailedDiscoveryCheck", failing + "interrupted"), null);
    } catch (java.io.IOException | java.security.GeneralSecurityException e) {
      String cause = e instanceof HttpTimeoutException ? "context deadline exceeded (Client.Timeout exceeded while awaiting headers)"
          : e instanceof ConnectException ? "dial tcp " + url.getHost() + ":" + url.getPort() + ": connect: connection refused"
          : String.valueOf(e.getMessage());
      return new DiscoveryCheck(new Condition("False", "FailedDiscoveryCheck",
          failing + "Get " + Strconv.quote(url.toString()) + ": " + cause), null);
    }
  }

  /** The {@code resources} of an APIResourceList, or null when the body is not one. */
  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> resources(byte[] body) {
    try {
      Map<String, Object> list = JSON.readValue(body, Map.class);
      return list.get("resources") instanceof List<?> r ? (List<Map<String, Object>>) r : null;
    } catch (java.io.IOException | RuntimeException notJson) {
      return null;
    }
  }

  /** Writes the Available condition when it differs from the stored one. */
  private void writeStatus(String name, ObjectNode stored, Condition condition) {
    if (condition.equals(current(stored))) {
      return;
    }
    apiServices.updateStatusInternal("", name, obj -> {
      Conditions.set(obj, "Available", condition.status(), condition.reason(), condition.message(), clock.now());
      return obj;
    }).exceptionally(e -> {
      LOG.info("AvailableConditionController: status of APIService {} not written: {}", name, e.toString());
      return null;
    });
  }

  private static Condition current(JsonNode apiService) {
    for (JsonNode c : apiService.path("status").path("conditions")) {
      if (c.path("type").asText("").equals("Available")) {
        return new Condition(c.path("status").asText(""), c.path("reason").asText(""), c.path("message").asText(""));
      }
    }
    return null;
  }

  @Override
  public void close() {
    closed = true;
    Clock.Cancellable r = resync;
    if (r != null) {
      r.cancel();
    }
    queue.close();
  }
}
