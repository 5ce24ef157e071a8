package io.listwatch.apiserver.rest;

import io.listwatch.apiserver.request.ApiRequest;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The group-versions other servers serve behind this one (kube's aggregator: APIServices with a
 * {@code spec.service}), as the routes need them: where a request is proxied to, and what
 * discovery lists of them. Implemented by {@code aggregator.APIServiceProxying}; the routes work
 * without one ({@link #NONE}). Implementations are thread-safe.
 */
public interface AggregatedApis {

  /** No aggregated API. */
  AggregatedApis NONE = new AggregatedApis() {
    @Override
    public Optional<ProxyTarget> route(ApiRequest request) {
      return Optional.empty();
    }

    @Override
    public List<RemoteGroupVersion> groupVersions() {
      return List.of();
    }
  };

  /**
   * Where {@code request} is proxied to, or empty when this server answers it itself. Called
   * after the request is authenticated and authorized.
   *
   * @throws io.listwatch.api.StatusException 503 {@code service unavailable} when the APIService
   *     that serves the request's group-version is not available or its Service has no endpoint
   */
  Optional<ProxyTarget> route(ApiRequest request);

  /** The aggregated group-versions, highest group priority first, for discovery. */
  List<RemoteGroupVersion> groupVersions();

  /**
   * A remote server to send a request to.
   *
   * @param uri the URI to request (the endpoint's scheme, address and port, the request's path and query)
   * @param serverName the name the remote's certificate must carry ({@code <service>.<namespace>.svc})
   * @param caBundle the PEM CA bundle to trust (empty: the JDK's roots)
   * @param insecureSkipTlsVerify whether the remote's certificate is not checked at all
   */
  record ProxyTarget(URI uri, String serverName, byte[] caBundle, boolean insecureSkipTlsVerify) {
  }

  /**
   * An aggregated group-version as discovery lists it.
   *
   * @param group the API group
   * @param version the version
   * @param resources the remote's APIResourceList {@code resources} (JSON maps), or null when
   *     it has not answered yet
   * @param available whether its APIService is Available now (else its resources are stale)
   */
  record RemoteGroupVersion(String group, String version, List<Map<String, Object>> resources, boolean available) {
  }
}
