package io.listwatch.apiserver.strategy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.validation.NameSyntax;
import io.listwatch.apiserver.validation.FieldErrors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * CSINodes (storage.k8s.io/v1), kube 1.32's strategy and validation; kube has no defaults for
 * them.
 *
 * <p>Validation ({@code ValidateCSINode}, with the long node IDs kube's strategy allows since
 * 1.22): each driver's name a CSI driver name ({@link CSIDriverNames}) and not given twice, its
 * {@code nodeID} required and at most 256 characters, its {@code allocatable.count} not
 * negative, its topology keys non-empty qualified names without duplicates (errors at the
 * driver's path, as kube's). On update ({@code ValidateCSINodeUpdate}) a driver that was there
 * already (by name) may not change at all: kube reports {@code CSINodeDriver: Invalid value:
 * <the new driver>: field is immutable}; drivers may be added and removed. Stateless.
 */
final class CSINodeStrategy implements RestStrategy {

  private static final int MAX_NODE_ID_LENGTH = 256;

  @Override
  public void validate(ObjectNode obj, ObjectNode old, List<Status.Cause> errors) {
    JsonNode drivers = obj.path("spec").path("drivers");
    Set<String> names = new HashSet<>();
    for (int i = 0; i < drivers.size(); i++) {
      driver(drivers.get(i), "spec.drivers[" + i + "]", names, errors);
    }
    if (old == null) {
      return;
    }
    for (JsonNode oldDriver : old.path("spec").path("drivers")) {
      for (JsonNode driver : drivers) {
        String name = driver.path("name").asText("");
        if (name.equals(oldDriver.path("name").asText("")) && !driver.equals(oldDriver)) {
          errors.add(FieldErrors.invalid("CSINodeDriver", goStruct(driver), "field is immutable"));
        }
      }
    }
  }

  private static void driver(JsonNode driver, String path, Set<String> names, List<Status.Cause> errors) {
    String name = driver.path("name").asText("");
    CSIDriverNames.check(name, path + ".name", errors);
    String nodeId = driver.path("nodeID").asText("");
    if (nodeId.isEmpty()) {
      errors.add(FieldErrors.required(path + ".nodeID", ""));
    }
    if (NameSyntax.byteLength(nodeId) > MAX_NODE_ID_LENGTH) {
      errors.add(FieldErrors.invalid(path + ".nodeID", nodeId, "must be " + MAX_NODE_ID_LENGTH + " characters or less"));
    }
    NumericFields.nonNegative(driver.path("allocatable").path("count"), path + ".allocatable.count", errors);
    if (!names.add(name)) {
      errors.add(FieldErrors.duplicate(path + ".name", name));
    }
    Set<String> keys = new HashSet<>();
    for (JsonNode k : driver.path("topologyKeys")) {
      String key = k.asText("");
      if (key.isEmpty()) {
        errors.add(FieldErrors.required(path, ""));
      }
      if (!keys.add(key)) {
        errors.add(FieldErrors.duplicate(path, key));
      }
      for (String msg : NameSyntax.isQualifiedName(key)) {
        errors.add(FieldErrors.invalid(path, key, msg));
      }
    }
  }

  /**
   * Go's {@code %#v} of a {@code storage.CSINodeDriver}. A non-nil {@code allocatable} is a
   * pointer, which Go prints as an address; it is shown as the zero address.
   */
  private static GoLiteral goStruct(JsonNode driver) {
    List<String> keys = new ArrayList<>();
    driver.path("topologyKeys").forEach(k -> keys.add(k.asText("")));
    return GoLiteral.struct("storage.CSINodeDriver",
        "Name", FieldErrors.goValue(driver.path("name").asText("")),
        "NodeID", FieldErrors.goValue(driver.path("nodeID").asText("")),
        "TopologyKeys", driver.path("topologyKeys").isArray() ? FieldErrors.goValue(keys) : "[]string(nil)",
        "Allocatable", GoLiteral.pointer("storage.VolumeNodeResources", NumericFields.given(driver.path("allocatable"))));
  }
}
