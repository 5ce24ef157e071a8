package io.listwatch.apiserver.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Reasons;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.api.meta.NameGenerator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;

/**
 * kube's {@code ServiceAccount} admission plug-in, for new pods.
 *
 * <p>Mutating: a pod that names no service account runs as {@code default}
 * ({@code spec.serviceAccountName}, and the deprecated {@code spec.serviceAccount} that kube's
 * v1 form mirrors it into). Unless the pod's {@code automountServiceAccountToken}, else the
 * account's, is false, every init container and container without a mount at
 * {@value #TOKEN_MOUNT_PATH} mounts it read-only from a projected volume
 * {@code kube-api-access-<5 random chars>} (a bound token of {@value #TOKEN_EXPIRATION_SECONDS}
 * s at {@code token}, {@code ca.crt} of the ConfigMap {@code kube-root-ca.crt}, the namespace
 * from the downward API); a pod without {@code imagePullSecrets} gets the account's.
 *
 * <p>Validating: the account must exist (403 {@code error looking up service account
 * <ns>/<name>: serviceaccount "<name>" not found}); an account annotated
 * {@code kubernetes.io/enforce-mountable-secrets: "true"} limits the secrets the pod references
 * to the ones it lists. A mirror pod (annotation {@code kubernetes.io/config.mirror}, made by a
 * kubelet for a static pod) is not changed and may reference no service account, no secret and
 * no token projection.
 *
 * <p>Looking up: the watch cache first; an account it does not hold is read again after 100 to
 * 200 ms, once (kube reads it live once, for a cache that lags), nine times for
 * {@code default}, which the service accounts controller creates a moment after its namespace
 * (kube retries it ten times). The re-reads are timed on a delaying executor: no thread waits.
 * The mutating phase is synchronous, so it decides on what the cache holds, as for an account
 * that sets nothing when the cache does not hold it yet; should a re-read then find it with
 * {@code automountServiceAccountToken: false} or image pull secrets, the pod cannot be admitted
 * as kube would have: 500 ServerTimeout, retry (kube's answer when a token is not ready).
 *
 * <p>Thread-safe: no state beyond its listers.
 */
public final class ServiceAccount implements AdmissionPlugin {

  static final String DEFAULT_ACCOUNT = "default";
  static final String MIRROR_POD_ANNOTATION = "kubernetes.io/config.mirror";
  static final String ENFORCE_MOUNTABLE_SECRETS = "kubernetes.io/enforce-mountable-secrets";
  static final String TOKEN_VOLUME_PREFIX = "kube-api-access-";
  static final String TOKEN_MOUNT_PATH = "/var/run/secrets/kubernetes.io/serviceaccount";
  static final long TOKEN_EXPIRATION_SECONDS = 3607;
  /** Re-reads of the cache for {@code default}: kube's ten attempts less the first. */
  static final int DEFAULT_ACCOUNT_REREADS = 9;

  private final Listers listers;
  private final NameGenerator names;
  /** An executor that runs a task after the given milliseconds. */
  private final LongFunction<Executor> delayed;

  /** A plug-in reading accounts from {@code listers}, re-reading on the common pool's timer. */
  public ServiceAccount(Listers listers) {
    this(listers, new NameGenerator(), ms -> CompletableFuture.delayedExecutor(ms, TimeUnit.MILLISECONDS));
  }

  ServiceAccount(Listers listers, NameGenerator names, LongFunction<Executor> delayed) {
    this.listers = listers;
    this.names = names;
    this.delayed = delayed;
  }

  @Override
  public void admit(AdmissionAttributes a) {
    if (!a.is(AdmissionAttributes.Operation.CREATE, "", "pods") || mirror(a.object())) {
      return;
    }
    ObjectNode spec = AdmittedObjects.object(a.object(), "spec");
    String account = spec.path("serviceAccountName").asText("");
    if (account.isEmpty()) {
      account = spec.path("serviceAccount").asText("");
    }
    if (account.isEmpty()) {
      account = DEFAULT_ACCOUNT;
    }
    spec.put("serviceAccountName", account);
    spec.put("serviceAccount", account);
    JsonNode found = listers.get("", "serviceaccounts", a.namespace(), account)
        .map(JsonNode.class::cast).orElse(JsonNodeFactory.instance.objectNode());
    if (automounts(found, spec)) {
      mountToken(spec);
    }
    ArrayNode accountPullSecrets = pullSecretNames(found);
    if (spec.path("imagePullSecrets").isEmpty() && !accountPullSecrets.isEmpty()) {
      spec.set("imagePullSecrets", accountPullSecrets);
    }
  }

  @Override
  public CompletableFuture<Void> validate(AdmissionAttributes a) {
    if (!a.is(AdmissionAttributes.Operation.CREATE, "", "pods")) {
      return CompletableFuture.completedFuture(null);
    }
    JsonNode spec = a.object().path("spec");
    if (mirror(a.object())) {
      return mirrorPodRefusal(spec).map(why -> CompletableFuture.<Void>failedFuture(AdmittedObjects.forbidden(a, why)))
          .orElse(CompletableFuture.completedFuture(null));
    }
    String account = spec.path("serviceAccountName").asText("");
    Optional<ObjectNode> cached = listers.get("", "serviceaccounts", a.namespace(), account);
    if (cached.isPresent()) {
      return check(a, cached.get(), false);
    }
    long interval = 100 + ThreadLocalRandom.current().nextLong(100);
    int rereads = account.equals(DEFAULT_ACCOUNT) ? DEFAULT_ACCOUNT_REREADS : 1;
    return reread(a.namespace(), account, rereads, interval).thenCompose(found -> found.isPresent()
        ? check(a, found.get(), true)
        : CompletableFuture.failedFuture(AdmittedObjects.forbidden(a, "error looking up service account "
            + a.namespace() + "/" + account + ": serviceaccount \"" + account + "\" not found")));
  }

  /**
   * The checks of the pod against its account {@code sa}; {@code seenLate}: the cache did not
   * hold it when the mutating phase looked.
   */
  private static CompletableFuture<Void> check(AdmissionAttributes a, ObjectNode sa, boolean seenLate) {
    JsonNode spec = a.object().path("spec");
    if (annotationTrue(sa, ENFORCE_MOUNTABLE_SECRETS)) {
      Optional<String> refusal = MountableSecrets.refusal(sa, spec);
      if (refusal.isPresent()) {
        return CompletableFuture.failedFuture(AdmittedObjects.forbidden(a, refusal.get()));
      }
    }
    if (seenLate && admittedWithoutSeeing(sa, spec)) {
      return CompletableFuture.failedFuture(serverTimeout());
    }
    return CompletableFuture.completedFuture(null);
  }

  private CompletableFuture<Optional<ObjectNode>> reread(String namespace, String account, int left, long interval) {
    if (left == 0) {
      return CompletableFuture.completedFuture(Optional.empty());
    }
    return CompletableFuture.supplyAsync(() -> listers.get("", "serviceaccounts", namespace, account),
        delayed.apply(interval)).thenCompose(found -> found.isPresent() ? CompletableFuture.completedFuture(found)
        : reread(namespace, account, left - 1, interval));
  }

  /** kube's shouldAutomount: the pod's preference, else the account's, else true. */
  private static boolean automounts(JsonNode account, JsonNode spec) {
    if (spec.path("automountServiceAccountToken").isBoolean()) {
      return spec.get("automountServiceAccountToken").booleanValue();
    }
    return account.path("automountServiceAccountToken").asBoolean(true);
  }

  /**
   * Whether the mutating phase, not seeing {@code account} in the cache, did other than it
   * would have with it: mounted a token the account declines, or left out its pull secrets.
   */
  private static boolean admittedWithoutSeeing(JsonNode account, JsonNode spec) {
    boolean declined = !automounts(account, spec) && !spec.has("automountServiceAccountToken")
        && hasTokenVolume(spec);
    return declined || (spec.path("imagePullSecrets").isEmpty() && !pullSecretNames(account).isEmpty());
  }

  private static boolean hasTokenVolume(JsonNode spec) {
    for (JsonNode v : spec.path("volumes")) {
      if (v.path("name").asText("").startsWith(TOKEN_VOLUME_PREFIX)) {
        return true;
      }
    }
    return false;
  }

  /** kube's mountServiceAccountToken with bound token volumes. */
  private void mountToken(ObjectNode spec) {
    String volumeName = null;
    for (JsonNode v : spec.path("volumes")) {
      if (v.path("name").asText("").startsWith(TOKEN_VOLUME_PREFIX)) {
        volumeName = v.path("name").asText();
        break;
      }
    }
    boolean hasVolume = volumeName != null;
    if (!hasVolume) {
      volumeName = names.generate(TOKEN_VOLUME_PREFIX);
    }
    boolean needsVolume = false;
    for (String containers : List.of("initContainers", "containers")) {
      for (JsonNode c : spec.path(containers)) {
        if (c instanceof ObjectNode container && !mountsAt(container, TOKEN_MOUNT_PATH)) {
          AdmittedObjects.array(container, "volumeMounts").addObject().put("name", volumeName).put("readOnly", true)
              .put("mountPath", TOKEN_MOUNT_PATH);
          needsVolume = true;
        }
      }
    }
    if (!hasVolume && needsVolume) {
      AdmittedObjects.array(spec, "volumes").add(tokenVolume(volumeName));
    }
  }

  private static boolean mountsAt(JsonNode container, String path) {
    for (JsonNode m : container.path("volumeMounts")) {
      if (m.path("mountPath").asText("").equals(path)) {
        return true;
      }
    }
    return false;
  }

  /** kube's TokenVolumeSource, with the defaultMode kube's v1 defaults give it. */
  private static ObjectNode tokenVolume(String name) {
    ObjectNode volume = JsonNodeFactory.instance.objectNode().put("name", name);
    ObjectNode projected = volume.putObject("projected");
    ArrayNode sources = projected.putArray("sources");
    sources.addObject().putObject("serviceAccountToken").put("expirationSeconds", TOKEN_EXPIRATION_SECONDS)
        .put("path", "token");
    ObjectNode configMap = sources.addObject().putObject("configMap");
    configMap.put("name", "kube-root-ca.crt").putArray("items").addObject().put("key", "ca.crt").put("path", "ca.crt");
    ObjectNode item = sources.addObject().putObject("downwardAPI").putArray("items").addObject();
    item.putObject("fieldRef").put("apiVersion", "v1").put("fieldPath", "metadata.namespace");
    item.put("path", "namespace");
    projected.put("defaultMode", 420);
    return volume;
  }

  private static ArrayNode pullSecretNames(JsonNode account) {
    ArrayNode names = JsonNodeFactory.instance.arrayNode();
    for (JsonNode s : account.path("imagePullSecrets")) {
      names.addObject().put("name", s.path("name").asText(""));
    }
    return names;
  }

  /** Why a mirror pod is refused, if it is. */
  private static Optional<String> mirrorPodRefusal(JsonNode spec) {
    if (!spec.path("serviceAccountName").asText("").isEmpty()) {
      return Optional.of("a mirror pod may not reference service accounts");
    }
    if (!MountableSecrets.referenced(spec).isEmpty()) {
      return Optional.of("a mirror pod may not reference secrets");
    }
    for (JsonNode v : spec.path("volumes")) {
      for (JsonNode source : v.path("projected").path("sources")) {
        if (AdmittedObjects.isSet(source, "serviceAccountToken")) {
          return Optional.of("a mirror pod may not use ServiceAccountToken volume projections");
        }
      }
    }
    return Optional.empty();
  }

  private static boolean mirror(ObjectNode pod) {
    return pod.path("metadata").path("annotations").has(MIRROR_POD_ANNOTATION);
  }

  private static boolean annotationTrue(JsonNode obj, String key) {
    return AdmittedObjects.annotation(obj, key).map(ServiceAccount::goTrue).orElse(false);
  }

  /** Whether Go's {@code strconv.ParseBool} reads {@code value} as true (not false, not an error), as kube asks. */
  private static boolean goTrue(String value) {
    try {
      return io.listwatch.api.Strconv.parseBool(value);
    } catch (IllegalArgumentException notABool) {
      return false;
    }
  }

  /** kube's NewServerTimeout(serviceaccounts, "create pod", 1). */
  private static StatusException serverTimeout() {
    return new StatusException(Status.failure(500, Reasons.SERVER_TIMEOUT,
        "The create pod operation against serviceaccounts could not be completed at this time, please try again.",
        new Status.Details("create pod", null, "serviceaccounts", null, null, 1)));
  }
}
