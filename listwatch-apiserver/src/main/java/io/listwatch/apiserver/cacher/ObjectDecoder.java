package io.listwatch.apiserver.cacher;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.registry.CustomResourceConversion;
import io.listwatch.apiserver.registry.ResourceDefinition;
import java.io.IOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Turns stored JSON into a {@link CachedObject}: stamps {@code metadata.resourceVersion}
 * with the storage revision (storage does not know its own revision when a value is
 * written, as in kube), turns a custom resource into the version the cache serves
 * ({@link CustomResourceConversion}) and extracts labels and selectable fields.
 *
 * <p>Memory: label keys and values and field values repeat across objects ("default",
 * "Running", a node's name), so they are interned in a bounded per-resource table; fields are
 * kept as a {@link FieldValues} array. Object names are unique and are not interned, but
 * the name and namespace strings are shared with the field values. Thread-safe.
 */
final class ObjectDecoder {

  static final ObjectMapper MAPPER = io.listwatch.api.JsonLimits.mapper();
  /** Distinct strings interned per resource; beyond it, strings are kept as decoded. */
  static final int MAX_INTERNED = 100_000;

  private final ResourceDefinition def;
  private final String[] fieldNames;
  private final int nameIndex;
  private final int namespaceIndex;
  private final java.util.concurrent.ConcurrentHashMap<String, String> interned =
      new java.util.concurrent.ConcurrentHashMap<>();

  ObjectDecoder(ResourceDefinition def) {
    this.def = def;
    this.fieldNames = def.selectableFieldNames().toArray(new String[0]);
    this.nameIndex = java.util.Arrays.asList(fieldNames).indexOf("metadata.name");
    this.namespaceIndex = java.util.Arrays.asList(fieldNames).indexOf("metadata.namespace");
  }

  /**
   * @throws UnreadableObjectException when the stored bytes are not a JSON object within
   *     {@link io.listwatch.api.JsonLimits} (written before the server checked them on write,
   *     or by another program)
   */
  CachedObject decode(String key, long resourceVersion, byte[] stored) {
    ObjectNode tree;
    try {
      tree = (ObjectNode) MAPPER.readTree(stored);
    } catch (IOException | ClassCastException e) {
      throw new UnreadableObjectException(key, resourceVersion, e);
    }
    try {
      return fromTree(key, resourceVersion, tree);
    } catch (IOException e) {
      throw new UnreadableObjectException(key, resourceVersion, e);
    }
  }

  /**
   * {@link #decode}, without waiting for a conversion webhook: fails with the
   * {@link UnreadableObjectException}, or with the webhook's {@link io.listwatch.api.StatusException}.
   */
  java.util.concurrent.CompletableFuture<CachedObject> decodeAsync(String key, long resourceVersion, byte[] stored) {
    ObjectNode tree;
    try {
      tree = (ObjectNode) MAPPER.readTree(stored);
    } catch (IOException | ClassCastException e) {
      return java.util.concurrent.CompletableFuture.failedFuture(new UnreadableObjectException(key, resourceVersion, e));
    }
    return CustomResourceConversion.toServedAsync(def, tree).thenApply(served -> {
      try {
        return fromServed(key, resourceVersion, served);
      } catch (IOException e) {
        throw new UnreadableObjectException(key, resourceVersion, e);
      }
    });
  }

  /** Whether decoding may wait for a conversion webhook (see {@link CustomResourceConversion#remote}). */
  boolean remote() {
    return CustomResourceConversion.remote(def);
  }

  /** The same object with another resourceVersion (a deletion's). */
  CachedObject restamp(CachedObject o, long resourceVersion) {
    return decode(o.key(), resourceVersion, o.json());
  }

  /**
   * @throws io.listwatch.api.StatusException when a conversion webhook fails (this waits for it)
   */
  CachedObject fromTree(String key, long resourceVersion, ObjectNode tree) throws IOException {
    // a custom resource is stored in its storage version: this cache serves it in its own
    return fromServed(key, resourceVersion, CustomResourceConversion.toServed(def, tree));
  }

  private CachedObject fromServed(String key, long resourceVersion, ObjectNode served) throws IOException {
    ObjectNode tree = def.conversion().toServed(served); // a built-in served in several versions, likewise
    JsonNode m = tree.get("metadata");
    ObjectNode meta = m instanceof ObjectNode mo ? mo : tree.putObject("metadata");
    meta.put("resourceVersion", Long.toString(resourceVersion));
    Map<String, String> labels = new HashMap<>();
    JsonNode l = meta.get("labels");
    if (l != null && l.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = l.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        labels.put(intern(e.getKey()), intern(e.getValue().asText()));
      }
    }
    Map<String, String> extracted = def.selectableFieldValues(tree);
    String[] values = new String[fieldNames.length];
    for (int i = 0; i < fieldNames.length; i++) {
      String v = extracted.get(fieldNames[i]);
      values[i] = v == null ? "" : (i == nameIndex ? v : intern(v));
    }
    String name = nameIndex >= 0 ? values[nameIndex] : text(meta, "name");
    String namespace = namespaceIndex >= 0 ? values[namespaceIndex] : text(meta, "namespace");
    byte[] json = MAPPER.writeValueAsBytes(tree);
    return new CachedObject(key, namespace, name, resourceVersion, json, Map.copyOf(labels),
        new FieldValues(fieldNames, values));
  }

  private String intern(String s) {
    if (s.isEmpty()) {
      return "";
    }
    String known = interned.get(s);
    if (known != null) {
      return known;
    }
    if (interned.size() >= MAX_INTERNED) {
      return s;
    }
    known = interned.putIfAbsent(s, s);
    return known == null ? s : known;
  }

  private static String text(JsonNode meta, String field) {
    JsonNode v = meta.get(field);
    return v == null || v.isNull() ? "" : v.asText();
  }
}
