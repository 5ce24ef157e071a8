package io.listwatch.client.cache;

import io.listwatch.api.ListOptions;
import io.listwatch.client.ObjectList;
import io.listwatch.client.ResourceClient;
import io.listwatch.client.WatchStream;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * A {@link ListerWatcher} over a {@link ResourceClient}: lists and watches one resource in one
 * namespace (or all), with the caller's changes to every request's options (client-go's
 * {@code ListWatch} from {@code NewFilteredListWatchFromClient}).
 *
 * <p>{@code tweakListOptions} sees the options the {@link Reflector} built (resourceVersion,
 * limit, continue, bookmarks, timeout) and typically adds a label or field selector; it
 * should leave the reflector's fields alone. It runs on the reflector's thread for every
 * request: it must be pure and fast. Watches are sent with {@code watch=true}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param <T> the object type
 */
public final class ListWatch<T> implements ListerWatcher<T> {

  private final ResourceClient<T> client;
  private final String namespace;
  private final UnaryOperator<ListOptions> tweakListOptions;

  private ListWatch(ResourceClient<T> client, String namespace,
      UnaryOperator<ListOptions> tweakListOptions) {
    this.client = Objects.requireNonNull(client, "client");
    this.namespace = namespace == null ? "" : namespace;
    this.tweakListOptions = Objects.requireNonNull(tweakListOptions, "tweakListOptions");
    if (!this.namespace.isEmpty() && !client.type().namespaced()) {
      throw new IllegalArgumentException(client.type() + " is cluster-scoped; namespace \""
          + this.namespace + "\" makes no sense");
    }
  }

  /**
   * Lists and watches {@code namespace} ({@code ""} or null: every namespace, and the only
   * choice for a cluster-scoped resource) with {@code tweakListOptions} applied to every
   * request.
   *
   * @throws IllegalArgumentException for a namespace on a cluster-scoped resource
   */
  public static <T> ListWatch<T> of(ResourceClient<T> client, String namespace,
      UnaryOperator<ListOptions> tweakListOptions) {
    return new ListWatch<>(client, namespace, tweakListOptions);
  }

  /** Lists and watches everything in {@code namespace} ({@code ""}: every namespace). */
  public static <T> ListWatch<T> of(ResourceClient<T> client, String namespace) {
    return new ListWatch<>(client, namespace, UnaryOperator.identity());
  }

  @Override
  public ObjectList<T> list(ListOptions options) {
    return client.list(namespace, tweak(options));
  }

  @Override
  public WatchStream<T> watch(ListOptions options) {
    return client.watch(namespace, tweak(options.toBuilder().watch(true).build()));
  }

  private ListOptions tweak(ListOptions options) {
    return Objects.requireNonNull(tweakListOptions.apply(options),
        "tweakListOptions returned null");
  }

  /** The namespace listed and watched, {@code ""} for all. */
  public String namespace() {
    return namespace;
  }

  @Override
  public String toString() {
    return "ListWatch[" + client.type() + (namespace.isEmpty() ? "" : " in " + namespace) + "]";
  }
}
