package io.listwatch.apiserver.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.admission.podsecurity.AggregateCheckResult;
import io.listwatch.apiserver.admission.podsecurity.Evaluator;
import io.listwatch.apiserver.admission.podsecurity.ExistingPods;
import io.listwatch.apiserver.admission.podsecurity.Level;
import io.listwatch.apiserver.admission.podsecurity.LevelVersion;
import io.listwatch.apiserver.admission.podsecurity.PodSpecExtractor;
import io.listwatch.apiserver.admission.podsecurity.Policy;
import io.listwatch.apiserver.admission.podsecurity.SignificantPodUpdate;
import io.listwatch.apiserver.admission.podsecurity.Version;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * kube's {@code PodSecurity} admission plug-in: the Pod Security Standards, per namespace, as
 * the namespace's labels {@code pod-security.kubernetes.io/<mode>} and {@code <mode>-version}
 * set them ({@link Policy}; unlabelled, everything is {@code privileged}, kube's default
 * configuration). Validating only:
 *
 * <ul>
 *   <li>a pod create, or an update that changes what the checks see ({@link SignificantPodUpdate}),
 *       is refused (403 Forbidden, {@code pods "x" is forbidden: violates PodSecurity
 *       "restricted:latest": <reason> (<detail>), ...}) when it violates the {@code enforce}
 *       level, and otherwise answered with the warning {@code would violate PodSecurity
 *       "<warn level>": ...} when it violates the {@code warn} level. The pod's subresources
 *       (status, binding, eviction, ...) are not checked;</li>
 *   <li>a workload with a pod template (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job,
 *       CronJob, ReplicationController, PodTemplate) is never refused, only warned about;</li>
 *   <li>a namespace is refused (422 Invalid) when it is created with, or updated to, labels that
 *       name no level or version; an update that makes the enforce level stricter warns of the
 *       pods already in it that violate it ({@link ExistingPods}).</li>
 * </ul>
 *
 * <p>What it checks it notes in the request's audit event ({@link AdmissionAttributes#addAnnotation},
 * kube's keys under {@code pod-security.kubernetes.io/}): {@code enforce-policy}, the enforce
 * level a pod was checked against ({@code privileged:latest} in a namespace that checks
 * nothing), also when it is refused; {@code audit-violations}, {@code would violate PodSecurity
 * "<audit level>": ...} when a pod or a workload's template violates the {@code audit} level;
 * {@code error}, why the namespace's labels or the namespace could not be read.
 *
 * <p>Not as kube: no exemptions (users, namespaces, runtime classes) can be configured, as none
 * are by default, so the {@code exempt} annotation is never noted. Thread-safe.
 */
public final class PodSecurity implements AdmissionPlugin {

  /** Where kube's audit annotations of this plug-in live (its labels' prefix). */
  private static final String AUDIT_ANNOTATION_PREFIX = "pod-security.kubernetes.io/";
  /** The enforce level and version a pod was checked against. */
  private static final String ENFORCE_POLICY_ANNOTATION = AUDIT_ANNOTATION_PREFIX + "enforce-policy";
  /** What of a pod violates the audit level. */
  private static final String AUDIT_VIOLATIONS_ANNOTATION = AUDIT_ANNOTATION_PREFIX + "audit-violations";
  /** Why the policy could not be read. */
  private static final String ERROR_ANNOTATION = AUDIT_ANNOTATION_PREFIX + "error";
  /** kube's {@code enforce-policy} of a namespace that checks nothing. */
  private static final LevelVersion PRIVILEGED_LATEST = new LevelVersion(Level.PRIVILEGED, Version.LATEST);

  /** The pod subresources kube does not check: they cannot change the pod's spec. */
  private static final Set<String> IGNORED_POD_SUBRESOURCES = Set.of("exec", "attach", "binding", "eviction", "log",
      "portforward", "proxy", "status");

  private final Listers listers;
  private final Evaluator evaluator;

  /** The plug-in of a server whose namespaces and pods {@code listers} reads. */
  public PodSecurity(Listers listers) {
    this(listers, Evaluator.DEFAULT);
  }

  PodSecurity(Listers listers, Evaluator evaluator) {
    this.listers = listers;
    this.evaluator = evaluator;
  }

  @Override
  public CompletableFuture<Void> validate(AdmissionAttributes a) {
    String group = a.resource().group();
    String plural = a.resource().plural();
    if (group.isEmpty() && plural.equals("namespaces")) {
      return a.subresource().isEmpty() ? validateNamespace(a) : done();
    }
    if (group.isEmpty() && plural.equals("pods")) {
      return IGNORED_POD_SUBRESOURCES.contains(a.subresource()) ? done() : validatePod(a);
    }
    if (PodSpecExtractor.hasPodSpec(group, plural) && a.subresource().isEmpty()) {
      return validatePodController(a);
    }
    return done();
  }

  private static CompletableFuture<Void> done() {
    return CompletableFuture.completedFuture(null);
  }

  private CompletableFuture<Void> validateNamespace(AdmissionAttributes a) {
    Policy.Parsed now = Policy.fromLabels(a.object().path("metadata").path("labels"));
    if (a.oldObject() == null) {
      return now.errors().isEmpty() ? done() : CompletableFuture.failedFuture(invalid(a, now.errors()));
    }
    Policy.Parsed before = Policy.fromLabels(a.oldObject().path("metadata").path("labels"));
    if (!now.errors().isEmpty() && (before.errors().isEmpty() || !now.errors().equals(before.errors()))) {
      return CompletableFuture.failedFuture(invalid(a, now.errors()));
    }
    LevelVersion enforce = now.policy().enforce();
    LevelVersion old = before.policy().enforce();
    if (enforce.equals(old) || enforce.level() == Level.PRIVILEGED
        || (enforce.version().equals(old.version()) && !enforce.level().stricterThan(old.level()))) {
      return done();
    }
    for (String w : ExistingPods.warnings(evaluator, a.name(), enforce, listers.list("", "pods", a.name()))) {
      a.warnings().add(w);
    }
    return done();
  }

  private static StatusException invalid(AdmissionAttributes a, List<Status.Cause> errors) {
    return StatusException.invalid(a.resource().group(), a.resource().kind(), a.name(), errors);
  }

  private CompletableFuture<Void> validatePod(AdmissionAttributes a) {
    return namespace(a.namespace()).thenAccept(ns -> {
      if (ns.isEmpty()) {
        StatusException e = StatusException.internal("failed to lookup namespace \"" + a.namespace() + "\"");
        a.addAnnotation(ERROR_ANNOTATION, e.getMessage() + ": " + namespaceNotFound(a));
        throw e;
      }
      Policy.Parsed parsed = Policy.fromLabels(ns.get().path("metadata").path("labels"));
      if (parsed.errors().isEmpty() && parsed.policy().fullyPrivileged()) {
        a.addAnnotation(ENFORCE_POLICY_ANNOTATION, PRIVILEGED_LATEST.toString());
        return;
      }
      if (a.oldObject() != null && !SignificantPodUpdate.test(a.object(), a.oldObject())) {
        return;
      }
      evaluate(a, parsed, a.object().path("metadata"), a.object().path("spec"), true);
    });
  }

  private CompletableFuture<Void> validatePodController(AdmissionAttributes a) {
    return namespace(a.namespace()).thenAccept(ns -> {
      if (ns.isEmpty()) { // kube lets the workload through, noting the error for the audit log
        a.addAnnotation(ERROR_ANNOTATION, "failed to lookup namespace \"" + a.namespace() + "\": "
            + namespaceNotFound(a));
        return;
      }
      Policy.Parsed parsed = Policy.fromLabels(ns.get().path("metadata").path("labels"));
      Policy p = parsed.policy();
      if (parsed.errors().isEmpty() && p.warn().level() == Level.PRIVILEGED
          && p.audit().level() == Level.PRIVILEGED) {
        return;
      }
      PodSpecExtractor.extract(a.resource().group(), a.resource().plural(), a.object())
          .ifPresent(t -> evaluate(a, parsed, t.metadata(), t.spec(), false));
    });
  }

  /**
   * kube's {@code EvaluatePod}: notes the enforce level (when {@code enforce}) and what violates
   * the audit level in the audit event, then refuses a pod that violates the enforce level (when
   * {@code enforce}), else warns of what violates the warn level. Each level is evaluated once.
   */
  private void evaluate(AdmissionAttributes a, Policy.Parsed parsed, JsonNode metadata, JsonNode spec,
      boolean enforce) {
    Policy policy = parsed.policy();
    if (!parsed.errors().isEmpty()) {
      a.addAnnotation(ERROR_ANNOTATION, "Failed to parse policy: " + AdmissionErrors.aggregate(
          parsed.errors().stream().map(c -> c.field() + ": " + c.message()).toList()));
    }
    Map<LevelVersion, AggregateCheckResult> results = new HashMap<>();
    Function<LevelVersion, AggregateCheckResult> result = level -> results.computeIfAbsent(level,
        l -> AggregateCheckResult.of(evaluator.evaluate(l, metadata, spec)));
    AggregateCheckResult enforced = null;
    if (enforce) {
      a.addAnnotation(ENFORCE_POLICY_ANNOTATION, policy.enforce().toString());
      enforced = result.apply(policy.enforce());
    }
    AggregateCheckResult audited = result.apply(policy.audit());
    if (!audited.allowed()) {
      a.addAnnotation(AUDIT_VIOLATIONS_ANNOTATION, violation(policy.audit(), audited));
    }
    if (enforced != null && !enforced.allowed()) {
      throw StatusException.forbidden(a.resource().group(), a.resource().plural(), a.name(),
          "violates PodSecurity \"" + policy.enforce() + "\": " + enforced.forbiddenDetail());
    }
    AggregateCheckResult warned = result.apply(policy.warn());
    if (!warned.allowed()) {
      a.warnings().add(violation(policy.warn(), warned));
    }
  }

  /** kube's text of what violates {@code level}, for a warning or the audit event. */
  private static String violation(LevelVersion level, AggregateCheckResult result) {
    return "would violate PodSecurity \"" + level + "\": " + result.forbiddenDetail();
  }

  /** kube's error of a live GET that found no namespace (the namespace getter's). */
  private static String namespaceNotFound(AdmissionAttributes a) {
    return StatusException.notFound("", "namespaces", a.namespace()).getMessage();
  }

  /**
   * The namespace {@code name} as the namespace lister has it, or as storage has it when the
   * lister has not seen it yet (kube's {@code NamespaceGetterFromListerAndClient}).
   */
  private CompletableFuture<Optional<ObjectNode>> namespace(String name) {
    Optional<ObjectNode> cached = listers.get("", "namespaces", "", name);
    return cached.isPresent() ? CompletableFuture.completedFuture(cached) : listers.getLive("", "namespaces", "", name);
  }
}
