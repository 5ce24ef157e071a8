package io.listwatch.apiserver.apiextensions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.Status;
import io.listwatch.api.StatusException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Expected messages are kube's apiextensions validation's, for the checks this server makes. */
class CustomResourceDefinitionValidationTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final CustomResourceDefinitionValidation VALIDATION = new CustomResourceDefinitionValidation();

  private static ObjectNode crd(String name, String spec) throws Exception {
    return (ObjectNode) JSON.readTree("{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\","
        + "\"metadata\":{\"name\":\"" + name + "\"},\"spec\":" + spec + "}");
  }

  private static final String GOOD_SPEC = """
      {"group":"example.com","scope":"Namespaced","names":{"plural":"widgets","kind":"Widget"},
       "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}},
        {"name":"v2beta1","served":true,"storage":false,"schema":{"openAPIV3Schema":{"type":"object"}}}]}""";

  private static List<String> causes(ObjectNode crd, ObjectNode old) {
    try {
      VALIDATION.admit(null, "", crd, old);
      return List.of();
    } catch (StatusException e) {
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.getMessage()).startsWith("CustomResourceDefinition.apiextensions.k8s.io \"" 
          + crd.path("metadata").path("name").asText() + "\" is invalid: ");
      return e.status().details().causes().stream().map(c -> c.field() + ": " + c.message()).toList();
    }
  }

  @Test
  void aGoodDefinition_passes_andGetsKubesDefaults() throws Exception {
    ObjectNode crd = crd("widgets.example.com", GOOD_SPEC);

    assertThat(causes(crd, null)).isEmpty();
    assertThat(crd.at("/spec/names/listKind").asText()).isEqualTo("WidgetList");
    assertThat(crd.at("/spec/names/singular").asText()).isEqualTo("widget");
    assertThat(crd.at("/spec/conversion/strategy").asText()).isEqualTo("None");
  }

  @Test
  void badNamesScopeAndVersions_areEachReported() throws Exception {
    ObjectNode crd = crd("widgets.example.org", """
        {"group":"example","scope":"Global","names":{"plural":"Widgets","kind":"Widget"},
         "versions":[{"name":"v1","storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}},
          {"name":"v1","storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}},
          {"name":"V3","schema":{"openAPIV3Schema":{"type":"object"}}}]}""");

    assertThat(causes(crd, null)).containsExactly(
        "metadata.name: Invalid value: \"widgets.example.org\": must be spec.names.plural+\".\"+spec.group",
        "spec.group: Invalid value: \"example\": should be a domain with at least one dot",
        "spec.scope: Unsupported value: \"Global\": supported values: \"Cluster\", \"Namespaced\"",
        "spec.names.plural: Invalid value: \"Widgets\": a DNS-1035 label must consist of lower case alphanumeric "
            + "characters or '-', start with an alphabetic character, and end with an alphanumeric character "
            + "(e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
        "spec.versions[1].name: Duplicate value: \"v1\"",
        "spec.versions[2].name: Invalid value: \"V3\": a DNS-1035 label must consist of lower case alphanumeric "
            + "characters or '-', start with an alphabetic character, and end with an alphanumeric character "
            + "(e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
        "spec.versions: Invalid value: []string{\"v1\", \"v1\", \"V3\"}: must have exactly one version marked as "
            + "storage version");
  }

  @Test
  void missingFields_areRequired() throws Exception {
    assertThat(causes(crd("x.y", "{}"), null)).contains("spec.group: Required value", "spec.scope: Required value",
        "spec.names.plural: Required value", "spec.names.kind: Required value",
        "spec.versions: Invalid value: \"null\": must have exactly one version marked as storage version");
  }

  @Test
  void groupScopeAndPlural_cannotChange() throws Exception {
    ObjectNode old = crd("widgets.example.com", GOOD_SPEC);
    ObjectNode changed = crd("widgets.example.com", GOOD_SPEC.replace("Namespaced", "Cluster"));

    assertThat(causes(changed, old)).containsExactly("spec.scope: Invalid value: \"Cluster\": field is immutable");
  }
}
