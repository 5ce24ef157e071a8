package io.listwatch.apiserver.admission.webhook;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.admission.Listers;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The webhooks of every configuration of one kind, in kube's order: configurations sorted by
 * name, each one's webhooks in their order (kube's configuration manager). Read from the
 * {@link Listers} at each write, so a configuration applies as soon as the cache has it; each
 * configuration is parsed (its match conditions compiled) once per resourceVersion.
 *
 * <p>Thread-safe.
 */
final class WebhookSource {

  private static final String GROUP = "admissionregistration.k8s.io";

  private final Listers listers;
  private final String plural;
  /** Parsed configurations by uid, with the resourceVersion parsed; entries of deleted ones are dropped. */
  private final Map<String, Parsed> parsed = new ConcurrentHashMap<>();

  private record Parsed(String resourceVersion, List<AdmissionWebhook> webhooks) {
  }

  /** The webhooks of the configurations {@code plural} names ({@code mutatingwebhookconfigurations}, ...). */
  WebhookSource(Listers listers, String plural) {
    this.listers = listers;
    this.plural = plural;
  }

  List<AdmissionWebhook> webhooks() {
    List<ObjectNode> configurations = new ArrayList<>(listers.list(GROUP, plural, ""));
    if (configurations.isEmpty()) {
      parsed.clear();
      return List.of();
    }
    configurations.sort(Comparator.comparing(c -> c.path("metadata").path("name").asText("")));
    List<AdmissionWebhook> all = new ArrayList<>();
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (ObjectNode c : configurations) {
      String uid = c.path("metadata").path("uid").asText(c.path("metadata").path("name").asText(""));
      String rv = c.path("metadata").path("resourceVersion").asText("");
      seen.add(uid);
      Parsed p = parsed.get(uid);
      if (p == null || rv.isEmpty() || !p.resourceVersion().equals(rv)) {
        p = new Parsed(rv, AdmissionWebhook.of(c));
        parsed.put(uid, p);
      }
      all.addAll(p.webhooks());
    }
    parsed.keySet().retainAll(seen);
    return all;
  }
}
