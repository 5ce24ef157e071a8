package io.listwatch.client;

import io.listwatch.api.ListOptions;
import io.listwatch.api.patch.PatchType;
import java.util.Optional;

/**
 * The REST verbs on one resource, for objects of type {@code T}.
 *
 * <p>{@code namespace} arguments: for a namespaced resource, the namespace, or null (or
 * {@code ""}) for every namespace on list and watch; for a cluster-scoped resource, null or
 * {@code ""}. Every API error is thrown as a {@link io.listwatch.api.StatusException}
 * carrying the server's Status (404, 409, 410, 422, 429 ...); a connection failure as an
 * {@link java.io.UncheckedIOException}. Objects passed in are never mutated.
 *
 * <p>Thread-safe.
 *
 * @param <T> the object type
 */
public interface ResourceClient<T> {

  /** The resource this client works on. */
  ResourceType type();

  /** The codec of {@code T}. */
  ObjectCodec<T> codec();

  /** GET one object; empty on 404. */
  Optional<T> get(String namespace, String name);

  /**
   * One LIST request (one page when {@code options.limit()} is set). Items are decoded one
   * at a time from the response stream.
   */
  ObjectList<T> list(String namespace, ListOptions options);

  /**
   * Opens a watch ({@code watch=true} is implied). Returns once the server accepted it;
   * an error answer (e.g. 410 for a too-old resourceVersion on some servers, 429) throws.
   */
  WatchStream<T> watch(String namespace, ListOptions options);

  /** POST; returns the object as stored. */
  T create(T object);

  /** PUT; fails with 409 Conflict when {@code metadata.resourceVersion} is stale. */
  T update(T object);

  /** PUT to {@code /status}. */
  T updateStatus(T object);

  /**
   * PATCH with a JSON merge patch ({@code application/merge-patch+json}): what
   * {@code kubectl label} and {@code annotate} send.
   */
  default T mergePatch(String namespace, String name, String patchJson) {
    return patch(namespace, name, PatchType.MERGE_PATCH, patchJson);
  }

  /**
   * PATCH with {@code type}'s media type: a JSON Patch (a JSON array of RFC 6902 operations;
   * a failed {@code test} answers 422), a JSON merge patch, or a strategic merge patch (built-in
   * kinds only; custom resources answer 415). A {@code metadata.resourceVersion} the patch
   * sets is a precondition (409 Conflict when stale).
   */
  T patch(String namespace, String name, PatchType type, String patch);

  /**
   * POST {@code body} to a subresource of one object, e.g. a Binding to
   * {@code pods/<name>/binding} (what a scheduler sends) or an Eviction to
   * {@code pods/<name>/eviction}. Returns the server's answer as it came (a success Status for
   * a binding).
   *
   * @throws io.listwatch.api.StatusException with the server's Status (404 when the object or
   *     the subresource does not exist, 409 for a pod already bound, ...)
   */
  DynamicObject createSubresource(String namespace, String name, String subresource, DynamicObject body);

  /** DELETE; returns true if it existed (false on 404). */
  boolean delete(String namespace, String name);

  /**
   * DELETE with {@code options} as the body: a grace period, preconditions (a uid or
   * resourceVersion that does not match answers 409 Conflict), a propagation policy. Returns
   * true if it existed (false on 404).
   */
  boolean delete(String namespace, String name, DeleteOptions options);
}
