package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * storage.k8s.io/v1 CSIDrivers, as kube's {@code printCSIDriver}: NAME, ATTACHREQUIRED (true
 * when unset), PODINFOONMOUNT, STORAGECAPACITY (false when unset), TOKENREQUESTS (the
 * audiences joined by commas, {@code <unset>} without a list), REQUIRESREPUBLISH (false when
 * unset), MODES (joined by commas, {@code <none>} when empty), AGE. Stateless.
 */
public final class CSIDriverTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.bool("AttachRequired", "Whether the driver needs an attach operation."),
      ColumnDefinition.bool("PodInfoOnMount", "Whether the driver gets the pod's information on mount."),
      ColumnDefinition.bool("StorageCapacity", "Whether the scheduler considers the driver's storage capacity."),
      ColumnDefinition.string("TokenRequests", "The audiences of the service account tokens the driver gets."),
      ColumnDefinition.bool("RequiresRepublish", "Whether the driver's volumes are mounted again periodically."),
      ColumnDefinition.string("Modes", "The volume lifecycle modes the driver supports."),
      ColumnDefinition.ageColumn());

  public CSIDriverTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode driver, Instant now) {
    JsonNode spec = driver.path("spec");
    List<String> modes = new ArrayList<>();
    spec.path("volumeLifecycleModes").forEach(m -> modes.add(m.asText("")));
    String joinedModes = String.join(",", modes);
    String tokenRequests = "<unset>";
    if (spec.path("tokenRequests").isArray()) {
      List<String> audiences = new ArrayList<>();
      spec.path("tokenRequests").forEach(t -> audiences.add(t.path("audience").asText("")));
      tokenRequests = String.join(",", audiences);
    }
    return TableRow.of(Cells.name(driver), spec.path("attachRequired").asBoolean(true),
        spec.path("podInfoOnMount").asBoolean(false), spec.path("storageCapacity").asBoolean(false),
        tokenRequests, spec.path("requiresRepublish").asBoolean(false),
        joinedModes.isEmpty() ? "<none>" : joinedModes, Cells.age(driver, now));
  }
}
