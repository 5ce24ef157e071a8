/**
 * kube's admission webhooks ({@code k8s.io/apiserver/pkg/admission/plugin/webhook}): the
 * {@link io.listwatch.apiserver.admission.webhook.MutatingAdmissionWebhook} and
 * {@link io.listwatch.apiserver.admission.webhook.ValidatingAdmissionWebhook} plug-ins, which call
 * the webhooks of the Mutating- and ValidatingWebhookConfigurations over HTTPS.
 *
 * <ul>
 *   <li>{@code AdmissionWebhook}: one webhook of a configuration, read from its JSON (kube's
 *       {@code WebhookAccessor}); {@code WebhookSource} lists them in kube's order.</li>
 *   <li>{@code RuleMatcher} (kube's {@code predicates/rules}) and {@code WebhookSelection}
 *       (kube's {@code ShouldCallHook}: selectors, rules, matchPolicy Equivalent, matchConditions)
 *       decide which webhooks a write calls, as a {@code WebhookInvocation}.</li>
 *   <li>{@code AdmissionReviews}: the AdmissionReview v1 request and the checks of its response;
 *       {@code WebhookCalls} makes one call; {@code WebhookErrors} and
 *       {@code CallingWebhookException} word failures as kube does.</li>
 * </ul>
 */
package io.listwatch.apiserver.admission.webhook;
