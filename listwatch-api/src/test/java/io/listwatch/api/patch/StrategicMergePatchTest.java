package io.listwatch.api.patch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import org.junit.jupiter.api.Test;

/** Strategic merge on kube's documented examples (kubectl patch task page, the SMP design doc). */
class StrategicMergePatchTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final PatchSchema DEPLOYMENT = PatchSchemas.forKind("apps", "v1", "Deployment").orElseThrow();
  private static final PatchSchema POD = PatchSchemas.forKind("", "v1", "Pod").orElseThrow();

  /** JSON with single quotes for readability. */
  private static ObjectNode json(String s) {
    try {
      return (ObjectNode) MAPPER.readTree(s.replace('\'', '"'));
    } catch (Exception e) {
      throw new IllegalArgumentException(s, e);
    }
  }

  private static ObjectNode apply(PatchSchema schema, String original, String patch) {
    return StrategicMergePatch.apply(json(original), json(patch), schema);
  }

  private static final String TWO_CONTAINERS = """
      {'spec':{'containers':[{'name':'a','image':'nginx','env':[{'name':'X','value':'1'}]},
                             {'name':'b','image':'redis'}]}}""";

  @Test
  void containers_mergeByName_changingOneImageKeepsTheOther() {
    ObjectNode out = apply(POD, TWO_CONTAINERS, "{'spec':{'containers':[{'name':'b','image':'redis:7'}]}}");

    assertThat(out).isEqualTo(json("""
        {'spec':{'containers':[{'name':'a','image':'nginx','env':[{'name':'X','value':'1'}]},
                               {'name':'b','image':'redis:7'}]}}"""));
  }

  @Test
  void newContainer_withoutElementOrder_comesFirst_asInKubesPatchTaskExample() {
    ObjectNode out = apply(DEPLOYMENT,
        "{'spec':{'template':{'spec':{'containers':[{'name':'patch-demo-ctr','image':'nginx'}]}}}}",
        "{'spec':{'template':{'spec':{'containers':[{'name':'patch-demo-ctr-2','image':'redis'}]}}}}");

    assertThat(out.at("/spec/template/spec/containers")).isEqualTo(json("""
        {'l':[{'name':'patch-demo-ctr-2','image':'redis'},{'name':'patch-demo-ctr','image':'nginx'}]}""").get("l"));
  }

  @Test
  void nestedEnv_mergesByName_insideTheMatchedContainer() {
    ObjectNode out = apply(POD, TWO_CONTAINERS,
        "{'spec':{'containers':[{'name':'a','env':[{'name':'X','value':'2'},{'name':'Y','value':'3'}]}]}}");

    assertThat(out.at("/spec/containers/0/env")).isEqualTo(json(
        "{'l':[{'name':'X','value':'2'},{'name':'Y','value':'3'}]}").get("l"));
    assertThat(out.at("/spec/containers/0/image").asText()).isEqualTo("nginx");
  }

  @Test
  void tolerations_areReplacedWhole_sinceKubeDeclaresNoStrategy() {
    ObjectNode out = apply(POD, "{'spec':{'tolerations':[{'key':'a','effect':'NoSchedule'}]}}",
        "{'spec':{'tolerations':[{'key':'b','effect':'NoExecute'}]}}");

    assertThat(out.at("/spec/tolerations")).hasSize(1);
    assertThat(out.at("/spec/tolerations/0/key").asText()).isEqualTo("b");
  }

  @Test
  void patchDelete_inAList_removesTheElementWithThatKey() {
    ObjectNode out = apply(POD, TWO_CONTAINERS, "{'spec':{'containers':[{'name':'a','$patch':'delete'}]}}");

    assertThat(out.at("/spec/containers")).hasSize(1);
    assertThat(out.at("/spec/containers/0/name").asText()).isEqualTo("b");
  }

  @Test
  void patchReplace_inAList_replacesTheWholeList() {
    ObjectNode out = apply(POD, TWO_CONTAINERS,
        "{'spec':{'containers':[{'name':'c','image':'busybox'},{'$patch':'replace'}]}}");

    assertThat(out.at("/spec/containers")).isEqualTo(json("{'l':[{'name':'c','image':'busybox'}]}").get("l"));
  }

  @Test
  void patchReplace_inAMap_replacesTheMap() {
    ObjectNode out = apply(DEPLOYMENT,
        "{'spec':{'strategy':{'type':'RollingUpdate','rollingUpdate':{'maxSurge':1}},'replicas':2}}",
        "{'spec':{'strategy':{'$patch':'replace','type':'Recreate'}}}");

    assertThat(out).isEqualTo(json("{'spec':{'strategy':{'type':'Recreate'},'replicas':2}}"));
  }

  @Test
  void patchDelete_inAMap_removesTheMap() {
    ObjectNode out = apply(DEPLOYMENT, "{'spec':{'strategy':{'type':'RollingUpdate','rollingUpdate':{'maxSurge':1}}}}",
        "{'spec':{'strategy':{'rollingUpdate':{'$patch':'delete'}}}}");

    assertThat(out.at("/spec/strategy")).isEqualTo(json("{'type':'RollingUpdate','rollingUpdate':{}}"));
  }

  @Test
  void patchMerge_inAList_isRefusedAsInKube() {
    assertThatThrownBy(() -> apply(POD, TWO_CONTAINERS, "{'spec':{'containers':[{'$patch':'merge'}]}}"))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.code()).isEqualTo(400);
          assertThat(e.getMessage()).isEqualTo("merging lists cannot yet be specified in the patch");
        });
  }

  @Test
  void retainKeys_clearsUnlistedKeys_asInKubesRecreateExample() {
    ObjectNode out = apply(DEPLOYMENT,
        "{'spec':{'strategy':{'type':'RollingUpdate','rollingUpdate':{'maxSurge':'25%','maxUnavailable':'25%'}}}}",
        "{'spec':{'strategy':{'$retainKeys':['type'],'type':'Recreate'}}}");

    assertThat(out.at("/spec/strategy")).isEqualTo(json("{'type':'Recreate'}"));
  }

  @Test
  void retainKeys_withAKeyNotListed_is422() {
    assertThatThrownBy(() -> apply(DEPLOYMENT, "{'spec':{'strategy':{'type':'RollingUpdate'}}}",
        "{'spec':{'strategy':{'$retainKeys':['type'],'type':'Recreate','rollingUpdate':{}}}}"))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.code()).isEqualTo(422);
          assertThat(e.status().details().causes().getFirst().message())
              .isEqualTo("patch content doesn't match retainKeys list");
        });
  }

  @Test
  void deleteFromPrimitiveList_removesValues_andFinalizersMergeAsASet() {
    String original = "{'metadata':{'finalizers':['a','b','c']}}";

    assertThat(apply(POD, original, "{'metadata':{'$deleteFromPrimitiveList/finalizers':['b']}}")
        .at("/metadata/finalizers")).isEqualTo(json("{'l':['a','c']}").get("l"));
    assertThat(apply(POD, original, "{'metadata':{'finalizers':['c','d']}}").at("/metadata/finalizers"))
        .isEqualTo(json("{'l':['a','b','c','d']}").get("l"));
  }

  @Test
  void setElementOrder_ordersTheMergedList() {
    ObjectNode out = apply(POD, TWO_CONTAINERS, """
        {'spec':{'$setElementOrder/containers':[{'name':'b'},{'name':'c'},{'name':'a'}],
                 'containers':[{'name':'c','image':'busybox'}]}}""");

    assertThat(out.at("/spec/containers").valueStream().map(c -> c.get("name").asText()))
        .containsExactly("b", "c", "a");
  }

  @Test
  void setElementOrder_onPrimitives_ordersThem() {
    ObjectNode out = apply(POD, "{'metadata':{'finalizers':['a','b']}}",
        "{'metadata':{'$setElementOrder/finalizers':['b','c','a'],'finalizers':['c']}}");

    assertThat(out.at("/metadata/finalizers")).isEqualTo(json("{'l':['b','c','a']}").get("l"));
  }

  @Test
  void setElementOrder_thatContradictsThePatchList_isRefused() {
    assertThatThrownBy(() -> apply(POD, TWO_CONTAINERS, """
        {'spec':{'$setElementOrder/containers':[{'name':'a'},{'name':'b'}],
                 'containers':[{'name':'b','image':'x'},{'name':'a','image':'y'}]}}"""))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.getMessage())
            .startsWith("The order in patch list:"));
  }

  @Test
  void elementWithoutMergeKey_isRefusedWithKubesMessage() {
    assertThatThrownBy(() -> apply(POD, TWO_CONTAINERS, "{'spec':{'containers':[{'image':'nginx'}]}}"))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.code()).isEqualTo(400);
          assertThat(e.getMessage()).isEqualTo("map: map[image:nginx] does not contain declared merge key: name");
        });
  }

  @Test
  void nullValue_removesTheKey_andDirectivesNeverReachTheResult() {
    ObjectNode out = apply(POD, "{'metadata':{'labels':{'a':'1','b':'2'}},'spec':{}}", """
        {'metadata':{'labels':{'a':null}},
         'spec':{'containers':[{'name':'x','$patch':'delete'},{'name':'y','image':'i'}]}}""");

    assertThat(out).isEqualTo(json("{'metadata':{'labels':{'b':'2'}},'spec':{'containers':[{'name':'y','image':'i'}]}}"));
  }

  @Test
  void containerPorts_mergeByContainerPortAlone_kubesQuirk() {
    ObjectNode out = apply(POD, "{'spec':{'containers':[{'name':'a','ports':[{'containerPort':53,'protocol':'TCP'}]}]}}",
        "{'spec':{'containers':[{'name':'a','ports':[{'containerPort':53,'protocol':'UDP'}]}]}}");

    assertThat(out.at("/spec/containers/0/ports")).isEqualTo(json("{'l':[{'containerPort':53,'protocol':'UDP'}]}")
        .get("l"));
  }

  @Test
  void listsOfLists_are422() {
    assertThatThrownBy(() -> apply(POD, "{'metadata':{'finalizers':['a']}}", "{'metadata':{'finalizers':[['b']]}}"))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(422));
  }

  @Test
  void inputsAreNotModified() {
    ObjectNode original = json(TWO_CONTAINERS);
    JsonNode patch = json("{'spec':{'containers':[{'name':'a','$patch':'delete'}]}}");
    ObjectNode originalCopy = original.deepCopy();
    JsonNode patchCopy = patch.deepCopy();

    StrategicMergePatch.apply(original, patch, POD);

    assertThat(original).isEqualTo(originalCopy);
    assertThat(patch).isEqualTo(patchCopy);
  }

  @Test
  void customKinds_haveNoSchema_andEveryServedKindHasOne() {
    assertThat(PatchSchemas.forKind("example.com", "v1", "Widget")).isEmpty();
    assertThat(PatchSchemas.forKind("", "v1", "ConfigMap")).isPresent();
    assertThat(POD.at("metadata.ownerReferences").mergeKey()).isEqualTo("uid");
    assertThat(DEPLOYMENT.at("spec.template.spec.containers.volumeMounts").mergeKey()).isEqualTo("mountPath");
    assertThat(POD.at("spec.volumes").strategyTag()).isEqualTo("merge,retainKeys");
  }
}
