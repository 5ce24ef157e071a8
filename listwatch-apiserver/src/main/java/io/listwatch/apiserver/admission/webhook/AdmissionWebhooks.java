package io.listwatch.apiserver.admission.webhook;

import io.listwatch.apiserver.admission.AdmissionPlugin;
import io.listwatch.apiserver.admission.Listers;
import io.listwatch.apiserver.webhook.ServiceResolver;
import io.listwatch.apiserver.webhook.WebhookClient;
import java.util.List;

/**
 * The webhook plug-ins of one server, for {@code DefaultPlugins.chain}: both read their
 * configurations and resolve Services through the server's {@link Listers}, and share one
 * {@link WebhookClient} (so connections to a webhook are reused). Stateless.
 */
public final class AdmissionWebhooks {

  private AdmissionWebhooks() {
  }

  /** {@link MutatingAdmissionWebhook} and {@link ValidatingAdmissionWebhook} over {@code listers}. */
  public static List<AdmissionPlugin> plugins(Listers listers) {
    WebhookClient client = new WebhookClient(new ServiceResolver(listers));
    return List.of(new MutatingAdmissionWebhook(listers, client::post), new ValidatingAdmissionWebhook(listers, client::post));
  }
}
