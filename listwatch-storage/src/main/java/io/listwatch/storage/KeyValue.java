package io.listwatch.storage;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One version of one key, as etcd's {@code mvccpb.KeyValue}.
 *
 * <p>{@code value} is shared, never copied: nobody may mutate the array, neither the store
 * that hands it out nor the caller that receives it. For a deletion event the value is empty.
 *
 * @param key the key, valid per {@link Keys#checkKey}
 * @param value the stored bytes (empty for a deletion); must not be mutated
 * @param createRevision the revision that created this incarnation of the key
 * @param modRevision the revision of the last change to the key (the kube resourceVersion)
 * @param version how many times the key was written since it was created; 1 after a create
 */
public record KeyValue(String key, byte[] value, long createRevision, long modRevision, long version) {

  private static final byte[] EMPTY = new byte[0];

  public KeyValue {
    Objects.requireNonNull(key, "key");
    value = value == null ? EMPTY : value;
  }

  /** The value decoded as UTF-8, for tests and logs. */
  public String valueAsString() {
    return new String(value, StandardCharsets.UTF_8);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyValue kv
        && key.equals(kv.key)
        && java.util.Arrays.equals(value, kv.value)
        && createRevision == kv.createRevision
        && modRevision == kv.modRevision
        && version == kv.version;
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, java.util.Arrays.hashCode(value), createRevision, modRevision, version);
  }

  @Override
  public String toString() {
    return "KeyValue[" + key + " create=" + createRevision + " mod=" + modRevision
        + " version=" + version + " " + value.length + "B]";
  }
}
