package io.listwatch.apiserver.admission;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The admission plug-ins kube-apiserver 1.32 enables by default, as this server has them, made
 * for one server: what each needs to read comes from its {@link Listers}. The chain puts them in
 * kube's order ({@link AdmissionChain#KUBE_ORDER}), so the order of this list does not matter.
 * Stateless.
 */
public final class DefaultPlugins {

  private DefaultPlugins() {
  }

  /**
   * The default chain of one server.
   *
   * @param listers what the plug-ins read
   * @param namespaces the state of a namespace for {@link NamespaceLifecycle}, which must see a
   *     namespace created a moment ago
   * @param quotas the quotas' stored state and status writes, for {@link ResourceQuota}
   * @param callingOut the plug-ins that call webhooks (made by the caller, since this package may
   *     not depend on theirs: {@code admission.webhook.AdmissionWebhooks.plugins})
   */
  public static AdmissionChain chain(Listers listers,
      Function<String, CompletableFuture<NamespaceLifecycle.NamespaceState>> namespaces,
      ResourceQuota.QuotaAccessor quotas, List<AdmissionPlugin> callingOut) {
    List<AdmissionPlugin> plugins = new ArrayList<>();
    plugins.add(new NamespaceLifecycle(namespaces));
    plugins.add(new ServiceAccount(listers));
    plugins.add(new TaintNodesByCondition());
    plugins.add(new Priority(listers));
    plugins.add(new DefaultTolerationSeconds());
    plugins.add(new DefaultStorageClass(listers));
    plugins.add(new StorageObjectInUseProtection());
    plugins.add(new PersistentVolumeClaimResize(listers));
    plugins.add(new RuntimeClass(listers));
    plugins.add(new DefaultIngressClass(listers));
    plugins.add(new PodSecurity(listers));
    plugins.add(new LimitRanger(listers));
    plugins.add(new ResourceQuota(listers, quotas));
    plugins.add(new CertificateApproval());
    plugins.add(new CertificateSigning());
    plugins.add(new CertificateSubjectRestriction());
    plugins.addAll(callingOut);
    plugins.add(new ValidatingAdmissionPolicy(listers));
    return AdmissionChain.of(plugins);
  }
}
