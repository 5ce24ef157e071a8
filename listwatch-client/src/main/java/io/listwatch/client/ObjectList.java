package io.listwatch.client;

import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * One page of a LIST: the items and the list's metadata.
 *
 * @param items the objects, in the server's order (by key); unmodifiable
 * @param resourceVersion {@code metadata.resourceVersion} of the list
 * @param continueToken {@code metadata.continue}, {@code ""} on the last page
 * @param remainingItemCount {@code metadata.remainingItemCount} when the server sent it
 * @param <T> the object type
 */
public record ObjectList<T>(List<T> items, String resourceVersion, String continueToken,
    OptionalLong remainingItemCount) {

  public ObjectList {
    items = List.copyOf(items);
    Objects.requireNonNull(resourceVersion, "resourceVersion");
    continueToken = continueToken == null ? "" : continueToken;
    remainingItemCount = remainingItemCount == null ? OptionalLong.empty() : remainingItemCount;
  }

  /** Whether more pages follow. */
  public boolean hasMore() {
    return !continueToken.isEmpty();
  }
}
