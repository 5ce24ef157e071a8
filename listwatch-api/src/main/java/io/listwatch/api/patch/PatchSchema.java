package io.listwatch.api.patch;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The patch metadata of one kind: for each field path that kube's Go type annotates, its
 * {@link PatchMeta}.
 *
 * <h2>Paths</h2>
 * A path names a field from the object's root, field names joined by {@code '.'}; list
 * elements add nothing, so {@code spec.containers.env} is the {@code env} list of every
 * container of a pod. Paths do not contain list indexes, map keys or {@code $} directives.
 * Fields not in the table have {@link PatchMeta#NONE}.
 *
 * <p>Built from reusable fragments (a pod spec is the same under {@code Pod.spec},
 * {@code Deployment.spec.template.spec} and {@code CronJob.spec.jobTemplate.spec.template.spec})
 * by {@link Builder#include}.
 *
 * <p>Immutable and thread-safe.
 */
public final class PatchSchema {

  private final String group;
  private final String version;
  private final String kind;
  private final Map<String, PatchMeta> fields;

  private PatchSchema(String group, String version, String kind, Map<String, PatchMeta> fields) {
    this.group = group;
    this.version = version;
    this.kind = kind;
    this.fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
  }

  /** The group, "" for core. */
  public String group() {
    return group;
  }

  public String version() {
    return version;
  }

  public String kind() {
    return kind;
  }

  /** The annotated fields: path to meta, in declaration order. */
  public Map<String, PatchMeta> fields() {
    return fields;
  }

  /** The meta of the field at {@code path}; {@link PatchMeta#NONE} for a field not in the table. */
  public PatchMeta at(String path) {
    return fields.getOrDefault(path, PatchMeta.NONE);
  }


  /** Starts a fragment or a kind's table. */
  static Builder builder() {
    return new Builder();
  }

  /** Collects path to meta entries; not thread-safe. */
  static final class Builder {
    private final Map<String, PatchMeta> fields = new LinkedHashMap<>();

    /** Adds {@code path} (relative to this builder's root). */
    Builder field(String path, PatchMeta meta) {
      Objects.requireNonNull(meta, "meta");
      if (fields.putIfAbsent(path, meta) != null) {
        throw new IllegalArgumentException("duplicate patch meta for " + path);
      }
      return this;
    }

    /** Adds every field of {@code fragment} under {@code prefix} ("" for the root). */
    Builder include(String prefix, Builder fragment) {
      for (Map.Entry<String, PatchMeta> e : fragment.fields.entrySet()) {
        field(prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(), e.getValue());
      }
      return this;
    }

    PatchSchema build(String group, String version, String kind) {
      return new PatchSchema(group, version, kind, fields);
    }
  }
}
