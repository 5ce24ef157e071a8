package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Nodes: NAME, STATUS ({@code Ready}, {@code NotReady} or {@code Unknown} from the Ready
 * condition, plus {@code SchedulingDisabled} when cordoned), ROLES (from
 * {@code node-role.kubernetes.io/<role>} and {@code kubernetes.io/role} labels), AGE, VERSION;
 * with {@code -o wide} INTERNAL-IP, EXTERNAL-IP, OS-IMAGE, KERNEL-VERSION, CONTAINER-RUNTIME.
 * Stateless.
 */
public final class NodeTableConvertor extends FixedColumnsTableConvertor {

  private static final String ROLE_PREFIX = "node-role.kubernetes.io/";
  private static final String ROLE_LABEL = "kubernetes.io/role";

  private static final List<ColumnDefinition> COLUMNS = List.of(
      ColumnDefinition.nameColumn(),
      ColumnDefinition.string("Status", "The status of the node."),
      ColumnDefinition.string("Roles", "The roles of the node."),
      ColumnDefinition.ageColumn(),
      ColumnDefinition.string("Version", "The kubelet version the node reports."),
      ColumnDefinition.wide("Internal-IP", "The node's first internal IP address."),
      ColumnDefinition.wide("External-IP", "The node's first external IP address."),
      ColumnDefinition.wide("OS-Image", "The operating system image the node reports."),
      ColumnDefinition.wide("Kernel-Version", "The kernel version the node reports."),
      ColumnDefinition.wide("Container-Runtime", "The container runtime version the node reports."));

  public NodeTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode node, Instant now) {
    JsonNode status = node.path("status");
    List<String> state = new ArrayList<>();
    for (JsonNode c : Cells.elements(status.path("conditions"))) {
      if (Cells.text(c.path("type")).equals("Ready")) {
        state.clear();
        state.add(Cells.text(c.path("status")).equals("True") ? "Ready" : "NotReady");
      }
    }
    if (state.isEmpty()) {
      state.add("Unknown");
    }
    if (node.path("spec").path("unschedulable").asBoolean(false)) {
      state.add("SchedulingDisabled");
    }
    TreeSet<String> roles = new TreeSet<>();
    JsonNode labels = node.path("metadata").path("labels");
    for (Iterator<Map.Entry<String, JsonNode>> it = labels.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (e.getKey().startsWith(ROLE_PREFIX)) {
        String role = e.getKey().substring(ROLE_PREFIX.length());
        if (!role.isEmpty()) {
          roles.add(role);
        }
      } else if (e.getKey().equals(ROLE_LABEL) && !Cells.text(e.getValue()).isEmpty()) {
        roles.add(Cells.text(e.getValue()));
      }
    }
    JsonNode info = status.path("nodeInfo");
    return TableRow.of(Cells.name(node), String.join(",", state),
        roles.isEmpty() ? "<none>" : String.join(",", roles), Cells.age(node, now),
        Cells.text(info.path("kubeletVersion")),
        address(status, "InternalIP"), address(status, "ExternalIP"),
        Cells.text(info.path("osImage"), "<unknown>"), Cells.text(info.path("kernelVersion"), "<unknown>"),
        Cells.text(info.path("containerRuntimeVersion"), "<unknown>"));
  }

  private static String address(JsonNode status, String type) {
    for (JsonNode a : Cells.elements(status.path("addresses"))) {
      if (Cells.text(a.path("type")).equals(type)) {
        return Cells.text(a.path("address"));
      }
    }
    return "<none>";
  }
}
