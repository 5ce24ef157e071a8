package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * networking.k8s.io/v1 NetworkPolicies: NAME, POD-SELECTOR (the selector of the pods the policy
 * applies to, {@code <none>} when it selects every pod), AGE. Stateless.
 */
public final class NetworkPolicyTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.string("Pod-Selector", "The pods the policy applies to."), ColumnDefinition.ageColumn());

  public NetworkPolicyTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode np, Instant now) {
    return TableRow.of(Cells.name(np), Cells.formatLabelSelector(np.path("spec").path("podSelector")),
        Cells.age(np, now));
  }
}
