package io.listwatch.apiserver.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.core.Quantity;
import io.listwatch.apiserver.quota.PodResources;
import io.listwatch.apiserver.quota.ResourceList;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * kube's {@code LimitRanger} admission plug-in: the LimitRanges of a namespace give its new pods'
 * containers default requests and limits, and bound what pods, containers and
 * PersistentVolumeClaims may ask for.
 *
 * <ul>
 *   <li><b>Defaults</b> (mutating phase, pods created): for each LimitRange, each container and
 *       init container gets the {@code defaultRequest} and {@code default} of the range's
 *       {@code Container} items for each resource it does not state (as kube stores them: a
 *       missing default limit is the {@code max}, a missing default request the default limit,
 *       else the {@code min}), and the pod the annotation
 *       {@code kubernetes.io/limit-ranger} saying what was set
 *       ({@code LimitRanger plugin set: cpu, memory request for container web; cpu limit for
 *       container web}).</li>
 *   <li><b>Bounds</b> (validating phase): a {@code Container} item's {@code min}, {@code max} and
 *       {@code maxLimitRequestRatio} hold for each container and init container; a {@code Pod}
 *       item's for the whole pod (its containers' sum, sidecars and init containers as kube counts
 *       them, without overhead); a {@code PersistentVolumeClaim} item's {@code min} and
 *       {@code max} for a claim's {@code spec.resources.requests}. The first LimitRange broken is
 *       answered in a 403 Forbidden with kube's messages, several joined as kube's aggregate error
 *       ({@code [minimum cpu usage per Container is 100m, but request is 50m, maximum memory usage
 *       per Container is 1Gi, but limit is 2Gi]}).</li>
 * </ul>
 *
 * <p>Pods are checked when created only (kube 1.32 skips pod updates: their containers cannot
 * change), claims when created and updated; subresources and objects being deleted are not
 * checked. Each LimitRange's items are read in order and their resources in name order (kube's
 * follow Go's map order). The LimitRanges are read from the watch cache ({@link Listers}); kube
 * also asks storage when its cache has none for the namespace. Thread-safe.
 */
public final class LimitRanger implements AdmissionPlugin {

  static final String ANNOTATION = "kubernetes.io/limit-ranger";
  private static final String CONTAINER = "Container";
  private static final String POD = "Pod";
  private static final String CLAIM = "PersistentVolumeClaim";

  private final Listers listers;

  public LimitRanger(Listers listers) {
    this.listers = listers;
  }

  @Override
  public void admit(AdmissionAttributes a) {
    if (!applies(a) || !a.resource().plural().equals("pods")) {
      return;
    }
    for (ObjectNode range : listers.list("", "limitranges", a.namespace())) {
      setDefaults(range, a.object());
    }
  }

  @Override
  public CompletableFuture<Void> validate(AdmissionAttributes a) {
    if (!applies(a)) {
      return CompletableFuture.completedFuture(null);
    }
    boolean pod = a.resource().plural().equals("pods");
    for (ObjectNode range : listers.list("", "limitranges", a.namespace())) {
      List<String> errors = pod ? podErrors(range, a.object()) : claimErrors(range, a.object());
      if (!errors.isEmpty()) {
        return CompletableFuture.failedFuture(AdmissionErrors.forbidden(a, AdmissionErrors.aggregate(errors)));
      }
    }
    return CompletableFuture.completedFuture(null);
  }

  /** kube's {@code SupportsAttributes}, and objects being deleted left alone. */
  private static boolean applies(AdmissionAttributes a) {
    if (!a.subresource().isEmpty() || !a.resource().group().isEmpty()) {
      return false;
    }
    boolean supported = switch (a.resource().plural()) {
      case "pods" -> a.operation() == AdmissionAttributes.Operation.CREATE;
      case "persistentvolumeclaims" -> true;
      default -> false;
    };
    return supported && (a.oldObject() == null || !a.oldObject().path("metadata").hasNonNull("deletionTimestamp"));
  }

  /** kube's {@code PodMutateLimitFunc}: the range's container defaults, and the annotation. */
  private static void setDefaults(ObjectNode range, ObjectNode pod) {
    Map<String, Quantity> requests = new TreeMap<>();
    Map<String, Quantity> limits = new TreeMap<>();
    for (JsonNode item : range.path("spec").path("limits")) {
      if (item.path("type").asText().equals(CONTAINER)) {
        // kube's defaults of a Container item (SetDefaults_LimitRangeItem), which a stored LimitRange has:
        // the default limit is the max, the default request the default limit, else the min
        Map<String, Quantity> limit = new TreeMap<>(ResourceList.fromJson(item.path("max")).amounts());
        limit.putAll(ResourceList.fromJson(item.path("default")).amounts());
        Map<String, Quantity> request = new TreeMap<>(ResourceList.fromJson(item.path("min")).amounts());
        request.putAll(limit);
        request.putAll(ResourceList.fromJson(item.path("defaultRequest")).amounts());
        requests.putAll(request);
        limits.putAll(limit);
      }
    }
    List<String> set = new ArrayList<>();
    for (String list : List.of("containers", "initContainers")) {
      String kind = list.equals("containers") ? "container" : "init container";
      for (JsonNode c : pod.path("spec").path(list)) {
        if (c instanceof ObjectNode container) {
          String name = container.path("name").asText();
          List<String> requested = fill(container, "requests", requests);
          List<String> limited = fill(container, "limits", limits);
          if (!requested.isEmpty()) {
            set.add(String.join(", ", requested) + " request for " + kind + " " + name);
          }
          if (!limited.isEmpty()) {
            set.add(String.join(", ", limited) + " limit for " + kind + " " + name);
          }
        }
      }
    }
    if (!set.isEmpty()) {
      ObjectNode meta = pod.get("metadata") instanceof ObjectNode m ? m : pod.putObject("metadata");
      ObjectNode annotations = meta.get("annotations") instanceof ObjectNode an ? an : meta.putObject("annotations");
      annotations.put(ANNOTATION, "LimitRanger plugin set: " + String.join("; ", set));
    }
  }

  /** Sets each of {@code defaults} the container's {@code resources.<list>} lacks; returns their names, sorted. */
  private static List<String> fill(ObjectNode container, String list, Map<String, Quantity> defaults) {
    List<String> set = new ArrayList<>();
    JsonNode current = container.path("resources").path(list);
    for (Map.Entry<String, Quantity> d : defaults.entrySet()) {
      if (!current.has(d.getKey())) {
        set.add(d.getKey());
      }
    }
    if (!set.isEmpty()) {
      ObjectNode resources = container.get("resources") instanceof ObjectNode r ? r : container.putObject("resources");
      ObjectNode values = resources.get(list) instanceof ObjectNode v ? v : resources.putObject(list);
      set.forEach(name -> values.put(name, defaults.get(name).toString()));
    }
    return set;
  }

  /** kube's {@code PodValidateLimitFunc}: what the pod breaks of the range's Container and Pod items. */
  private static List<String> podErrors(ObjectNode range, ObjectNode pod) {
    List<String> errors = new ArrayList<>();
    JsonNode spec = pod.path("spec");
    for (JsonNode item : range.path("spec").path("limits")) {
      String type = item.path("type").asText();
      if (type.equals(CONTAINER)) {
        for (String list : List.of("containers", "initContainers")) {
          for (JsonNode c : spec.path(list)) {
            bounds(item, type, PodResources.of(c, "requests"), PodResources.of(c, "limits"), errors);
          }
        }
      } else if (type.equals(POD)) {
        bounds(item, type, PodResources.requests(spec, false), PodResources.limits(spec, false), errors);
      }
    }
    return errors;
  }

  /** kube's {@code PersistentVolumeClaimValidateLimitFunc}: a claim's requests within its items' min and max. */
  private static List<String> claimErrors(ObjectNode range, ObjectNode claim) {
    List<String> errors = new ArrayList<>();
    ResourceList requests = ResourceList.fromJson(claim.path("spec").path("resources").path("requests"));
    for (JsonNode item : range.path("spec").path("limits")) {
      if (item.path("type").asText().equals(CLAIM)) {
        ResourceList.fromJson(item.path("min")).amounts().forEach((r, min) ->
            addIfPresent(errors, minimum(CLAIM, r, min, requests, ResourceList.EMPTY)));
        ResourceList.fromJson(item.path("max")).amounts().forEach((r, max) -> {
          Quantity request = requests.get(r);
          if (request == null) {
            errors.add("maximum " + r + " usage per " + CLAIM + " is " + max + ".  No request is specified");
          } else if (milli(request).compareTo(milli(max)) > 0) {
            errors.add("maximum " + r + " usage per " + CLAIM + " is " + max + ", but request is " + request);
          }
        });
      }
    }
    return errors;
  }

  /** An item's min, max and maxLimitRequestRatio against requests and limits of one container or pod. */
  private static void bounds(JsonNode item, String type, ResourceList requests, ResourceList limits,
      List<String> errors) {
    ResourceList.fromJson(item.path("min")).amounts().forEach((r, min) ->
        addIfPresent(errors, minimum(type, r, min, requests, limits)));
    ResourceList.fromJson(item.path("max")).amounts().forEach((r, max) ->
        addIfPresent(errors, maximum(type, r, max, requests, limits)));
    ResourceList.fromJson(item.path("maxLimitRequestRatio")).amounts().forEach((r, ratio) ->
        addIfPresent(errors, ratio(type, r, ratio, requests, limits)));
  }

  private static void addIfPresent(List<String> errors, String error) {
    if (error != null) {
      errors.add(error);
    }
  }

  /** kube's {@code minConstraint}. */
  private static String minimum(String type, String r, Quantity min, ResourceList requests, ResourceList limits) {
    Quantity request = requests.get(r);
    Quantity limit = limits.get(r);
    String prefix = "minimum " + r + " usage per " + type + " is " + min;
    if (request == null) {
      return prefix + ".  No request is specified";
    }
    if (milli(request).compareTo(milli(min)) < 0) {
      return prefix + ", but request is " + request;
    }
    if (limit != null && milli(limit).compareTo(milli(min)) < 0) {
      return prefix + ", but limit is " + limit;
    }
    return null;
  }

  /** kube's {@code maxConstraint}. */
  private static String maximum(String type, String r, Quantity max, ResourceList requests, ResourceList limits) {
    Quantity request = requests.get(r);
    Quantity limit = limits.get(r);
    String prefix = "maximum " + r + " usage per " + type + " is " + max;
    if (limit == null) {
      return prefix + ".  No limit is specified";
    }
    if (milli(limit).compareTo(milli(max)) > 0) {
      return prefix + ", but limit is " + limit;
    }
    if (request != null && milli(request).compareTo(milli(max)) > 0) {
      return prefix + ", but request is " + request;
    }
    return null;
  }

  /** kube's {@code limitRequestRatioConstraint}. */
  private static String ratio(String type, String r, Quantity most, ResourceList requests, ResourceList limits) {
    BigInteger request = requests.has(r) ? milli(requests.get(r)) : BigInteger.ZERO;
    BigInteger limit = limits.has(r) ? milli(limits.get(r)) : BigInteger.ZERO;
    String prefix = r + " max limit to request ratio per " + type + " is " + most;
    if (request.signum() == 0) {
      return prefix + ", but no request is specified or request is 0";
    }
    if (limit.signum() == 0) {
      return prefix + ", but no limit is specified or limit is 0";
    }
    double observed = limit.doubleValue() / request.doubleValue();
    if (observed * 1000 > milli(most).doubleValue()) {
      return prefix + ", but provided ratio is " + String.format(Locale.ROOT, "%f", observed);
    }
    return null;
  }

  /** Amounts compared as kube compares them here: in thousandths, rounded up. */
  private static BigInteger milli(Quantity q) {
    return q.milliValue();
  }
}
