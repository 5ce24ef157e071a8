package io.listwatch.apiserver.printers;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Mutating and validating webhook configurations: kube's NAME, WEBHOOKS, AGE. */
class WebhookConfigurationTableConvertorTest {

  @Test
  void webhookConfiguration_countsItsWebhooks() {
    WebhookConfigurationTableConvertor c = new WebhookConfigurationTableConvertor();
    assertThat(Rows.shapes(c)).containsExactly("Name:string:name", "Webhooks:integer", "Age:string");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"pod-policy\",\"creationTimestamp\":\"" + Rows.CREATED_5M_AGO
        + "\"},\"webhooks\":[{\"name\":\"a.example.com\"},{\"name\":\"b.example.com\"}]}"))
        .containsExactly("pod-policy", 2L, "5m");
    assertThat(Rows.cells(c, "{\"metadata\":{\"name\":\"empty\"}}")).containsExactly("empty", 0L, "<unknown>");
  }
}
