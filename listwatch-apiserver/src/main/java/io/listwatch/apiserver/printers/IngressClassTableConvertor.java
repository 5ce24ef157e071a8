package io.listwatch.apiserver.printers;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * networking.k8s.io/v1 IngressClasses: NAME, CONTROLLER, PARAMETERS ({@code <kind>[.<apiGroup>]/<name>},
 * {@code <none>} without a reference), AGE, as kube 1.32 prints them. Stateless.
 */
public final class IngressClassTableConvertor extends FixedColumnsTableConvertor {

  private static final List<ColumnDefinition> COLUMNS = List.of(ColumnDefinition.nameColumn(),
      ColumnDefinition.string("Controller", "The controller that implements this class."),
      ColumnDefinition.string("Parameters", "The resource that holds the controller's configuration of this class."),
      ColumnDefinition.ageColumn());

  public IngressClassTableConvertor() {
    super(COLUMNS);
  }

  @Override
  public TableRow row(JsonNode ic, Instant now) {
    JsonNode params = ic.path("spec").path("parameters");
    String parameters = "<none>";
    if (params.isObject()) {
      parameters = params.path("kind").asText("");
      if (params.path("apiGroup").isTextual()) {
        parameters += "." + params.path("apiGroup").asText();
      }
      parameters += "/" + params.path("name").asText("");
    }
    return TableRow.of(Cells.name(ic), Cells.text(ic.path("spec").path("controller")), parameters, Cells.age(ic, now));
  }
}
