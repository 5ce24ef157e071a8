package io.listwatch.apiserver.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.admission.AdmissionAttributes;
import io.listwatch.apiserver.apiextensions.cel.MatchConditionPrograms;
import io.listwatch.apiserver.registry.ResourceDefinition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which webhooks a write calls (kube's {@code generic.Webhook.ShouldCallHook}), in kube's steps:
 * the namespace selector (a cluster-scoped write other than a Namespace always passes; a
 * Namespace is judged by its own labels), the object selector (the object's or the old object's
 * labels), the rules at the request's own group/version/resource, then, under
 * {@code matchPolicy: Equivalent}, at an equivalent one (another served version of the same
 * custom resource); last the match conditions, whose errors fail the write (403) under
 * {@code failurePolicy: Fail} and skip the webhook under {@code Ignore}. The webhook
 * configurations and admission policies themselves never call webhooks
 * ({@link #exempt}). Stateless.
 */
final class WebhookSelection {

  private static final String ADMISSION_GROUP = "admissionregistration.k8s.io";
  private static final Set<String> EXEMPT_KINDS = Set.of("ValidatingWebhookConfiguration",
      "MutatingWebhookConfiguration", "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding");

  private WebhookSelection() {
  }

  /** kube's {@code IsExemptAdmissionConfigurationResource}: writes no webhook is called for. */
  static boolean exempt(AdmissionAttributes a) {
    String[] kind = AdmissionReviews.requestKind(a.resource(), a.subresource());
    return kind[0].equals(ADMISSION_GROUP) && EXEMPT_KINDS.contains(kind[2]);
  }

  /** Whether the write is judged by a namespace's labels that must be read (a namespaced object's). */
  static boolean readsNamespace(AdmissionAttributes a) {
    return !a.namespace().isEmpty() && !isNamespace(a);
  }

  private static boolean isNamespace(AdmissionAttributes a) {
    return a.resource().group().isEmpty() && a.resource().plural().equals("namespaces");
  }

  /**
   * The invocation of {@code hook} for {@code a}, or empty when it is not called.
   *
   * @param namespace the labels of the write's namespace ({@link #readsNamespace}), or null when
   *     it was not found
   * @throws StatusException 404 when the namespace selector must judge a namespace that does not
   *     exist; 403 when a match condition fails under failurePolicy Fail
   */
  static Optional<WebhookInvocation> shouldCall(AdmissionWebhook hook, AdmissionAttributes a,
      Map<String, String> namespace) {
    boolean nsMatches = true;
    StatusException nsError = null;
    if (!hook.namespaceSelector().isEverything() && (readsNamespace(a) || isNamespace(a))) {
      if (isNamespace(a)) {
        // a Namespace's own labels: the written object's, or for a delete the stored one's
        nsMatches = hook.namespaceSelector().matches(labels(a.object() != null ? a.object() : a.oldObject()));
      } else if (namespace == null) {
        nsError = StatusException.notFound("", "namespaces", a.namespace());
        nsMatches = false;
      } else {
        nsMatches = hook.namespaceSelector().matches(namespace);
      }
    }
    if (!nsMatches && nsError == null) {
      return Optional.empty();
    }
    if (!hook.objectSelector().isEverything()
        && !(a.object() != null && hook.objectSelector().matches(labels(a.object())))
        && !(a.oldObject() != null && hook.objectSelector().matches(labels(a.oldObject())))) {
      return Optional.empty();
    }
    Optional<WebhookInvocation> invocation = byRules(hook, a);
    if (invocation.isEmpty()) {
      return invocation;
    }
    if (nsError != null) {
      throw nsError;
    }
    MatchConditionPrograms conditions = hook.matchConditions();
    if (!conditions.isEmpty()) {
      WebhookInvocation i = invocation.get();
      JsonNode object = Versions.of(a.object(), i);
      JsonNode oldObject = Versions.of(a.oldObject(), i);
      ObjectNode request = AdmissionReviews.request("", i, a, null, null);
      request.remove("uid");
      request.remove("object");
      request.remove("oldObject");
      MatchConditionPrograms.Result result = conditions.evaluate(object, oldObject, request);
      if (!result.errors().isEmpty() && result.failedCondition() == null) {
        if (hook.ignoresFailures()) {
          return Optional.empty();
        }
        String why = result.errors().size() == 1 ? result.errors().getFirst()
            : "[" + String.join(", ", result.errors()) + "]";
        throw StatusException.forbidden(a.resource().group(), a.resource().plural(), a.name(), why);
      }
      if (!result.matches()) {
        return Optional.empty();
      }
    }
    return invocation;
  }

  private static Optional<WebhookInvocation> byRules(AdmissionWebhook hook, AdmissionAttributes a) {
    ResourceDefinition def = a.resource();
    String[] kind = AdmissionReviews.requestKind(def, a.subresource());
    RuleMatcher.Target own = new RuleMatcher.Target(a.operation().name(), def.group(), def.version(), def.plural(),
        a.subresource(), a.namespace());
    for (AdmissionWebhook.Rule r : hook.rules()) {
      if (RuleMatcher.matches(r, own)) {
        return Optional.of(new WebhookInvocation(hook, def.group(), def.version(), def.plural(), a.subresource(),
            kind[0], kind[1], kind[2]));
      }
    }
    if (!hook.matchPolicy().equals("Equivalent")) {
      return Optional.empty();
    }
    List<String> versions = equivalentVersions(def);
    for (AdmissionWebhook.Rule r : hook.rules()) {
      for (String v : versions) {
        RuleMatcher.Target equivalent = new RuleMatcher.Target(a.operation().name(), def.group(), v, def.plural(),
            a.subresource(), a.namespace());
        if (RuleMatcher.matches(r, equivalent)) {
          return Optional.of(new WebhookInvocation(hook, def.group(), v, def.plural(), a.subresource(), kind[0], v,
              kind[2]));
        }
      }
    }
    return Optional.empty();
  }

  /** The other served versions of the resource: a custom resource's other served versions, in its order. */
  private static List<String> equivalentVersions(ResourceDefinition def) {
    List<String> out = new ArrayList<>();
    def.customResource().ifPresent(cr -> cr.spec().path("versions").forEach(v -> {
      String name = v.path("name").asText("");
      if (v.path("served").asBoolean(false) && !name.equals(def.version())) {
        out.add(name);
      }
    }));
    return out;
  }

  /**
   * The labels of the write's namespace when a webhook's namespace selector must judge them (as
   * the cache has it, else as storage does, as kube's matcher falls back to a live read); null
   * when it does not exist; empty when no selector needs them.
   */
  static java.util.concurrent.CompletableFuture<Map<String, String>> namespaceLabels(
      io.listwatch.apiserver.admission.Listers listers, AdmissionAttributes a, List<AdmissionWebhook> hooks) {
    if (!readsNamespace(a) || hooks.stream().allMatch(h -> h.namespaceSelector().isEverything())) {
      return java.util.concurrent.CompletableFuture.completedFuture(Map.of());
    }
    Optional<ObjectNode> cached = listers.get("", "namespaces", "", a.namespace());
    java.util.concurrent.CompletableFuture<Optional<ObjectNode>> ns = cached.isPresent()
        ? java.util.concurrent.CompletableFuture.completedFuture(cached)
        : listers.getLive("", "namespaces", "", a.namespace());
    return ns.thenApply(found -> found.map(WebhookSelection::labels).orElse(null));
  }

  static Map<String, String> labels(JsonNode object) {
    Map<String, String> labels = new HashMap<>();
    if (object != null) {
      object.path("metadata").path("labels").properties().forEach(e -> labels.put(e.getKey(), e.getValue().asText()));
    }
    return labels;
  }
}
