package io.listwatch.api.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each case: a schema, an object, and the object after kube's structural defaulting. */
class DefaulterTest {

  private static final String SCHEMA = "{'type':'object','properties':{'spec':{'type':'object',"
      + "'default':{},'properties':{"
      + "'replicas':{'type':'integer','default':1},"
      + "'mode':{'type':'string','default':'fast'},"
      + "'note':{'type':'string','nullable':true,'default':'n'},"
      + "'strategy':{'type':'object','default':{'type':'Rolling'},'properties':{"
      + "  'type':{'type':'string'},'maxSurge':{'type':'integer','default':25}}},"
      + "'ports':{'type':'array','items':{'type':'object','default':{'port':80},'properties':{"
      + "  'port':{'type':'integer'},'protocol':{'type':'string','default':'TCP'}}}},"
      + "'limits':{'type':'object','additionalProperties':{'type':'string','default':'1'}}"
      + "}}}}";

  static Stream<Arguments> cases() {
    return Stream.of(
        c("a missing object gets its default, then the default's fields get theirs",
            "{}",
            "{'spec':{'replicas':1,'mode':'fast','note':'n','strategy':{'type':'Rolling','maxSurge':25}}}"),
        c("values that are set are kept",
            "{'spec':{'replicas':3,'mode':'slow','note':'x','strategy':{'type':'Recreate','maxSurge':1}}}",
            "{'spec':{'replicas':3,'mode':'slow','note':'x','strategy':{'type':'Recreate','maxSurge':1}}}"),
        c("null is defaulted when not nullable, kept when nullable",
            "{'spec':{'replicas':null,'note':null}}",
            "{'spec':{'replicas':1,'mode':'fast','note':null,'strategy':{'type':'Rolling','maxSurge':25}}}"),
        c("list items get their fields' defaults; a null item gets the item default",
            "{'spec':{'ports':[{'port':8080},null]}}",
            "{'spec':{'replicas':1,'mode':'fast','note':'n','strategy':{'type':'Rolling','maxSurge':25},"
                + "'ports':[{'port':8080,'protocol':'TCP'},{'port':80}]}}"),
        c("a null map value gets the additionalProperties default",
            "{'spec':{'limits':{'cpu':null,'mem':'2'}}}",
            "{'spec':{'replicas':1,'mode':'fast','note':'n','strategy':{'type':'Rolling','maxSurge':25},"
                + "'limits':{'cpu':'1','mem':'2'}}}"),
        c("unknown fields are left alone",
            "{'spec':{'other':{'replicas':null}}}",
            "{'spec':{'other':{'replicas':null},'replicas':1,'mode':'fast','note':'n',"
                + "'strategy':{'type':'Rolling','maxSurge':25}}}"));
  }

  private static Arguments c(String name, String object, String expected) {
    return Arguments.of(name, object, expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void apply_fillsInDefaults(String name, String object, String expected) {
    JsonNode value = Json.parse(object);

    Defaulter.apply(Json.parse(SCHEMA), value);

    assertThat(value).isEqualTo(Json.parse(expected));
  }

  @Test
  void apply_copiesDefaults_soObjectsDoNotShareThem() {
    JsonNode schema = Json.parse(SCHEMA);
    JsonNode first = Json.parse("{}");
    JsonNode second = Json.parse("{}");
    Defaulter.apply(schema, first);
    Defaulter.apply(schema, second);

    ((com.fasterxml.jackson.databind.node.ObjectNode) first.get("spec").get("strategy"))
        .put("type", "changed");

    assertThat(second.at("/spec/strategy/type").asText()).isEqualTo("Rolling");
    assertThat(schema.at("/properties/spec/properties/strategy/default/type").asText())
        .isEqualTo("Rolling");
  }
}
