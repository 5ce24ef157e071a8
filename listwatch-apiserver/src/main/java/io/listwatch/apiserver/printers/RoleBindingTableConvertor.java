package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * RoleBindings and ClusterRoleBindings: NAME, ROLE ({@code Kind/name} of the roleRef), AGE;
 * with {@code -o wide} USERS, GROUPS and SERVICEACCOUNTS ({@code namespace:name}) among the
 * subjects. Roles and ClusterRoles print with the default columns (Name, Created At), as in
 * kube. Stateless.
 */
public final class RoleBindingTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(
      ColumnDefinition.nameColumn(),
      ColumnDefinition.string("Role", "The role the binding grants."),
      ColumnDefinition.ageColumn(),
      ColumnDefinition.wide("Users", "Users in the binding."),
      ColumnDefinition.wide("Groups", "Groups in the binding."),
      ColumnDefinition.wide("ServiceAccounts", "Service accounts in the binding."));

  public RoleBindingTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode binding, Instant now) {
    JsonNode ref = binding.path("roleRef");
    List<String> users = new ArrayList<>();
    List<String> groups = new ArrayList<>();
    List<String> serviceAccounts = new ArrayList<>();
    for (JsonNode s : Cells.elements(binding.path("subjects"))) {
      String name = Cells.text(s.path("name"));
      switch (Cells.text(s.path("kind"))) {
        case "User" -> users.add(name);
        case "Group" -> groups.add(name);
        case "ServiceAccount" -> serviceAccounts.add(Cells.text(s.path("namespace")) + ":" + name);
        default -> { }
      }
    }
    return TableRow.of(Cells.name(binding), Cells.text(ref.path("kind")) + "/" + Cells.text(ref.path("name")),
        Cells.age(binding, now), String.join(", ", users), String.join(", ", groups),
        String.join(", ", serviceAccounts));
  }
}
