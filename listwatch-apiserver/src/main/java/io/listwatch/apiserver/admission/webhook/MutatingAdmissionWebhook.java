package io.listwatch.apiserver.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.api.patch.JsonPatch;
import io.listwatch.apiserver.admission.AdmissionAttributes;
import io.listwatch.apiserver.admission.AdmissionPlugin;
import io.listwatch.apiserver.admission.Listers;
import io.listwatch.apiserver.strategy.BuiltinStrategies;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * kube's {@code MutatingAdmissionWebhook} plug-in: in the mutating phase, calls the webhooks of
 * the MutatingWebhookConfigurations that match the write (see {@link WebhookSelection}) one
 * after the other, in kube's order (configurations by name, then their webhooks in order), each
 * seeing the object as the ones before left it. A webhook's JSON Patch is applied at once and
 * the kind's defaults applied again to the result, as kube does.
 *
 * <p>Reinvocation (kube's {@code reinvocationPolicy: IfNeeded}): when a webhook changes the
 * object, the {@code IfNeeded} webhooks called before it are called once more, in a second
 * round after the first, as kube's reinvocation does for webhook changes. The in-tree plug-ins
 * before this one are not run again (kube reruns them in its second round).
 *
 * <p>A refusal ends the write with the webhook's status; a webhook that cannot be called ends
 * it with a 500 under {@code failurePolicy: Fail}, and is skipped under {@code Ignore} (noted in
 * the audit annotation {@code failed-open.mutation.webhook.admission.k8s.io/round_<r>_index_<i>}).
 * Every call is noted in {@code mutation.webhook.admission.k8s.io/round_<r>_index_<i>}. Creates,
 * updates and deletes (a delete's webhook may not patch).
 *
 * <p>Thread-safe; one write's calls run one at a time.
 */
public final class MutatingAdmissionWebhook implements AdmissionPlugin {

  static final String MUTATION_PREFIX = "mutation.webhook.admission.k8s.io/";
  static final String FAILED_OPEN_PREFIX = "failed-open." + MUTATION_PREFIX;

  private final Listers listers;
  private final WebhookSource source;
  private final WebhookCalls calls;

  /** The plug-in of one server: configurations read through {@code listers}, webhooks called through {@code caller}. */
  public MutatingAdmissionWebhook(Listers listers, WebhookCaller caller) {
    this.listers = listers;
    this.source = new WebhookSource(listers, "mutatingwebhookconfigurations");
    this.calls = new WebhookCalls(caller);
  }

  @Override
  public boolean handles(AdmissionAttributes.Operation operation) {
    return true;
  }

  @Override
  public CompletableFuture<Void> admitAsync(AdmissionAttributes a) {
    if (WebhookSelection.exempt(a)) {
      return CompletableFuture.completedFuture(null);
    }
    List<AdmissionWebhook> hooks = source.webhooks();
    if (hooks.isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    return WebhookSelection.namespaceLabels(listers, a, hooks).thenCompose(ns -> {
      Dispatch d = new Dispatch(a, hooks, ns);
      return d.from(0, 0).thenCompose(v -> d.shouldReinvoke ? d.from(1, 0) : CompletableFuture.completedFuture(null));
    });
  }

  /**
   * One write's calls (kube's {@code webhookReinvokeContext}). Confined to the write: each call
   * starts after the one before has ended.
   */
  private final class Dispatch {
    private final AdmissionAttributes a;
    private final List<AdmissionWebhook> hooks;
    private final Map<String, String> namespace;
    /** The IfNeeded webhooks called since the object last changed. */
    private final Set<String> invokedReinvocable = new HashSet<>();
    /** The webhooks the second round calls again. */
    private final Set<String> reinvoke = new HashSet<>();
    private boolean shouldReinvoke;

    Dispatch(AdmissionAttributes a, List<AdmissionWebhook> hooks, Map<String, String> namespace) {
      this.a = a;
      this.hooks = hooks;
      this.namespace = namespace;
    }

    /** Calls the webhooks from index {@code i} on, in round {@code round}. */
    CompletableFuture<Void> from(int round, int i) {
      for (int idx = i; idx < hooks.size(); idx++) {
        AdmissionWebhook hook = hooks.get(idx);
        Optional<WebhookInvocation> invocation;
        try {
          invocation = WebhookSelection.shouldCall(hook, a, namespace);
        } catch (RuntimeException e) {
          return CompletableFuture.failedFuture(e);
        }
        if (invocation.isEmpty() || (round == 1 && !reinvoke.contains(hook.uid()))) {
          continue;
        }
        int index = idx;
        return call(invocation.get(), round, index).thenCompose(v -> from(round, index + 1));
      }
      return CompletableFuture.completedFuture(null);
    }

    private CompletableFuture<Void> call(WebhookInvocation i, int round, int index) {
      AdmissionWebhook hook = i.webhook();
      String at = "round_" + round + "_index_" + index;
      return calls.call(i, a, Versions.of(a.object(), i), Versions.of(a.oldObject(), i), true).handle((r, e) -> {
        boolean changed = false;
        RuntimeException failure = null;
        try {
          if (e == null) {
            changed = patch(i, r);
          } else {
            failure = WebhookCalls.unwrap(e);
          }
        } catch (RuntimeException patchFailure) {
          failure = patchFailure;
        }
        WebhookCalls.annotate(a, MUTATION_PREFIX + at, "{\"configuration\":" + quote(hook.configurationName())
            + ",\"webhook\":" + quote(hook.name()) + ",\"mutated\":" + changed + "}");
        if (changed) {
          reinvoke.addAll(invokedReinvocable);
          invokedReinvocable.clear();
          shouldReinvoke = true;
        }
        if (hook.reinvocationPolicy().equals("IfNeeded")) {
          invokedReinvocable.add(hook.uid());
        }
        if (failure instanceof CallingWebhookException failed) {
          if (hook.ignoresFailures()) {
            WebhookCalls.annotate(a, FAILED_OPEN_PREFIX + at, hook.name());
            return null;
          }
          throw WebhookErrors.failedClosed(failed);
        }
        if (failure != null) {
          throw failure;
        }
        return null;
      });
    }

    /** Applies the webhook's patch to the object; whether it changed. */
    private boolean patch(WebhookInvocation i, AdmissionReviews.Response r) {
      String name = i.webhook().name();
      if (r.patch() == null) {
        return false;
      }
      JsonNode ops;
      try {
        ops = AdmissionReviews.JSON.readTree(r.patch());
      } catch (IOException e) {
        throw new CallingWebhookException(name, "received undecodable patch in webhook response: " + e.getMessage());
      }
      if (ops == null || !ops.isArray()) {
        throw new CallingWebhookException(name, "received undecodable patch in webhook response: json: cannot unmarshal "
            + (ops == null ? "null" : ops.getNodeType().name().toLowerCase(java.util.Locale.ROOT))
            + " into Go value of type jsonpatch.Patch");
      }
      if (ops.isEmpty()) {
        return false;
      }
      ObjectNode object = a.object();
      if (object == null) {
        throw StatusException.internal("admission webhook \"" + name
            + "\" attempted to modify the object, which is not supported for this operation");
      }
      if (!r.patchType().equals("JSONPatch")) {
        throw new CallingWebhookException(name, "unsupported patch type \"" + r.patchType() + "\"");
      }
      JsonNode patched;
      try {
        patched = JsonPatch.apply(Versions.of(object, i), ops);
      } catch (StatusException e) {
        throw StatusException.internal(patchError(e));
      }
      if (!(patched instanceof ObjectNode result)) {
        throw StatusException.internal("json: cannot unmarshal " + patched.getNodeType().name().toLowerCase(java.util.Locale.ROOT)
            + " into Go value of type map[string]interface {}");
      }
      if (object.has("apiVersion")) {
        result.set("apiVersion", object.get("apiVersion")); // back to the request's version
      }
      boolean changed = !result.equals(object);
      object.removeAll();
      object.setAll(result);
      if (a.subresource().isEmpty()) {
        BuiltinStrategies.forResource(a.resource()).defaults(object);
      }
      return changed;
    }
  }

  private static String patchError(StatusException e) {
    var details = e.status().details();
    if (details != null && details.causes() != null && !details.causes().isEmpty()
        && details.causes().getFirst().message() != null) {
      return details.causes().getFirst().message();
    }
    return e.getMessage();
  }

  private static String quote(String s) {
    return AdmissionReviews.JSON.getNodeFactory().textNode(s).toString();
  }
}
