package io.listwatch.apiserver.admission.webhook;

/**
 * A webhook to call for a write, and at which group/version the review names the write (kube's
 * {@code WebhookInvocation}): the request's own, or, under {@code matchPolicy: Equivalent}, the
 * equivalent version the webhook's rules name.
 *
 * @param webhook the webhook
 * @param group the resource's group in the review
 * @param version the resource's (and kind's) version in the review
 * @param resource the resource's plural
 * @param subresource the subresource, "" for the main resource
 * @param kindGroup the group of the kind in the review
 * @param kind the kind in the review
 */
record WebhookInvocation(AdmissionWebhook webhook, String group, String version, String resource,
    String subresource, String kindGroup, String kindVersion, String kind) {

  /** The apiVersion of an object of this invocation's kind. */
  String apiVersion() {
    return kindGroup.isEmpty() ? kindVersion : kindGroup + "/" + kindVersion;
  }
}
