package io.listwatch.client.testing;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.listwatch.client.JacksonCodec;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.Map;

/** Test fixtures: small pods and config maps. */
final class Pods {

  static final JacksonCodec<Pod> POD = JacksonCodec.of(Pod.class);
  static final JacksonCodec<ConfigMap> CONFIG_MAP = JacksonCodec.of(ConfigMap.class);

  private Pods() {
  }

  static Pod pod(String namespace, String name) {
    return pod(namespace, name, Map.of());
  }

  static Pod pod(String namespace, String name, Map<String, String> labels) {
    return new PodBuilder()
        .withNewMetadata().withNamespace(namespace).withName(name).withLabels(labels).endMetadata()
        .withNewSpec().withNodeName("node-1").addNewContainer().withName("app").withImage("nginx").endContainer()
        .endSpec()
        .build();
  }

  static ConfigMap configMap(String namespace, String name) {
    return new ConfigMapBuilder()
        .withNewMetadata().withNamespace(namespace).withName(name).endMetadata()
        .addToData("k", "v")
        .build();
  }

  static long rv(io.fabric8.kubernetes.api.model.HasMetadata object) {
    return Long.parseLong(object.getMetadata().getResourceVersion());
  }
}
