package io.listwatch.server.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.server.registry.ResourceDefinition;

/**
 * kube's defaulting of built-in kinds (its {@code SetDefaults_*} functions, run whenever a body
 * is decoded): the fields a written object gets when the client left them out, so that what
 * is stored and served reads as kube-apiserver's would. Applied to every create and update
 * (also to the result of a patch), never to a field the client set.
 *
 * <ul>
 *   <li>Pod specs (of pods and of every workload's template): {@code restartPolicy: Always},
 *       {@code terminationGracePeriodSeconds: 30}, {@code dnsPolicy: ClusterFirst},
 *       {@code securityContext: {}}, {@code schedulerName: default-scheduler},
 *       {@code enableServiceLinks: true}; each container (and init container):
 *       {@code terminationMessagePath: /dev/termination-log},
 *       {@code terminationMessagePolicy: File}, {@code imagePullPolicy} ({@code Always} for an
 *       image tagged {@code latest} or not tagged, else {@code IfNotPresent}),
 *       {@code resources: {}}, ports' {@code protocol: TCP}; secret, configMap, downwardAPI and
 *       projected volumes' {@code defaultMode: 420}.</li>
 *   <li>Deployments: {@code replicas: 1}, a rolling update of 25% surge and 25% unavailable,
 *       {@code revisionHistoryLimit: 10}, {@code progressDeadlineSeconds: 600}; ReplicaSets
 *       {@code replicas: 1}; StatefulSets {@code replicas: 1},
 *       {@code podManagementPolicy: OrderedReady}, a rolling update of partition 0,
 *       {@code revisionHistoryLimit: 10}, PVCs retained when deleted or scaled; DaemonSets a
 *       rolling update of 1 unavailable and 0 surge, {@code revisionHistoryLimit: 10}.</li>
 *   <li>Jobs: {@code parallelism} and {@code completions} 1 when both are absent (parallelism 1
 *       alone otherwise), {@code backoffLimit: 6}, {@code completionMode: NonIndexed},
 *       {@code suspend: false}, {@code podReplacementPolicy: TerminatingOrFailed}; CronJobs
 *       {@code concurrencyPolicy: Allow}, {@code suspend: false}, history limits 3 and 1.</li>
 *   <li>Services: {@code type: ClusterIP}, {@code sessionAffinity: None}, ports'
 *       {@code protocol: TCP} and {@code targetPort} (the port), and
 *       {@code internalTrafficPolicy: Cluster} for in-cluster types; Secrets
 *       {@code type: Opaque}; PersistentVolumeClaims and PersistentVolumes
 *       {@code volumeMode: Filesystem}, PersistentVolumes {@code persistentVolumeReclaimPolicy:
 *       Retain}.</li>
 * </ul>
 * Not done: what kube allocates rather than defaults (a Service's cluster IP and IP families).
 * Stateless.
 */
final class Defaulting {

  private Defaulting() {
  }

  /** Fills the defaults of {@code obj}, an object of {@code def}'s kind, in place. */
  static void apply(ResourceDefinition def, ObjectNode obj) {
    String kind = def.group() + "/" + def.kind();
    switch (kind) {
      case "/Pod" -> podSpec(object(obj, "spec"));
      case "/Secret" -> setIfAbsent(obj, "type", "Opaque");
      case "/Service" -> service(object(obj, "spec"));
      case "/PersistentVolumeClaim" -> setIfAbsent(object(obj, "spec"), "volumeMode", "Filesystem");
      case "/PersistentVolume" -> {
        ObjectNode spec = object(obj, "spec");
        setIfAbsent(spec, "persistentVolumeReclaimPolicy", "Retain");
        setIfAbsent(spec, "volumeMode", "Filesystem");
      }
      case "apps/Deployment" -> deployment(object(obj, "spec"));
      case "apps/ReplicaSet" -> {
        ObjectNode spec = object(obj, "spec");
        setIfAbsent(spec, "replicas", 1);
        template(spec);
      }
      case "apps/StatefulSet" -> statefulSet(object(obj, "spec"));
      case "apps/DaemonSet" -> daemonSet(object(obj, "spec"));
      case "batch/Job" -> job(object(obj, "spec"));
      case "batch/CronJob" -> {
        ObjectNode spec = object(obj, "spec");
        setIfAbsent(spec, "concurrencyPolicy", "Allow");
        setIfAbsent(spec, "suspend", false);
        setIfAbsent(spec, "successfulJobsHistoryLimit", 3);
        setIfAbsent(spec, "failedJobsHistoryLimit", 1);
        job(object(object(spec, "jobTemplate"), "spec"));
      }
      default -> {
        // no defaults for this kind
      }
    }
  }

  private static void deployment(ObjectNode spec) {
    setIfAbsent(spec, "replicas", 1);
    ObjectNode strategy = object(spec, "strategy");
    setIfAbsent(strategy, "type", "RollingUpdate");
    if (strategy.path("type").asText().equals("RollingUpdate")) {
      ObjectNode rolling = object(strategy, "rollingUpdate");
      setIfAbsent(rolling, "maxUnavailable", "25%");
      setIfAbsent(rolling, "maxSurge", "25%");
    }
    setIfAbsent(spec, "revisionHistoryLimit", 10);
    setIfAbsent(spec, "progressDeadlineSeconds", 600);
    template(spec);
  }

  private static void statefulSet(ObjectNode spec) {
    setIfAbsent(spec, "replicas", 1);
    setIfAbsent(spec, "podManagementPolicy", "OrderedReady");
    ObjectNode strategy = object(spec, "updateStrategy");
    setIfAbsent(strategy, "type", "RollingUpdate");
    if (strategy.path("type").asText().equals("RollingUpdate")) {
      setIfAbsent(object(strategy, "rollingUpdate"), "partition", 0);
    }
    setIfAbsent(spec, "revisionHistoryLimit", 10);
    ObjectNode retention = object(spec, "persistentVolumeClaimRetentionPolicy");
    setIfAbsent(retention, "whenDeleted", "Retain");
    setIfAbsent(retention, "whenScaled", "Retain");
    template(spec);
  }

  private static void daemonSet(ObjectNode spec) {
    ObjectNode strategy = object(spec, "updateStrategy");
    setIfAbsent(strategy, "type", "RollingUpdate");
    if (strategy.path("type").asText().equals("RollingUpdate")) {
      ObjectNode rolling = object(strategy, "rollingUpdate");
      setIfAbsent(rolling, "maxUnavailable", 1);
      setIfAbsent(rolling, "maxSurge", 0);
    }
    setIfAbsent(spec, "revisionHistoryLimit", 10);
    template(spec);
  }

  private static void job(ObjectNode spec) {
    if (!spec.hasNonNull("completions") && !spec.hasNonNull("parallelism")) {
      spec.put("completions", 1);
    }
    setIfAbsent(spec, "parallelism", 1);
    setIfAbsent(spec, "backoffLimit", 6);
    setIfAbsent(spec, "completionMode", "NonIndexed");
    setIfAbsent(spec, "suspend", false);
    if (!spec.hasNonNull("podFailurePolicy")) {
      setIfAbsent(spec, "podReplacementPolicy", "TerminatingOrFailed");
    }
    template(spec);
  }

  private static void service(ObjectNode spec) {
    setIfAbsent(spec, "type", "ClusterIP");
    setIfAbsent(spec, "sessionAffinity", "None");
    String type = spec.path("type").asText();
    if (!type.equals("ExternalName")) {
      setIfAbsent(spec, "internalTrafficPolicy", "Cluster");
    }
    for (JsonNode p : spec.path("ports")) {
      if (p instanceof ObjectNode port) {
        setIfAbsent(port, "protocol", "TCP");
        if (!port.hasNonNull("targetPort") && port.has("port")) {
          port.set("targetPort", port.get("port").deepCopy());
        }
      }
    }
  }

  /** The pod template of a workload's spec. */
  private static void template(ObjectNode workloadSpec) {
    JsonNode template = workloadSpec.get("template");
    if (template instanceof ObjectNode t) {
      podSpec(object(t, "spec"));
    }
  }

  private static void podSpec(ObjectNode spec) {
    setIfAbsent(spec, "restartPolicy", "Always");
    setIfAbsent(spec, "terminationGracePeriodSeconds", 30);
    setIfAbsent(spec, "dnsPolicy", "ClusterFirst");
    if (!spec.hasNonNull("securityContext")) {
      spec.putObject("securityContext");
    }
    setIfAbsent(spec, "schedulerName", "default-scheduler");
    setIfAbsent(spec, "enableServiceLinks", true);
    for (String list : new String[] {"initContainers", "containers"}) {
      for (JsonNode c : spec.path(list)) {
        if (c instanceof ObjectNode container) {
          container(container);
        }
      }
    }
    for (JsonNode v : spec.path("volumes")) {
      for (String source : new String[] {"secret", "configMap", "downwardAPI", "projected"}) {
        if (v.get(source) instanceof ObjectNode s) {
          setIfAbsent(s, "defaultMode", 420);
        }
      }
    }
  }

  private static void container(ObjectNode c) {
    setIfAbsent(c, "terminationMessagePath", "/dev/termination-log");
    setIfAbsent(c, "terminationMessagePolicy", "File");
    setIfAbsent(c, "imagePullPolicy", pullPolicy(c.path("image").asText("")));
    if (!c.hasNonNull("resources")) {
      c.putObject("resources");
    }
    for (JsonNode p : c.path("ports")) {
      if (p instanceof ObjectNode port) {
        setIfAbsent(port, "protocol", "TCP");
      }
    }
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

  private static ObjectNode object(ObjectNode parent, String field) {
    return parent.get(field) instanceof ObjectNode o ? o : parent.putObject(field);
  }

  private static void setIfAbsent(ObjectNode o, String field, String value) {
    if (!o.hasNonNull(field)) {
      o.put(field, value);
    }
  }

  private static void setIfAbsent(ObjectNode o, String field, int value) {
    if (!o.hasNonNull(field)) {
      o.put(field, value);
    }
  }

  private static void setIfAbsent(ObjectNode o, String field, boolean value) {
    if (!o.hasNonNull(field)) {
      o.put(field, value);
    }
  }
}
