package io.listwatch.api.apply;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A custom resource's ownership, as kube derives it from the CRD's structural schema markers. */
class StructuralApplySchemaTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode json(String s) {
    try {
      return JSON.readTree(s.replace('\'', '"'));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static final ApplySchema WIDGET = StructuralApplySchema.of(json("""
      {'type':'object','properties':{'spec':{'type':'object','properties':{
        'ports':{'type':'array','x-kubernetes-list-type':'map','x-kubernetes-list-map-keys':['name','protocol'],
          'items':{'type':'object','properties':{'name':{'type':'string'},
            'protocol':{'type':'string','default':'TCP'},'port':{'type':'integer'}}}},
        'tags':{'type':'array','x-kubernetes-list-type':'set','items':{'type':'string'}},
        'args':{'type':'array','items':{'type':'string'}},
        'selector':{'type':'object','x-kubernetes-map-type':'atomic','properties':{'app':{'type':'string'}}},
        'env':{'type':'object','additionalProperties':{'type':'object','properties':{'v':{'type':'string'}}}}}}}}"""));

  @Test
  void fieldSet_followsTheMarkers_listMapKeysWithTheirDefaults_setsByValue_atomicWhole() {
    JsonNode widget = json("""
        {'spec':{'ports':[{'name':'http','port':80}],'tags':['a','b'],'args':['x'],
          'selector':{'app':'web'},'env':{'LOG':{'v':'debug'}}}}""");

    JsonNode fields = FieldsV1.toJson(FieldSet.of(widget, WIDGET)).path("f:spec");

    assertThat(fields.fieldNames()).toIterable()
        .containsExactlyInAnyOrder("f:args", "f:env", "f:ports", "f:selector", "f:tags");
    assertThat(fields.path("f:ports").has("k:{\"name\":\"http\",\"protocol\":\"TCP\"}"))
        .as("the key's default filled in").isTrue();
    assertThat(fields.path("f:tags").fieldNames()).toIterable().containsExactlyInAnyOrder("v:\"a\"", "v:\"b\"");
    assertThat(fields.path("f:args").isEmpty()).as("an atomic list is one leaf").isTrue();
    assertThat(fields.path("f:selector").isEmpty()).as("an atomic map is one leaf").isTrue();
    assertThat(fields.path("f:env").fieldNames()).toIterable().containsExactlyInAnyOrder("f:LOG");
    assertThat(fields.path("f:env").path("f:LOG").fieldNames()).toIterable().as("a map entry: itself and its fields")
        .containsExactlyInAnyOrder(".", "f:v");
  }

  @Test
  void apply_mergesMapListItemsByKey_andSetsAsUnions() {
    FieldManager manager = new FieldManager(WIDGET);
    JsonNode live = manager.apply(null, json("""
        {'apiVersion':'example.com/v1','kind':'Widget','metadata':{'name':'w'},
         'spec':{'ports':[{'name':'http','port':80}],'tags':['a']}}"""), "alice", "example.com/v1", false,
        Instant.parse("2026-11-24T20:00:00Z")).object();

    JsonNode merged = manager.apply(live, json("""
        {'apiVersion':'example.com/v1','kind':'Widget','metadata':{'name':'w'},
         'spec':{'ports':[{'name':'metrics','port':9090}],'tags':['b']}}"""), "bob", "example.com/v1", false,
        Instant.parse("2026-11-24T20:01:00Z")).object();

    assertThat(merged.at("/spec/ports").findValuesAsText("name")).containsExactly("http", "metrics");
    assertThat(merged.at("/spec/tags").toString()).isEqualTo("[\"a\",\"b\"]");
    assertThat(merged.at("/metadata/managedFields").findValuesAsText("manager")).containsExactly("alice", "bob");
  }

  @Test
  void anUndescribedNode_behavesAsKubesDefault() {
    assertThat(StructuralApplySchema.of(null)).isSameAs(ApplySchema.DEDUCED);
    assertThat(WIDGET.field("status").listType()).isEqualTo(io.listwatch.api.patch.ListType.ATOMIC);
    assertThat(WIDGET.field("spec").field("env").declaresField("LOG")).isFalse();
    assertThat(WIDGET.field("spec").declaresField("ports")).isTrue();
  }
}
