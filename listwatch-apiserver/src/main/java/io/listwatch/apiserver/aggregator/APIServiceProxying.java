package io.listwatch.apiserver.aggregator;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.request.ApiRequest;
import io.listwatch.apiserver.rest.AggregatedApis;
import io.listwatch.apiserver.webhook.ServiceResolver;
import io.listwatch.apiserver.webhook.WebhookCallException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which requests go to another server (kube-aggregator's proxy handler): a request under
 * {@code /apis/<group>/<version>} whose APIService names a Service goes to an endpoint of that
 * Service ({@link ServiceResolver}: the Service's port {@code spec.service.port}, an Endpoints
 * address with that port's name) at the same path and query, trusting the APIService's
 * {@code caBundle} for the name {@code <service>.<namespace>.svc}, or nothing with
 * {@code insecureSkipTLSVerify}; while the APIService is not Available, or its Service has no
 * endpoint, it is answered 503 {@code service unavailable}. {@code /openapi/v3/apis/<group>/<version>},
 * the group-version's OpenAPI document, goes to its server likewise (kube's aggregator fetches
 * the document and serves it itself). Every other request is this server's. Discovery lists
 * the remote group-versions by group priority (highest first, then by name) and, inside a
 * group, by version priority.
 *
 * <p>Reads what the {@link AvailableConditionController} last saw, so a new APIService is
 * proxied once it has been checked. Thread-safe.
 */
public final class APIServiceProxying implements AggregatedApis {

  private static final String OPENAPI_V3_APIS = "/openapi/v3/apis/";

  private final AvailableConditionController availability;
  private final ServiceResolver resolver;

  public APIServiceProxying(AvailableConditionController availability, io.listwatch.apiserver.admission.Listers listers) {
    this.availability = availability;
    this.resolver = new ServiceResolver(listers);
  }

  @Override
  public Optional<ProxyTarget> route(ApiRequest request) {
    String path = request.path();
    // a group-version's OpenAPI v3 document is its server's own
    String underApis = path.startsWith("/apis/") ? path.substring("/apis/".length())
        : path.startsWith(OPENAPI_V3_APIS) ? path.substring(OPENAPI_V3_APIS.length()) : null;
    if (underApis == null) {
      return Optional.empty();
    }
    String[] parts = underApis.split("/", 3);
    if (parts.length < 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
      return Optional.empty();
    }
    RemoteAPIService remote = availability.remote().get(parts[1] + "." + parts[0]);
    if (remote == null) {
      return Optional.empty();
    }
    if (!remote.available()) {
      throw StatusException.unavailable("service unavailable");
    }
    URI endpoint;
    try {
      endpoint = resolver.resolve(remote.service());
    } catch (WebhookCallException e) {
      throw StatusException.unavailable("service unavailable");
    }
    String query = query(request.query());
    URI target = URI.create(endpoint.getScheme() + "://" + endpoint.getRawAuthority()
        + encodePath(path) + (query.isEmpty() ? "" : "?" + query));
    return Optional.of(new ProxyTarget(target, remote.service().serverName(), remote.caBundle(),
        remote.insecureSkipTlsVerify()));
  }

  @Override
  public List<RemoteGroupVersion> groupVersions() {
    List<RemoteAPIService> all = new ArrayList<>(availability.remote().values());
    Map<String, Integer> groupPriority = new java.util.HashMap<>();
    all.forEach(r -> groupPriority.merge(r.group(), r.groupPriority(), Math::max));
    all.sort(Comparator.<RemoteAPIService>comparingInt(r -> -groupPriority.get(r.group()))
        .thenComparing(RemoteAPIService::group)
        .thenComparingInt(r -> -r.versionPriority())
        .thenComparing(RemoteAPIService::version, io.listwatch.api.meta.VersionPriority.HIGHEST_FIRST));
    return all.stream().map(r -> new RemoteGroupVersion(r.group(), r.version(), r.resources(), r.available())).toList();
  }

  private static String encodePath(String path) {
    return String.join("/", java.util.Arrays.stream(path.split("/", -1))
        .map(segment -> URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20")).toList());
  }

  private static String query(Map<String, List<String>> query) {
    StringBuilder b = new StringBuilder();
    query.forEach((k, values) -> values.forEach(v -> {
      if (!b.isEmpty()) {
        b.append('&');
      }
      b.append(URLEncoder.encode(k, StandardCharsets.UTF_8)).append('=').append(URLEncoder.encode(v, StandardCharsets.UTF_8));
    }));
    return b.toString();
  }
}
