package io.listwatch.apiserver.cacher;

import io.listwatch.apiserver.protobuf.KubeProtobuf;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;

/**
 * One object as the watch cache keeps it: its JSON (with {@code metadata.resourceVersion}
 * already inside, so it is never re-serialized for list or watch), the few attributes
 * selectors need, and, once a protobuf client has asked for it, its protobuf form.
 *
 * <p>Thread-safety: immutable apart from the protobuf form, which is computed on first use and
 * published through a volatile field (two threads racing compute the same bytes; either copy
 * may be kept). The byte arrays are shared and must never be mutated. Equality is by the data
 * (key, names, resourceVersion, JSON, labels, fields), not by the cached encoding.
 */
public final class CachedObject {

  private final String key;
  private final String namespace;
  private final String name;
  private final long resourceVersion;
  private final byte[] json;
  private final Map<String, String> labels;
  private final Map<String, String> fields;
  /** The object in kube's protobuf envelope; null until first asked for. */
  private volatile byte[] protobuf;

  /**
   * @param key the storage key
   * @param namespace the namespace, "" for cluster-scoped objects
   * @param name the name
   * @param resourceVersion the revision of this version of the object
   * @param json the serialized object
   * @param labels the object's labels (immutable)
   * @param fields the selectable fields' values, including metadata.name and
   *     metadata.namespace (immutable)
   */
  public CachedObject(String key, String namespace, String name, long resourceVersion,
      byte[] json, Map<String, String> labels, Map<String, String> fields) {
    this.key = key;
    this.namespace = namespace;
    this.name = name;
    this.resourceVersion = resourceVersion;
    this.json = json;
    this.labels = labels;
    this.fields = fields;
  }

  public String key() {
    return key;
  }

  public String namespace() {
    return namespace;
  }

  public String name() {
    return name;
  }

  public long resourceVersion() {
    return resourceVersion;
  }

  public byte[] json() {
    return json;
  }

  public Map<String, String> labels() {
    return labels;
  }

  public Map<String, String> fields() {
    return fields;
  }

  /**
   * The object in kube's protobuf envelope, converted from its JSON on the first call and then
   * kept, so that protobuf lists and watch events of an unchanged object convert it once. Call
   * only for kinds with a protobuf form ({@link KubeProtobuf#supports}).
   *
   * @throws IllegalArgumentException when the object's kind has no protobuf form
   */
  public byte[] protobuf() {
    byte[] p = protobuf;
    if (p == null) {
      p = KubeProtobuf.encode(json);
      protobuf = p;
    }
    return p;
  }

  /** Whether the protobuf form has been converted and kept ({@link #protobuf} then costs nothing). */
  public boolean hasProtobuf() {
    return protobuf != null;
  }

  /** Approximate heap this object holds, for metrics and the memory benchmark. */
  public long approximateBytes() {
    byte[] p = protobuf;
    return 16L + json.length + (p == null ? 0 : 16L + p.length)
        + 64L * (labels.size() + fields.size()) + 2L * key.length() + 104;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CachedObject c && resourceVersion == c.resourceVersion && key.equals(c.key)
        && namespace.equals(c.namespace) && name.equals(c.name) && Arrays.equals(json, c.json)
        && labels.equals(c.labels) && fields.equals(c.fields);
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, resourceVersion);
  }

  @Override
  public String toString() {
    return "CachedObject[" + key + "@" + resourceVersion + "]";
  }
}
