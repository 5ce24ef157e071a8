package io.listwatch.apiserver.webhook;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import javax.net.ssl.SSLException;

/**
 * Posts JSON to webhooks over HTTPS, as kube-apiserver's webhook client does: to the URL, or to
 * an address of the Service ({@link ServiceResolver}); the webhook's certificate must chain to
 * the config's {@code caBundle} (or the JDK's roots when it has none) and name the host called
 * (for a Service, {@code <name>.<namespace>.svc}, whatever address it resolved to). Each call
 * carries kube's {@code ?timeout=<n>s} and is abandoned after that long. Nothing is retried.
 *
 * <p>One HTTP client is kept per CA bundle and name, so connections are reused between calls.
 * Thread-safe.
 */
public final class WebhookClient {

  private final ServiceResolver resolver;
  private final TlsClients clients = new TlsClients();

  public WebhookClient(ServiceResolver resolver) {
    this.resolver = resolver;
  }

  /** What a webhook answered. */
  public record Response(int status, byte[] body) {
  }

  /**
   * Posts {@code json} to the webhook {@code config} names, giving up after {@code timeout}.
   * Completes with any HTTP answer (the caller judges its status); fails with a
   * {@link WebhookCallException} when the webhook cannot be resolved or reached, its certificate
   * is not trusted, or it does not answer in time.
   */
  public CompletableFuture<Response> post(WebhookClientConfig config, byte[] json, Duration timeout) {
    URI target;
    String serverName;
    try {
      if (config.url() != null) {
        target = URI.create(config.url());
        serverName = target.getHost();
      } else {
        WebhookClientConfig.ServiceReference service = config.service();
        URI base = resolver.resolve(service);
        String path = service.path().isEmpty() ? "/" : service.path().startsWith("/") ? service.path() : "/" + service.path();
        target = base.resolve(path);
        serverName = service.serverName();
      }
    } catch (WebhookCallException | IllegalArgumentException e) {
      return CompletableFuture.failedFuture(e instanceof WebhookCallException ? e : new WebhookCallException(e.getMessage()));
    }
    long seconds = Math.max(1, timeout.toSeconds());
    URI withTimeout = URI.create(target + (target.getRawQuery() == null ? "?" : "&") + "timeout=" + seconds + "s");
    String shown = config.location() + (config.location().contains("?") ? "&" : "?") + "timeout=" + seconds + "s";
    HttpClient client;
    try {
      client = client(config.caBundle(), serverName, timeout);
    } catch (GeneralSecurityException | IOException e) {
      return CompletableFuture.failedFuture(new WebhookCallException("Post \"" + shown + "\": " + e.getMessage()));
    }
    HttpRequest request = HttpRequest.newBuilder(withTimeout).timeout(timeout)
        .header("Content-Type", "application/json").header("Accept", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(json)).build();
    return client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
        .handle((r, e) -> {
          if (e == null) {
            return new Response(r.statusCode(), r.body());
          }
          Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
          throw new WebhookCallException("Post \"" + shown + "\": " + describe(cause), cause,
              cause instanceof HttpTimeoutException);
        });
  }

  /** The cause as Go's HTTP client would phrase it, where there is a counterpart. */
  private static String describe(Throwable cause) {
    if (cause instanceof HttpTimeoutException) {
      return "context deadline exceeded";
    }
    if (cause instanceof ConnectException) {
      return "dial tcp: connect: connection refused";
    }
    if (cause instanceof SSLException) {
      return "tls: failed to verify certificate: " + cause.getMessage();
    }
    return String.valueOf(cause.getMessage());
  }

  private HttpClient client(byte[] caBundle, String serverName, Duration timeout)
      throws GeneralSecurityException, IOException {
    return clients.client(caBundle, serverName, false, timeout);
  }
}
