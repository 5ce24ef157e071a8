package io.listwatch.apiserver.admission.webhook;

import io.listwatch.apiserver.admission.AdmissionAttributes;
import io.listwatch.apiserver.admission.AdmissionPlugin;
import io.listwatch.apiserver.admission.Listers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * kube's {@code ValidatingAdmissionWebhook} plug-in: in the validating phase, calls every
 * webhook of the ValidatingWebhookConfigurations that matches the write (see
 * {@link WebhookSelection}), all at once, as kube's dispatcher does, with the object about to be
 * stored. When every call has ended, the first refusal or failure to end is the answer (kube
 * drops the others); a webhook that cannot be called lets the write through under
 * {@code failurePolicy: Ignore} (noted in the audit annotation
 * {@code failed-open.validating.webhook.admission.k8s.io/round_0_index_<n>}, n counting the
 * matching webhooks) and refuses it with a 500 under {@code Fail}. Creates, updates and deletes.
 *
 * <p>Thread-safe.
 */
public final class ValidatingAdmissionWebhook implements AdmissionPlugin {

  static final String FAILED_OPEN_PREFIX = "failed-open.validating.webhook.admission.k8s.io/";

  private final Listers listers;
  private final WebhookSource source;
  private final WebhookCalls calls;

  /** The plug-in of one server: configurations read through {@code listers}, webhooks called through {@code caller}. */
  public ValidatingAdmissionWebhook(Listers listers, WebhookCaller caller) {
    this.listers = listers;
    this.source = new WebhookSource(listers, "validatingwebhookconfigurations");
    this.calls = new WebhookCalls(caller);
  }

  @Override
  public boolean handles(AdmissionAttributes.Operation operation) {
    return true;
  }

  @Override
  public CompletableFuture<Void> validate(AdmissionAttributes a) {
    if (WebhookSelection.exempt(a)) {
      return CompletableFuture.completedFuture(null);
    }
    List<AdmissionWebhook> hooks = source.webhooks();
    if (hooks.isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    return WebhookSelection.namespaceLabels(listers, a, hooks).thenCompose(ns -> dispatch(a, hooks, ns));
  }

  private CompletableFuture<Void> dispatch(AdmissionAttributes a, List<AdmissionWebhook> hooks,
      Map<String, String> namespace) {
    List<WebhookInvocation> relevant = new ArrayList<>();
    for (AdmissionWebhook h : hooks) {
      Optional<WebhookInvocation> i = WebhookSelection.shouldCall(h, a, namespace);
      i.ifPresent(relevant::add);
    }
    if (relevant.isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    ConcurrentLinkedQueue<RuntimeException> errors = new ConcurrentLinkedQueue<>();
    CompletableFuture<?>[] all = new CompletableFuture<?>[relevant.size()];
    for (int idx = 0; idx < relevant.size(); idx++) {
      WebhookInvocation i = relevant.get(idx);
      int index = idx;
      all[idx] = calls.call(i, a, Versions.of(a.object(), i), Versions.of(a.oldObject(), i), false)
          .handle((r, e) -> {
            RuntimeException cause = e == null ? null : WebhookCalls.unwrap(e);
            if (cause instanceof CallingWebhookException failed) {
              if (i.webhook().ignoresFailures()) {
                WebhookCalls.annotate(a, FAILED_OPEN_PREFIX + "round_0_index_" + index, i.webhook().name());
              } else {
                errors.add(WebhookErrors.failedClosed(failed));
              }
            } else if (cause != null) {
              errors.add(cause);
            }
            return null;
          });
    }
    return CompletableFuture.allOf(all).thenRun(() -> {
      RuntimeException first = errors.peek();
      if (first != null) {
        throw first;
      }
    });
  }
}
