package io.listwatch.api.apply;

import static io.listwatch.api.apply.FieldsV1Test.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FieldSetTest {

  static final ApplySchema DEPLOYMENT = BuiltinApplySchema.forKind("apps", "v1", "Deployment");
  static final ApplySchema POD = BuiltinApplySchema.forKind("", "v1", "Pod");

  /** The object, its schema, and the fieldsV1 kube records for it. */
  static Stream<Arguments> objects() {
    return Stream.of(
        Arguments.of("a Deployment as kubectl apply --server-side records it", DEPLOYMENT,
            "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'web','labels':{'app':'web'}},"
                + "'spec':{'replicas':2,'selector':{'matchLabels':{'app':'web'}},'template':{'metadata':{'labels':{'app':'web'}},"
                + "'spec':{'containers':[{'name':'nginx','image':'nginx:1.27','ports':[{'containerPort':80}]}]}}}}",
            "{'f:apiVersion':{},'f:kind':{},'f:metadata':{'f:labels':{'f:app':{}},'f:name':{}},'f:spec':{'f:replicas':{},"
                + "'f:selector':{},'f:template':{'f:metadata':{'f:labels':{'f:app':{}}},'f:spec':{'f:containers':{"
                + "'k:{\\'name\\':\\'nginx\\'}':{'.':{},'f:image':{},'f:name':{},'f:ports':{"
                + "'k:{\\'containerPort\\':80,\\'protocol\\':\\'TCP\\'}':{'.':{},'f:containerPort':{}}}}}}}}}"),
        Arguments.of("atomic lists are one leaf; set items by value (the set itself is no member); empty objects are leaves", POD,
            "{'metadata':{'finalizers':['b','a']},'spec':{'tolerations':[{'key':'k'}],'containers':[{'name':'c',"
                + "'args':['x','y'],'resources':{}}]}}",
            "{'f:metadata':{'f:finalizers':{'v:\\'a\\'':{},'v:\\'b\\'':{}}},'f:spec':{'f:containers':{"
                + "'k:{\\'name\\':\\'c\\'}':{'.':{},'f:args':{},'f:name':{},'f:resources':{}}},'f:tolerations':{}}}"),
        Arguments.of("an unknown kind: every list atomic, maps by key", ApplySchema.DEDUCED,
            "{'spec':{'list':[{'a':1}],'map':{'x':{'y':null}}}}",
            "{'f:spec':{'f:list':{},'f:map':{'f:x':{'f:y':{}}}}}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("objects")
  void of_recordsTheFieldsKubeRecords(String what, ApplySchema schema, String object, String fieldsV1) {
    assertThat(FieldsV1.toJson(FieldSet.of(json(object), schema))).isEqualTo(json(fieldsV1));
  }

  @Test
  void of_rejectsListMapItemWithoutKey_andDuplicateKeys() {
    assertThatThrownBy(() -> FieldSet.of(json("{'spec':{'containers':[{'image':'x'}]}}"), POD))
        .hasMessageContaining("omits key field \"name\"");
    assertThatThrownBy(() -> FieldSet.of(json("{'spec':{'containers':[{'name':'a'},{'name':'a'}]}}"), POD))
        .hasMessageContaining("duplicate entries for key [name=\"a\"]");
  }

  @Test
  void setOperations_followPaths() {
    FieldSet a = FieldSet.of(FieldPath.of("a"), FieldPath.of("b", "c"));
    FieldSet b = FieldSet.of(FieldPath.of("b", "c"), FieldPath.of("d"));
    assertThat(a.union(b)).containsExactly(FieldPath.of("a"), FieldPath.of("b", "c"), FieldPath.of("d"));
    assertThat(a.difference(b)).containsExactly(FieldPath.of("a"));
    assertThat(a.intersection(b)).containsExactly(FieldPath.of("b", "c"));
    assertThat(a.hasPrefix(FieldPath.of("b"))).isTrue();
    assertThat(a.hasPrefix(FieldPath.of("c"))).isFalse();
  }
}
