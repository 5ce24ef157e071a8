package io.listwatch.apiserver.admission.webhook;

import static io.listwatch.apiserver.admission.webhook.MutatingAdmissionWebhookTest.configuration;
import static io.listwatch.apiserver.admission.webhook.MutatingAdmissionWebhookTest.create;
import static io.listwatch.apiserver.admission.webhook.MutatingAdmissionWebhookTest.pod;
import static io.listwatch.apiserver.admission.webhook.MutatingAdmissionWebhookTest.webhook;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.admission.AdmissionAttributes;
import io.listwatch.apiserver.webhook.WebhookClient;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** The validating phase of admission webhooks: concurrent calls, the first refusal, failure policies. */
class ValidatingAdmissionWebhookTest {

  private final FakeWebhooks fake = new FakeWebhooks();
  private final ValidatingAdmissionWebhook plugin = new ValidatingAdmissionWebhook(fake, fake);

  private void configure(String name, String... webhooks) {
    fake.add("admissionregistration.k8s.io", "validatingwebhookconfigurations", "", configuration(name, webhooks));
  }

  private static void join(CompletableFuture<Void> f) {
    try {
      f.join();
    } catch (CompletionException e) {
      throw (RuntimeException) e.getCause();
    }
  }

  @Test
  void webhooks_areCalledAllAtOnce_andTheFirstRefusalToEndIsTheAnswer() {
    configure("a", webhook("slow", ""), webhook("fast", ""));
    CompletableFuture<WebhookClient.Response> slow = new CompletableFuture<>();
    fake.handle("https://slow/", r -> slow);
    fake.answer("https://fast/", r -> "\"allowed\":false,\"status\":{\"message\":\"fast says no\"}");

    CompletableFuture<Void> validated = plugin.validate(create(pod("p"), false));
    assertThat(fake.urls()).containsExactly("https://slow/", "https://fast/"); // both posted before either answered
    assertThat(validated).isNotDone();
    String uid = fake.posts.getFirst().review().path("request").path("uid").asText();
    slow.complete(new WebhookClient.Response(200, FakeWebhooks.review(uid,
        "\"allowed\":false,\"status\":{\"message\":\"slow says no\"}").getBytes(StandardCharsets.UTF_8)));
    assertThatThrownBy(() -> join(validated)).isInstanceOfSatisfying(StatusException.class, e ->
        assertThat(e.getMessage()).isEqualTo("admission webhook \"fast\" denied the request: fast says no"));
  }

  @Test
  void failurePolicies_failClosedWith500_orOpenNotedByTheIndexOfTheMatchingWebhook() {
    configure("a", webhook("other", "\"rules\":[]"), webhook("down", "\"failurePolicy\":\"Ignore\""),
        webhook("ok", ""));
    fake.answer("https://ok/", r -> "\"allowed\":true");
    AdmissionAttributes a = create(pod("p"), false);
    join(plugin.validate(a));
    assertThat(a.auditAnnotations().map()).containsEntry("failed-open.validating.webhook.admission.k8s.io/round_0_index_0",
        "down");

    configure("a", webhook("down", ""));
    assertThatThrownBy(() -> join(plugin.validate(create(pod("p"), false)))).isInstanceOfSatisfying(StatusException.class,
        e -> {
          assertThat(e.code()).isEqualTo(500);
          assertThat(e.getMessage()).isEqualTo("Internal error occurred: failed calling webhook \"down\": failed to call "
              + "webhook: Post \"https://down/?timeout=10s\": dial tcp 127.0.0.1:443: connect: connection refused");
        });
  }

  @Test
  void aValidatingWebhook_mayNotPatch() {
    configure("a", webhook("patcher", ""));
    fake.answer("https://patcher/", r -> FakeWebhooks.patch("[]"));
    assertThatThrownBy(() -> join(plugin.validate(create(pod("p"), false)))).isInstanceOfSatisfying(StatusException.class,
        e -> assertThat(e.getMessage()).isEqualTo("Internal error occurred: failed calling webhook \"patcher\": "
            + "received invalid webhook response: validating webhook may not return response.patch"));
  }
}
