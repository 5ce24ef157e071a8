package io.listwatch.client.contract;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.client.DynamicObject;
import io.listwatch.client.ObjectList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** The objects the contract writes (ConfigMaps, Namespaces) and what it reads from them. Stateless. */
final class ConfigMaps {

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private ConfigMaps() {
  }

  /** A Namespace named {@code name}. */
  static DynamicObject namespace(String name) {
    ObjectNode ns = JSON.objectNode().put("apiVersion", "v1").put("kind", "Namespace");
    ns.putObject("metadata").put("name", name);
    return DynamicObject.of(ns);
  }

  /** A ConfigMap {@code namespace/name} without labels or data. */
  static DynamicObject configMap(String namespace, String name) {
    return configMap(namespace, name, Map.of(), Map.of());
  }

  /** A ConfigMap {@code namespace/name} with {@code labels} and {@code data}. */
  static DynamicObject configMap(String namespace, String name, Map<String, String> labels,
      Map<String, String> data) {
    ObjectNode cm = JSON.objectNode().put("apiVersion", "v1").put("kind", "ConfigMap");
    ObjectNode meta = cm.putObject("metadata").put("name", name).put("namespace", namespace);
    if (!labels.isEmpty()) {
      ObjectNode l = meta.putObject("labels");
      labels.forEach(l::put);
    }
    if (!data.isEmpty()) {
      ObjectNode d = cm.putObject("data");
      data.forEach(d::put);
    }
    return DynamicObject.of(cm);
  }

  /** {@code object} with {@code data.key} set to {@code value} (a copy). */
  static DynamicObject withData(DynamicObject object, String key, String value) {
    ObjectNode tree = object.toTree();
    ObjectNode data = tree.get("data") instanceof ObjectNode d ? d : tree.putObject("data");
    data.put(key, value);
    return DynamicObject.of(tree);
  }

  /** {@code object} with {@code metadata.resourceVersion} set to {@code rv}, or removed when empty (a copy). */
  static DynamicObject withResourceVersion(DynamicObject object, String rv) {
    ObjectNode tree = object.toTree();
    ObjectNode meta = (ObjectNode) tree.get("metadata");
    if (rv.isEmpty()) {
      meta.remove("resourceVersion");
    } else {
      meta.put("resourceVersion", rv);
    }
    return DynamicObject.of(tree);
  }

  /** {@code data.key} of {@code object}, or null. */
  static String data(DynamicObject object, String key) {
    return object.get("data", key).map(n -> n.asText()).orElse(null);
  }

  /** The names of a list's items, in order. */
  static List<String> names(ObjectList<DynamicObject> list) {
    return names(list.items());
  }

  /** The names of {@code objects}, in order. */
  static List<String> names(List<DynamicObject> objects) {
    return objects.stream().map(DynamicObject::name).toList();
  }

  /** A resourceVersion as a number: the contract compares versions only for order, never for their values. */
  static long rv(String resourceVersion) {
    return Long.parseLong(resourceVersion);
  }

  /** The names of those of {@code created} (in order) that existed at {@code resourceVersion}. */
  static List<String> createdBy(String resourceVersion, DynamicObject... created) {
    long at = rv(resourceVersion);
    return Arrays.stream(created).filter(o -> rv(o.resourceVersion()) <= at).map(DynamicObject::name).toList();
  }
}
