package io.listwatch.apiserver.request;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.cacher.CacheWatcher;
import io.listwatch.apiserver.cacher.WatchSink;
import io.listwatch.apiserver.registry.ResourceDefinition;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The answer to a watch request, the body of its {@link ApiResponse}: the routes answer a watch
 * as they answer every other verb, and a valid request and options give this, so the transport
 * writes a successful response head and then {@linkplain #begin begins} the watch on a sink. What can only be found once it starts (a resourceVersion older than the
 * history) is then written as kube does, as one ERROR event ending the stream. Every transport
 * (HTTP/1.1, HTTP/2, WebSocket, the fake client in memory) starts its watches this way.
 *
 * <p>Immutable; {@link #begin} is called once.
 *
 * @param resource the resource watched (a transport prints its events as Table rows when asked to)
 * @param watch starts the watch on a sink: the resource handler's watch with the request's
 *     checked options
 */
public record WatchStart(ResourceDefinition resource, Function<WatchSink, CompletableFuture<CacheWatcher>> watch)
    implements ApiResponse.Body {

  private static final Logger LOG = LoggerFactory.getLogger(WatchStart.class);

  /**
   * Starts the watch, writing to {@code sink}. Completes on the sink's executor: with the
   * running watcher, which the transport then {@linkplain CacheWatcher#drain() drains} (or tells
   * that its connection is gone); or empty, after the refusal was written to the sink as an
   * ERROR event carrying its Status and the sink was ended.
   */
  public CompletableFuture<Optional<CacheWatcher>> begin(WatchSink sink) {
    CompletableFuture<CacheWatcher> started;
    try {
      started = watch.apply(sink);
    } catch (RuntimeException e) {
      started = CompletableFuture.failedFuture(e);
    }
    CompletableFuture<Optional<CacheWatcher>> begun = new CompletableFuture<>();
    started.whenComplete((watcher, e) -> sink.executor().execute(() -> {
      if (e == null) {
        begun.complete(Optional.of(watcher));
        return;
      }
      Throwable cause = e;
      while (cause instanceof CompletionException && cause.getCause() != null) {
        cause = cause.getCause();
      }
      StatusException status = cause instanceof StatusException se ? se
          : StatusException.internal(String.valueOf(cause.getMessage()));
      if (!(cause instanceof StatusException)) {
        LOG.error("watch of {} failed", resource.plural(), cause);
      }
      sink.write(new byte[][] {sink.encoding().error(ApiResponse.json(status.status()))});
      sink.end();
      begun.complete(Optional.empty());
    }));
    return begun;
  }
}
