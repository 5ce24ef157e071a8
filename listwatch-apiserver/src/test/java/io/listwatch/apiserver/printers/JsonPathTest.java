package io.listwatch.apiserver.printers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonPathTest {

  private static final JsonNode OBJECT = Rows.json("""
      {"metadata":{"name":"w","labels":{"app.kubernetes.io/name":"web"}},
       "spec":{"replicas":3,"ports":[{"name":"http","port":80},{"name":"https","port":443}],"tags":["a","b"]},
       "status":{"conditions":[{"type":"Synced","status":"False"},{"type":"Ready","status":"True"}],
                 "observed":null}}
      """);

  private static List<String> texts(String path) {
    return JsonPath.parse(path).evaluate(OBJECT).stream().map(JsonPath::text).toList();
  }

  @Test
  void fieldPath_selectsTheValue_withOrWithoutTemplateBraces() {
    assertThat(texts(".spec.replicas")).containsExactly("3");
    assertThat(texts("{.spec.replicas}")).containsExactly("3");
    assertThat(texts("spec.replicas")).containsExactly("3");
  }

  @Test
  void missingKey_selectsNothing() {
    assertThat(texts(".spec.missing.deeper")).isEmpty();
    assertThat(texts(".spec.replicas.deeper")).isEmpty();
  }

  @Test
  void arrayIndex_countsFromEitherEnd_andOutOfRangeSelectsNothing() {
    assertThat(texts(".spec.ports[0].port")).containsExactly("80");
    assertThat(texts(".spec.ports[-1].name")).containsExactly("https");
    assertThat(texts(".spec.ports[5].name")).isEmpty();
    assertThat(texts(".spec.ports[*].port")).containsExactly("80", "443");
  }

  @Test
  void quotedKey_mayContainDotsAndSlashes() {
    assertThat(texts(".metadata.labels['app.kubernetes.io/name']")).containsExactly("web");
    assertThat(texts(".metadata.labels[\"app.kubernetes.io/name\"]")).containsExactly("web");
  }

  @Test
  void filter_selectsTheMatchingElements() {
    assertThat(texts(".status.conditions[?(@.type==\"Ready\")].status")).containsExactly("True");
    assertThat(texts(".status.conditions[?(@.type!='Ready')].type")).containsExactly("Synced");
    assertThat(texts(".spec.ports[?(@.port>100)].name")).containsExactly("https");
    assertThat(texts(".spec.ports[?(@.port)].name")).containsExactly("http", "https");
    assertThat(texts(".status.conditions[?(@.reason)].type")).isEmpty();
  }

  @Test
  void text_printsValuesAsKubesJsonPathDoes() {
    assertThat(texts(".spec.tags")).containsExactly("[a b]");
    assertThat(texts(".spec.ports[0]")).containsExactly("map[name:http port:80]");
    assertThat(texts(".status.observed")).containsExactly("<nil>");
  }

  @Test
  void unsupportedSyntax_isRefused() {
    assertThatThrownBy(() -> JsonPath.parse("..name")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> JsonPath.parse(".spec.ports[0:1]")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> JsonPath.parse(".spec.ports[0")).isInstanceOf(IllegalArgumentException.class);
  }
}
