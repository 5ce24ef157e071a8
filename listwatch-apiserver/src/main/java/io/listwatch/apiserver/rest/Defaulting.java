package io.listwatch.apiserver.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.registry.ResourceDefinition;

/**
 * kube's defaulting of built-in kinds (its {@code SetDefaults_*} functions, run whenever a body
 * is decoded): the fields a written object gets when the client left them out, so that what is
 * stored and served reads as kube-apiserver's would. Applied to every create, update and patch
 * of the main resource (not to {@code /status}, which keeps the stored spec). A field given
 * (even {@code 0} or {@code false}) is kept; a missing or {@code null} one, or an empty string
 * where kube defaults a string, gets kube's default:
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
 *   <li>Deployments: {@code replicas: 1}, a RollingUpdate strategy of 25% max unavailable and
 *       25% max surge, {@code revisionHistoryLimit: 10}, {@code progressDeadlineSeconds: 600};
 *       ReplicaSets {@code replicas: 1}; StatefulSets {@code replicas: 1},
 *       {@code podManagementPolicy: OrderedReady}, a RollingUpdate strategy (partition 0 when
 *       its parameters are there or the type was defaulted), {@code revisionHistoryLimit: 10},
 *       PVCs retained when deleted and when scaled; DaemonSets a RollingUpdate strategy of 1 max
 *       unavailable and 0 max surge, {@code revisionHistoryLimit: 10}.</li>
 *   <li>Jobs: {@code parallelism} and {@code completions} 1 when both are absent (parallelism 1
 *       alone otherwise), {@code backoffLimit: 6}, {@code completionMode: NonIndexed},
 *       {@code suspend: false}, {@code podReplacementPolicy: TerminatingOrFailed} (without a pod
 *       failure policy); CronJobs {@code concurrencyPolicy: Allow}, {@code suspend: false},
 *       history limits 3 and 1, and their job template's defaults.</li>
 *   <li>Services: {@code type: ClusterIP}, {@code sessionAffinity: None}, ports'
 *       {@code protocol: TCP} and {@code targetPort} (the port), and
 *       {@code internalTrafficPolicy: Cluster} except for ExternalName; Secrets
 *       {@code type: Opaque}; PersistentVolumeClaims and PersistentVolumes
 *       {@code volumeMode: Filesystem}, PersistentVolumes {@code persistentVolumeReclaimPolicy:
 *       Retain}; PriorityClasses {@code preemptionPolicy: PreemptLowerPriority}.</li>
 * </ul>
 *
 * <p>Clients rely on these: {@code kubectl describe} reads the replicas of workloads and a
 * PriorityClass's preemption policy without checking that they are there, and {@code kubectl
 * rollout status} refuses a StatefulSet or DaemonSet whose update strategy is not RollingUpdate.
 * Not done: what kube allocates rather than defaults (a Service's cluster IP and IP families).
 * A value of the wrong JSON type (a spec that is not an object) is left as it is, for
 * validation. Stateless.
 */
final class Defaulting {

  /** kube's default {@code spec.replicas} of the workloads that have one. */
  static final int DEFAULT_REPLICAS = 1;
  private static final int REVISION_HISTORY_LIMIT = 10;
  private static final String ROLLING_UPDATE = "RollingUpdate";

  private Defaulting() {
  }

  /** Fills the defaults of {@code obj}, an object of {@code def}'s kind, in place. */
  static void apply(ResourceDefinition def, ObjectNode obj) {
    switch (def.group() + "/" + def.plural()) {
      case "/pods" -> podSpec(object(obj, "spec", true));
      case "/secrets" -> defaultIfAbsent(obj, "type", "Opaque");
      case "/services" -> service(object(obj, "spec", true));
      case "/persistentvolumeclaims" -> defaultIfAbsent(object(obj, "spec", true), "volumeMode", "Filesystem");
      case "/persistentvolumes" -> {
        ObjectNode pv = object(obj, "spec", true);
        if (pv != null) {
          defaultIfAbsent(pv, "persistentVolumeReclaimPolicy", "Retain");
          defaultIfAbsent(pv, "volumeMode", "Filesystem");
        }
      }
      case "apps/deployments" -> deployment(object(obj, "spec", true));
      case "apps/replicasets" -> {
        ObjectNode spec = object(obj, "spec", true);
        defaultIfAbsent(spec, "replicas", DEFAULT_REPLICAS);
        template(spec);
      }
      case "apps/statefulsets" -> statefulSet(object(obj, "spec", true));
      case "apps/daemonsets" -> daemonSet(object(obj, "spec", true));
      case "batch/jobs" -> job(object(obj, "spec", true));
      case "batch/cronjobs" -> cronJob(object(obj, "spec", true));
      case "scheduling.k8s.io/priorityclasses" -> defaultIfAbsent(obj, "preemptionPolicy", "PreemptLowerPriority");
      default -> {
        // no defaults for this kind
      }
    }
  }

  private static void deployment(ObjectNode spec) {
    if (spec == null) {
      return;
    }
    defaultIfAbsent(spec, "replicas", DEFAULT_REPLICAS);
    ObjectNode strategy = object(spec, "strategy", true);
    if (strategy != null) {
      defaultIfAbsent(strategy, "type", ROLLING_UPDATE);
      if (strategy.path("type").asText().equals(ROLLING_UPDATE)) {
        ObjectNode rollingUpdate = object(strategy, "rollingUpdate", true);
        defaultIfAbsent(rollingUpdate, "maxUnavailable", "25%");
        defaultIfAbsent(rollingUpdate, "maxSurge", "25%");
      }
    }
    defaultIfAbsent(spec, "revisionHistoryLimit", REVISION_HISTORY_LIMIT);
    defaultIfAbsent(spec, "progressDeadlineSeconds", 600);
    template(spec);
  }

  private static void statefulSet(ObjectNode spec) {
    if (spec == null) {
      return;
    }
    defaultIfAbsent(spec, "podManagementPolicy", "OrderedReady");
    ObjectNode strategy = object(spec, "updateStrategy", true);
    if (strategy != null) {
      if (absent(strategy, "type")) {
        // kube gives a defaulted RollingUpdate its parameters; one the client chose keeps what it sent
        strategy.put("type", ROLLING_UPDATE);
        object(strategy, "rollingUpdate", true);
      }
      if (strategy.path("type").asText().equals(ROLLING_UPDATE) && strategy.get("rollingUpdate") instanceof ObjectNode r) {
        defaultIfAbsent(r, "partition", 0);
      }
    }
    ObjectNode retention = object(spec, "persistentVolumeClaimRetentionPolicy", true);
    defaultIfAbsent(retention, "whenDeleted", "Retain");
    defaultIfAbsent(retention, "whenScaled", "Retain");
    defaultIfAbsent(spec, "replicas", DEFAULT_REPLICAS);
    defaultIfAbsent(spec, "revisionHistoryLimit", REVISION_HISTORY_LIMIT);
    template(spec);
  }

  private static void daemonSet(ObjectNode spec) {
    if (spec == null) {
      return;
    }
    ObjectNode strategy = object(spec, "updateStrategy", true);
    if (strategy != null) {
      defaultIfAbsent(strategy, "type", ROLLING_UPDATE);
      if (strategy.path("type").asText().equals(ROLLING_UPDATE)) {
        ObjectNode rollingUpdate = object(strategy, "rollingUpdate", true);
        defaultIfAbsent(rollingUpdate, "maxUnavailable", 1);
        defaultIfAbsent(rollingUpdate, "maxSurge", 0);
      }
    }
    defaultIfAbsent(spec, "revisionHistoryLimit", REVISION_HISTORY_LIMIT);
    template(spec);
  }

  private static void job(ObjectNode spec) {
    if (spec == null) {
      return;
    }
    if (absent(spec, "completions") && absent(spec, "parallelism")) {
      spec.put("completions", 1);
    }
    defaultIfAbsent(spec, "parallelism", 1);
    defaultIfAbsent(spec, "backoffLimit", 6);
    defaultIfAbsent(spec, "completionMode", "NonIndexed");
    defaultIfAbsent(spec, "suspend", false);
    if (absent(spec, "podFailurePolicy")) {
      defaultIfAbsent(spec, "podReplacementPolicy", "TerminatingOrFailed");
    }
    template(spec);
  }

  private static void cronJob(ObjectNode spec) {
    if (spec == null) {
      return;
    }
    defaultIfAbsent(spec, "concurrencyPolicy", "Allow");
    defaultIfAbsent(spec, "suspend", false);
    defaultIfAbsent(spec, "successfulJobsHistoryLimit", 3);
    defaultIfAbsent(spec, "failedJobsHistoryLimit", 1);
    ObjectNode jobTemplate = object(spec, "jobTemplate", false);
    if (jobTemplate != null) {
      job(object(jobTemplate, "spec", false));
    }
  }

  private static void service(ObjectNode spec) {
    if (spec == null) {
      return;
    }
    defaultIfAbsent(spec, "type", "ClusterIP");
    defaultIfAbsent(spec, "sessionAffinity", "None");
    if (!spec.path("type").asText().equals("ExternalName")) {
      defaultIfAbsent(spec, "internalTrafficPolicy", "Cluster");
    }
    for (JsonNode p : spec.path("ports")) {
      if (p instanceof ObjectNode port) {
        defaultIfAbsent(port, "protocol", "TCP");
        if (absent(port, "targetPort") && port.has("port")) {
          port.set("targetPort", port.get("port").deepCopy());
        }
      }
    }
  }

  /** The pod template of a workload's spec, when it has one. */
  private static void template(ObjectNode workloadSpec) {
    if (workloadSpec != null && workloadSpec.get("template") instanceof ObjectNode t) {
      podSpec(object(t, "spec", false));
    }
  }

  private static void podSpec(ObjectNode spec) {
    if (spec == null) {
      return;
    }
    defaultIfAbsent(spec, "restartPolicy", "Always");
    defaultIfAbsent(spec, "terminationGracePeriodSeconds", 30);
    defaultIfAbsent(spec, "dnsPolicy", "ClusterFirst");
    object(spec, "securityContext", true);
    defaultIfAbsent(spec, "schedulerName", "default-scheduler");
    defaultIfAbsent(spec, "enableServiceLinks", true);
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

  /**
   * {@code parent.field} when it is an object; when missing or null, a new empty one if
   * {@code create}, else null; null when it is something else (left to validation).
   */
  private static ObjectNode object(ObjectNode parent, String field, boolean create) {
    if (parent == null) {
      return null;
    }
    JsonNode node = parent.get(field);
    if (node == null || node.isNull()) {
      return create ? parent.putObject(field) : null;
    }
    return node instanceof ObjectNode o ? o : null;
  }

  private static boolean absent(ObjectNode obj, String field) {
    JsonNode current = obj.get(field);
    return current == null || current.isNull() || (current.isTextual() && current.asText().isEmpty());
  }

  private static void defaultIfAbsent(ObjectNode obj, String field, int value) {
    if (obj != null && absent(obj, field)) {
      obj.put(field, value);
    }
  }

  private static void defaultIfAbsent(ObjectNode obj, String field, boolean value) {
    if (obj != null && absent(obj, field)) {
      obj.put(field, value);
    }
  }

  private static void defaultIfAbsent(ObjectNode obj, String field, String value) {
    if (obj != null && absent(obj, field)) {
      obj.put(field, value);
    }
  }
}
