package io.listwatch.apiserver.admission;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The admission plug-ins a server runs, in kube's order: kube-apiserver sorts the plug-ins it
 * enables by one fixed list ({@code AllOrderedPlugins} in {@code pkg/kubeapiserver/options}),
 * whatever order a flag names them in; {@link #KUBE_ORDER} holds the part of that list that
 * kube 1.32 enables by default ({@link DefaultPlugins} makes the ones this server has). Every write passes the chain twice (kube's order of a create or update):
 *
 * <ol>
 *   <li>the body is decoded and the kind's defaults filled in;</li>
 *   <li>{@link #admit}: every plug-in's mutating phase, in order;</li>
 *   <li>the kind's strategy prepares the object (server-owned metadata, PrepareForCreate or
 *       PrepareForUpdate) and validates it;</li>
 *   <li>{@link #validate}: every plug-in's validating phase, in order;</li>
 *   <li>the object is stored.</li>
 * </ol>
 *
 * <p>Immutable and thread-safe.
 */
public final class AdmissionChain {

  /** kube 1.32's default plug-ins, in kube's order; a chain may hold any of them. */
  public static final List<String> KUBE_ORDER = List.of("NamespaceLifecycle", "LimitRanger", "ServiceAccount",
      "TaintNodesByCondition", "PodSecurity", "Priority", "DefaultTolerationSeconds", "DefaultStorageClass",
      "StorageObjectInUseProtection", "PersistentVolumeClaimResize", "RuntimeClass", "CertificateApproval",
      "CertificateSigning", "ClusterTrustBundleAttest", "CertificateSubjectRestriction", "DefaultIngressClass",
      "MutatingAdmissionWebhook", "ValidatingAdmissionPolicy", "ValidatingAdmissionWebhook", "ResourceQuota");

  /** No plug-ins: every write goes through. */
  public static final AdmissionChain NONE = new AdmissionChain(List.of());

  private final List<AdmissionPlugin> plugins;

  private AdmissionChain(List<AdmissionPlugin> plugins) {
    this.plugins = plugins;
  }

  /**
   * A chain of {@code plugins}, put in kube's order.
   *
   * @throws IllegalArgumentException for a plug-in {@link #KUBE_ORDER} does not name, or two of
   *     one name
   */
  public static AdmissionChain of(List<AdmissionPlugin> plugins) {
    List<AdmissionPlugin> sorted = new ArrayList<>(plugins);
    for (AdmissionPlugin p : sorted) {
      if (!KUBE_ORDER.contains(p.name())) {
        throw new IllegalArgumentException("unknown admission plug-in " + p.name() + "; known: " + KUBE_ORDER);
      }
    }
    sorted.sort(Comparator.comparingInt(p -> KUBE_ORDER.indexOf(p.name())));
    for (int i = 1; i < sorted.size(); i++) {
      if (sorted.get(i).name().equals(sorted.get(i - 1).name())) {
        throw new IllegalArgumentException("admission plug-in " + sorted.get(i).name() + " given twice");
      }
    }
    return new AdmissionChain(List.copyOf(sorted));
  }

  /** The plug-ins' names, in the order they run. */
  public List<String> names() {
    return plugins.stream().map(AdmissionPlugin::name).toList();
  }

  /**
   * The mutating phase of every plug-in that handles the operation, in order, each after the one
   * before has completed. While the plug-ins answer at once, so does this (a refusal is thrown);
   * once one waits, the rest run when it completes and a refusal fails the future.
   */
  public CompletableFuture<Void> admit(AdmissionAttributes attributes) {
    CompletableFuture<Void> done = CompletableFuture.completedFuture(null);
    for (AdmissionPlugin p : plugins) {
      if (!p.handles(attributes.operation())) {
        continue;
      }
      done = done.isDone() && !done.isCompletedExceptionally() ? p.admitAsync(attributes)
          : done.thenCompose(v -> p.admitAsync(attributes));
    }
    return done;
  }

  /** The validating phase of every plug-in that handles the operation, in order; fails with the first refusal. */
  public CompletableFuture<Void> validate(AdmissionAttributes attributes) {
    CompletableFuture<Void> done = CompletableFuture.completedFuture(null);
    for (AdmissionPlugin p : plugins) {
      if (p.handles(attributes.operation())) {
        done = done.thenCompose(v -> p.validate(attributes));
      }
    }
    return done;
  }
}
