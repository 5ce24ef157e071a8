package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * admissionregistration.k8s.io/v1 MutatingWebhookConfigurations and
 * ValidatingWebhookConfigurations (kube prints both alike): NAME, WEBHOOKS (how many the
 * configuration holds), AGE. Stateless.
 */
public final class WebhookConfigurationTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.integer("Webhooks", "Webhooks indicates the number of webhooks registered in this configuration"),
      ColumnDefinition.ageColumn());

  public WebhookConfigurationTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode configuration, Instant now) {
    return TableRow.of(Cells.name(configuration), (long) configuration.path("webhooks").size(),
        Cells.age(configuration, now));
  }
}
