package io.listwatch.storage;

import java.util.List;

/**
 * The answer to a {@link RangeRequest}.
 *
 * @param kvs the keys found, in ascending key order; immutable
 * @param more true when the limit cut the result and more keys match after the last one
 * @param revision the revision the read was served at: the request's revision, or the
 *     current revision when the request asked for 0. Use it for the next page so every page
 *     reads the same snapshot.
 */
public record RangeResult(List<KeyValue> kvs, boolean more, long revision) {

  public RangeResult {
    kvs = List.copyOf(kvs);
  }
}
