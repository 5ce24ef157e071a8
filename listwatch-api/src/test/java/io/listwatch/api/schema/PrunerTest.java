package io.listwatch.api.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each case: a schema, an object, the object kube stores after pruning, and the pruned paths. */
class PrunerTest {

  static Stream<Arguments> cases() {
    return Stream.of(
        c("unknown fields are removed, known ones kept",
            "{'type':'object','properties':{'spec':{'type':'object','properties':{'a':{'type':'string'}}}}}",
            "{'apiVersion':'x/v1','kind':'X','metadata':{'name':'n','foo':1},'spec':{'a':'1','b':2},'extra':true}",
            "{'apiVersion':'x/v1','kind':'X','metadata':{'name':'n','foo':1},'spec':{'a':'1'}}",
            "spec.b", "extra"),
        c("list items are pruned by the items schema",
            "{'type':'object','properties':{'l':{'type':'array','items':{'type':'object','properties':{'n':{'type':'string'}}}}}}",
            "{'l':[{'n':'a','x':1},{'y':2}]}",
            "{'l':[{'n':'a'},{}]}",
            "l[0].x", "l[1].y"),
        c("preserve-unknown-fields keeps unknown fields whole but prunes specified ones",
            "{'type':'object','properties':{'raw':{'type':'object','x-kubernetes-preserve-unknown-fields':true,"
                + "'properties':{'known':{'type':'object','properties':{'a':{'type':'string'}}}}}}}",
            "{'raw':{'free':{'deep':[1,{'z':2}]},'known':{'a':'x','b':'y'}}}",
            "{'raw':{'free':{'deep':[1,{'z':2}]},'known':{'a':'x'}}}",
            "raw.known.b"),
        c("preserve-unknown-fields at the root keeps everything unspecified",
            "{'type':'object','x-kubernetes-preserve-unknown-fields':true}",
            "{'spec':{'anything':1}}",
            "{'spec':{'anything':1}}"),
        c("map values are pruned by the additionalProperties schema",
            "{'type':'object','properties':{'m':{'type':'object','additionalProperties':{'type':'object',"
                + "'properties':{'a':{'type':'string'}}}}}}",
            "{'m':{'k1':{'a':'1','b':'2'},'k2':{}}}",
            "{'m':{'k1':{'a':'1'},'k2':{}}}",
            "m.k1.b"),
        c("an embedded resource keeps apiVersion, kind and metadata",
            "{'type':'object','properties':{'t':{'type':'object','x-kubernetes-embedded-resource':true,"
                + "'properties':{'spec':{'type':'object'}}}}}",
            "{'t':{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p'},'spec':{'x':1},'status':{}}}",
            "{'t':{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p'},'spec':{}}}",
            "t.spec.x", "t.status"),
        c("apiVersion and kind that are not strings are not type meta",
            "{'type':'object','properties':{}}",
            "{'apiVersion':1,'kind':'X','metadata':'m'}",
            "{'kind':'X'}",
            "apiVersion", "metadata"));
  }

  private static Arguments c(String name, String schema, String object, String expected,
      String... pruned) {
    return Arguments.of(name, schema, object, expected, List.of(pruned));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void prune_removesUnspecifiedFields(String name, String schema, String object, String expected,
      List<String> pruned) {
    JsonNode value = Json.parse(object);

    List<String> paths = Pruner.prune(Json.parse(schema), value);

    assertThat(value).isEqualTo(Json.parse(expected));
    assertThat(paths).containsExactlyInAnyOrderElementsOf(pruned);
  }

  @Test
  void prune_belowTheRoot_prunesTypeMetaToo() {
    JsonNode value = Json.parse("{'kind':'X','a':1}");

    List<String> paths = Pruner.prune(
        Json.parse("{'type':'object','properties':{'a':{'type':'integer'}}}"), value, false);

    assertThat(value).isEqualTo(Json.parse("{'a':1}"));
    assertThat(paths).containsExactly("kind");
  }

  @Test
  void unknownField_isKubesWarningText() {
    assertThat(Pruner.unknownField("spec.foo")).isEqualTo("unknown field \"spec.foo\"");
  }
}
