package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.Fields.defaultIfAbsent;
import static io.listwatch.apiserver.strategy.Fields.object;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * kube's {@code SetDefaults_PodSpec} and {@code SetDefaults_Container}, shared by pods and by
 * every workload's pod template (deployments, replicasets, statefulsets, daemonsets, jobs and
 * the jobs of cronjobs): {@code restartPolicy: Always}, {@code terminationGracePeriodSeconds:
 * 30}, {@code dnsPolicy: ClusterFirst}, {@code securityContext: {}}, {@code schedulerName:
 * default-scheduler}; each container (and init container):
 * {@code terminationMessagePath: /dev/termination-log}, {@code terminationMessagePolicy: File},
 * {@code imagePullPolicy} ({@link #pullPolicy}), {@code resources: {}}, ports'
 * {@code protocol: TCP}, probes' counters and HTTP actions ({@code SetDefaults_Probe},
 * {@code SetDefaults_HTTPGetAction}); the same for ephemeral containers; secret, configMap, downwardAPI and projected volumes'
 * {@code defaultMode: 420}. Stateless.
 */
final class PodSpecDefaults {

  private PodSpecDefaults() {
  }

  /** The defaults of the pod template of a workload's spec, when it has one ({@code spec.template.spec}). */
  static void template(ObjectNode workloadSpec) {
    if (workloadSpec != null && workloadSpec.get("template") instanceof ObjectNode t) {
      podSpec(object(t, "spec", false));
    }
  }

  /** The defaults of a pod spec; a null {@code spec} is left alone. */
  static void podSpec(ObjectNode spec) {
    if (spec == null) {
      return;
    }
    defaultIfAbsent(spec, "restartPolicy", "Always");
    defaultIfAbsent(spec, "terminationGracePeriodSeconds", 30);
    defaultIfAbsent(spec, "dnsPolicy", "ClusterFirst");
    object(spec, "securityContext", true);
    defaultIfAbsent(spec, "schedulerName", "default-scheduler");
    for (String list : new String[] {"initContainers", "containers", "ephemeralContainers"}) {
      for (JsonNode c : spec.path(list)) {
        if (c instanceof ObjectNode container) {
          container(container);
        }
      }
    }
    for (JsonNode v : spec.path("volumes")) {
      for (String source : new String[] {"secret", "configMap", "downwardAPI", "projected"}) {
        if (v.get(source) instanceof ObjectNode s) {
          defaultIfAbsent(s, "defaultMode", 420);
        }
      }
    }
  }

  private static void container(ObjectNode c) {
    defaultIfAbsent(c, "terminationMessagePath", "/dev/termination-log");
    defaultIfAbsent(c, "terminationMessagePolicy", "File");
    defaultIfAbsent(c, "imagePullPolicy", pullPolicy(c.path("image").asText("")));
    object(c, "resources", true);
    for (JsonNode p : c.path("ports")) {
      if (p instanceof ObjectNode port) {
        defaultIfAbsent(port, "protocol", "TCP");
      }
    }
    for (String probe : new String[] {"livenessProbe", "readinessProbe", "startupProbe"}) {
      if (c.get(probe) instanceof ObjectNode p) {
        probe(p);
      }
    }
    for (String hook : new String[] {"postStart", "preStop"}) {
      httpGet(c.path("lifecycle").get(hook));
    }
  }

  /** kube's {@code SetDefaults_Probe}: {@code timeoutSeconds: 1}, {@code periodSeconds: 10}, {@code successThreshold: 1}, {@code failureThreshold: 3}. */
  private static void probe(ObjectNode p) {
    zeroDefault(p, "timeoutSeconds", 1);
    zeroDefault(p, "periodSeconds", 10);
    zeroDefault(p, "successThreshold", 1);
    zeroDefault(p, "failureThreshold", 3);
    httpGet(p);
  }

  /** kube's {@code SetDefaults_HTTPGetAction}: {@code path: /}, {@code scheme: HTTP}. */
  private static void httpGet(JsonNode handler) {
    if (handler != null && handler.get("httpGet") instanceof ObjectNode http) {
      defaultIfAbsent(http, "path", "/");
      defaultIfAbsent(http, "scheme", "HTTP");
    }
  }

  /** Sets {@code obj.field} to {@code value} when it is absent or 0 (kube defaults a zero int32). */
  private static void zeroDefault(ObjectNode obj, String field, int value) {
    if (obj.path(field).isNumber() && obj.path(field).asLong() == 0) {
      obj.put(field, value);
    }
    defaultIfAbsent(obj, field, value);
  }

  /** {@code Always} for an image tagged {@code latest} or without a tag or digest, else {@code IfNotPresent}. */
  static String pullPolicy(String image) {
    if (image.contains("@")) {
      return "IfNotPresent";
    }
    int slash = image.lastIndexOf('/');
    int colon = image.lastIndexOf(':');
    if (colon <= slash) {
      return "Always"; // no tag (a colon before the last slash is a registry's port)
    }
    return image.substring(colon + 1).equals("latest") ? "Always" : "IfNotPresent";
  }
}
