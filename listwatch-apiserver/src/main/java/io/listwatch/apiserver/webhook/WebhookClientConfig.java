package io.listwatch.apiserver.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * Where a webhook is and whom to trust (kube's {@code WebhookClientConfig}, shared by admission
 * and conversion webhooks; an APIService's {@code service} and {@code caBundle} read the same):
 * exactly one of a {@code url} and a {@code service}, and an optional PEM {@code caBundle}
 * (empty: the JDK's trusted roots).
 *
 * @param url the webhook's {@code https} URL, or null when a service is given
 * @param service the Service in front of the webhook, or null when a URL is given
 * @param caBundle the PEM certificates the webhook's serving certificate must chain to; empty for
 *     the JDK's default roots
 */
public record WebhookClientConfig(String url, ServiceReference service, byte[] caBundle) {

  /**
   * A Service a webhook is reached through.
   *
   * @param namespace the Service's namespace
   * @param name the Service's name
   * @param path the path to post to ("" for "/")
   * @param port the Service's port (kube's default 443)
   */
  public record ServiceReference(String namespace, String name, String path, int port) {

    /** The name the webhook's certificate must carry: {@code <name>.<namespace>.svc}, as kube checks. */
    public String serverName() {
      return name + "." + namespace + ".svc";
    }
  }

  /**
   * Reads a validated {@code clientConfig} (its {@code caBundle} base64 as in JSON; a service's
   * {@code port} defaulted to 443).
   *
   * @throws IllegalArgumentException when it names neither a URL nor a service, or its
   *     caBundle is not base64
   */
  public static WebhookClientConfig parse(JsonNode clientConfig) {
    String url = clientConfig.path("url").asText("");
    JsonNode service = clientConfig.path("service");
    byte[] ca = Base64.getDecoder().decode(clientConfig.path("caBundle").asText(""));
    if (!url.isEmpty()) {
      return new WebhookClientConfig(url, null, ca);
    }
    if (!service.isObject()) {
      throw new IllegalArgumentException("clientConfig has neither url nor service");
    }
    return new WebhookClientConfig(null, new ServiceReference(service.path("namespace").asText(""),
        service.path("name").asText(""), service.path("path").asText(""), service.path("port").asInt(443)), ca);
  }

  /** The service, when the webhook is reached through one. */
  public Optional<ServiceReference> serviceReference() {
    return Optional.ofNullable(service);
  }

  /**
   * How kube names the webhook's location in errors: the URL, or
   * {@code https://<name>.<namespace>.svc:<port><path>} for a service.
   */
  public String location() {
    if (url != null) {
      return url;
    }
    String path = service.path().isEmpty() ? "" : service.path().startsWith("/") ? service.path() : "/" + service.path();
    return "https://" + service.serverName() + ":" + service.port() + path;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof WebhookClientConfig c && java.util.Objects.equals(url, c.url)
        && java.util.Objects.equals(service, c.service) && java.util.Arrays.equals(caBundle, c.caBundle);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(url, service, java.util.Arrays.hashCode(caBundle));
  }

  @Override
  public String toString() {
    return "WebhookClientConfig[" + location() + ", caBundle " + new String(caBundle, StandardCharsets.US_ASCII).length()
        + " bytes]";
  }
}
