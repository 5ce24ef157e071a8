/**
 * Calling out to webhooks (kube's {@code k8s.io/apiserver/pkg/util/webhook}): what admission
 * webhooks, conversion webhooks and aggregated APIs share. A
 * {@link io.listwatch.apiserver.webhook.WebhookClientConfig} says where a webhook is (a URL, or a
 * Service resolved through its Endpoints by {@link io.listwatch.apiserver.webhook.ServiceResolver})
 * and which CA to trust; {@link io.listwatch.apiserver.webhook.TlsClients} makes the HTTP
 * clients that check a server's certificate against that CA and the name it is called by
 * ({@code NamedServerTrust}), or trust anything for an APIService's {@code insecureSkipTLSVerify};
 * {@link io.listwatch.apiserver.webhook.WebhookClient} posts JSON to a webhook with them.
 */
package io.listwatch.apiserver.webhook;
