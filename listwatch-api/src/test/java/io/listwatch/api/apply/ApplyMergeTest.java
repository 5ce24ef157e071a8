package io.listwatch.api.apply;

import static io.listwatch.api.apply.FieldsV1Test.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ApplyMergeTest {

  static final ApplySchema POD = BuiltinApplySchema.forKind("", "v1", "Pod");
  static final ApplySchema DEPLOYMENT = BuiltinApplySchema.forKind("apps", "v1", "Deployment");

  /** Live object, applied configuration, merged result. */
  static Stream<Arguments> merges() {
    return Stream.of(
        Arguments.of("list-map items merge by key; live-only items keep their place, new ones come in applied order",
            POD,
            "{'spec':{'containers':[{'name':'a','image':'1'},{'name':'b','image':'2','tty':true}]}}",
            "{'spec':{'containers':[{'name':'c','image':'3'},{'name':'b','image':'9'}]}}",
            "{'spec':{'containers':[{'name':'a','image':'1'},{'name':'c','image':'3'},{'name':'b','image':'9','tty':true}]}}"),
        Arguments.of("shared items follow the applier's order", POD,
            "{'spec':{'containers':[{'name':'a'},{'name':'x'},{'name':'b'}]}}",
            "{'spec':{'containers':[{'name':'b'},{'name':'a'},{'name':'n'}]}}",
            "{'spec':{'containers':[{'name':'x'},{'name':'b'},{'name':'a'},{'name':'n'}]}}"),
        Arguments.of("ports match by containerPort and the defaulted protocol", POD,
            "{'spec':{'containers':[{'name':'a','ports':[{'containerPort':80,'protocol':'TCP','name':'http'}]}]}}",
            "{'spec':{'containers':[{'name':'a','ports':[{'containerPort':80,'hostPort':8080}]}]}}",
            "{'spec':{'containers':[{'name':'a','ports':[{'containerPort':80,'protocol':'TCP','name':'http','hostPort':8080}]}]}}"),
        Arguments.of("sets are unions", POD,
            "{'metadata':{'finalizers':['x','y']}}", "{'metadata':{'finalizers':['z','x']}}",
            "{'metadata':{'finalizers':['z','x','y']}}"),
        Arguments.of("atomic lists are replaced", POD,
            "{'spec':{'tolerations':[{'key':'a'},{'key':'b'}]}}", "{'spec':{'tolerations':[{'key':'c'}]}}",
            "{'spec':{'tolerations':[{'key':'c'}]}}"),
        Arguments.of("an atomic label selector is replaced whole", DEPLOYMENT,
            "{'spec':{'selector':{'matchLabels':{'app':'web','tier':'x'}}}}",
            "{'spec':{'selector':{'matchLabels':{'app':'web'}}}}",
            "{'spec':{'selector':{'matchLabels':{'app':'web'}}}}"),
        Arguments.of("maps merge key by key", DEPLOYMENT,
            "{'metadata':{'labels':{'a':'1','b':'2'}}}", "{'metadata':{'labels':{'b':'3','c':'4'}}}",
            "{'metadata':{'labels':{'a':'1','b':'3','c':'4'}}}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("merges")
  void merge_followsTheSchema(String what, ApplySchema schema, String live, String applied, String expected) {
    assertThat(ApplyMerge.merge(json(live), json(applied), schema)).isEqualTo(json(expected));
  }

  @Test
  void merge_neverMutatesItsArguments() {
    var live = json("{'spec':{'containers':[{'name':'a','image':'1'}]}}");
    var applied = json("{'spec':{'containers':[{'name':'a','image':'2'}]}}");
    ApplyMerge.merge(live, applied, POD);
    assertThat(live).isEqualTo(json("{'spec':{'containers':[{'name':'a','image':'1'}]}}"));
  }

  @Test
  void compare_reportsAddedSubtrees_removedItems_andModifiedLeaves() {
    ApplyMerge.Comparison c = ApplyMerge.compare(
        json("{'metadata':{'labels':{'a':'1'}},'spec':{'containers':[{'name':'a','image':'1'},{'name':'b','image':'2'}]}}"),
        json("{'metadata':{'labels':{'a':'2'}},'spec':{'containers':[{'name':'a','image':'1'}],"
            + "'strategy':{'rollingUpdate':{'maxSurge':1}}}}"),
        POD);
    assertThat(FieldsV1.toJson(c.added())).isEqualTo(json(
        "{'f:spec':{'f:strategy':{'.':{},'f:rollingUpdate':{'.':{},'f:maxSurge':{}}}}}"));
    assertThat(FieldsV1.toJson(c.removed())).isEqualTo(json(
        "{'f:spec':{'f:containers':{'k:{\\'name\\':\\'b\\'}':{'.':{},'f:image':{},'f:name':{}}}}}"));
    assertThat(FieldsV1.toJson(c.modified())).isEqualTo(json("{'f:metadata':{'f:labels':{'f:a':{}}}}"));
  }

  @Test
  void prune_keepsNodesSomeoneStillOwnsBeneath() {
    var object = json("{'spec':{'containers':[{'name':'a','image':'1','tty':true},{'name':'b'}]}}");
    FieldPath a = FieldPath.of("spec", "containers").child(PathElement.key(java.util.Map.of("name",
        com.fasterxml.jackson.databind.node.TextNode.valueOf("a"))));
    FieldPath b = FieldPath.of("spec", "containers").child(PathElement.key(java.util.Map.of("name",
        com.fasterxml.jackson.databind.node.TextNode.valueOf("b"))));
    FieldSet remove = FieldSet.of(a, a.child(PathElement.field("image")), a.child(PathElement.field("name")), b);
    FieldSet keep = FieldSet.of(a.child(PathElement.field("tty")));
    assertThat(ApplyMerge.prune(object, remove, keep, POD))
        .isEqualTo(json("{'spec':{'containers':[{'name':'a','tty':true}]}}"));
  }
}
