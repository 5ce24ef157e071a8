package io.listwatch.apiserver.apiextensions;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.registry.ResourceRegistry;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** kube's naming rules, each conflict with the reason and message kube reports. */
class NamingConditionsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static ObjectNode crd(String names, String acceptedNames) {
    try {
      return (ObjectNode) JSON.readTree("""
          {"metadata":{"name":"x"},"spec":{"group":"example.com","names":%s},
           "status":{"acceptedNames":%s}}""".formatted(names, acceptedNames));
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  private static final ObjectNode OTHER = crd("{}",
      "{\"plural\":\"widgets\",\"singular\":\"widget\",\"shortNames\":[\"wd\"],\"kind\":\"Widget\",\"listKind\":\"WidgetList\"}");

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "{\"plural\":\"widget\",\"kind\":\"G\",\"listKind\":\"GList\"}|PluralConflict|\"widget\" is already in use",
      "{\"plural\":\"gadgets\",\"singular\":\"wd\",\"kind\":\"G\",\"listKind\":\"GList\"}|SingularConflict|\"wd\" is already in use",
      "{\"plural\":\"gadgets\",\"shortNames\":[\"gd\",\"wd\"],\"kind\":\"G\",\"listKind\":\"GList\"}|ShortNamesConflict|\"wd\" is already in use",
      "{\"plural\":\"gadgets\",\"shortNames\":[\"widget\",\"wd\"],\"kind\":\"G\",\"listKind\":\"GList\"}|ShortNamesConflict|[\"widget\" is already in use, \"wd\" is already in use]",
      "{\"plural\":\"gadgets\",\"kind\":\"Widget\",\"listKind\":\"GList\"}|KindConflict|\"Widget\" is already in use",
      "{\"plural\":\"gadgets\",\"kind\":\"G\",\"listKind\":\"WidgetList\"}|ListKindConflict|\"WidgetList\" is already in use",
      "{\"plural\":\"gadgets\",\"singular\":\"gadget\",\"shortNames\":[\"gd\"],\"kind\":\"Gadget\",\"listKind\":\"GadgetList\"}|NoConflicts|no conflicts found"})
  void aNameAnotherDefinitionOfTheGroupWasGiven_isRefused(String names, String reason, String message) {
    NamingConditions.Result r = NamingConditions.calculate(crd(names, "{}"), List.of(OTHER), List.of());

    assertThat(r.reason()).isEqualTo(reason);
    assertThat(r.message()).isEqualTo(message);
    assertThat(r.accepted()).isEqualTo(reason.equals("NoConflicts"));
  }

  @Test
  void aRefusedName_keepsTheOneAcceptedBefore_andTheOthersAreTaken() {
    ObjectNode crd = crd("{\"plural\":\"gadgets\",\"kind\":\"Widget\",\"listKind\":\"GadgetList\",\"categories\":[\"all\"]}",
        "{\"plural\":\"gadgets\",\"kind\":\"Gadget\",\"listKind\":\"OldList\"}");

    NamingConditions.Result r = NamingConditions.calculate(crd, List.of(OTHER), List.of());

    assertThat(r.accepted()).isFalse();
    assertThat(r.acceptedNames().path("kind").asText()).isEqualTo("Gadget");
    assertThat(r.acceptedNames().path("listKind").asText()).isEqualTo("GadgetList");
    assertThat(r.acceptedNames().path("categories").toString()).isEqualTo("[\"all\"]");
  }

  @Test
  void theNamesOfABuiltInOfTheGroup_areTaken() {
    List<ResourceDefinition> apps = ResourceRegistry.builtins().all().stream()
        .filter(d -> d.group().equals("apps")).toList();

    NamingConditions.Result r = NamingConditions.calculate(
        crd("{\"plural\":\"mydeploys\",\"shortNames\":[\"deploy\"],\"kind\":\"My\",\"listKind\":\"MyList\"}", "{}"),
        List.of(), apps);

    assertThat(r.reason()).isEqualTo("ShortNamesConflict");
    assertThat(r.message()).isEqualTo("\"deploy\" is already in use");
  }
}
