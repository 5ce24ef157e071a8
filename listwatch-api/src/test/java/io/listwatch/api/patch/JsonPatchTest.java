package io.listwatch.api.patch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.listwatch.api.StatusException;
import org.junit.jupiter.api.Test;

class JsonPatchTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static JsonNode json(String s) {
    try {
      return MAPPER.readTree(s.replace('\'', '"'));
    } catch (Exception e) {
      throw new IllegalArgumentException(s, e);
    }
  }

  private static final JsonNode POD = json("""
      {'metadata':{'name':'web','labels':{'app':'web','a/b':'x','t~n':'y'}},
       'spec':{'containers':[{'name':'a','image':'nginx'}]}}""");

  @Test
  void everyOperation_appliesInOrder() {
    JsonNode out = JsonPatch.apply(POD, json("""
        [{'op':'test','path':'/metadata/labels/app','value':'web'},
         {'op':'add','path':'/spec/containers/-','value':{'name':'b','image':'redis'}},
         {'op':'replace','path':'/spec/containers/0/image','value':'nginx:1.27'},
         {'op':'copy','from':'/metadata/labels/app','path':'/metadata/labels/copied'},
         {'op':'move','from':'/metadata/labels/app','path':'/metadata/labels/moved'},
         {'op':'remove','path':'/metadata/labels/a~1b'},
         {'op':'replace','path':'/metadata/labels/t~0n','value':'z'}]"""));

    assertThat(out.at("/spec/containers/1/name").asText()).isEqualTo("b");
    assertThat(out.at("/spec/containers/0/image").asText()).isEqualTo("nginx:1.27");
    assertThat(out.at("/metadata/labels")).isEqualTo(json("{'copied':'web','moved':'web','t~n':'z'}"));
    assertThat(POD.at("/metadata/labels/app").asText()).as("input untouched").isEqualTo("web");
  }

  @Test
  void failedTest_is422WithKubesMessage() {
    assertThatThrownBy(() -> JsonPatch.apply(POD, json("[{'op':'test','path':'/metadata/labels/app','value':'db'}]")))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.code()).isEqualTo(422);
          assertThat(e.reason()).isEqualTo("Invalid");
          assertThat(e.getMessage()).isEqualTo("the server rejected our request due to an error in our request");
          assertThat(e.status().details().causes().getFirst().message())
              .isEqualTo("testing value /metadata/labels/app failed: test failed");
        });
  }

  @Test
  void missingPath_is422() {
    assertThatThrownBy(() -> JsonPatch.apply(POD, json("[{'op':'remove','path':'/spec/nothing'}]")))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(422));
    assertThatThrownBy(() -> JsonPatch.apply(POD, json("[{'op':'replace','path':'/spec/nothing/deeper','value':1}]")))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(422));
  }

  @Test
  void unknownOp_is422_andNonArray_is400() {
    assertThatThrownBy(() -> JsonPatch.apply(POD, json("[{'op':'frobnicate','path':'/spec'}]")))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(422));
    assertThatThrownBy(() -> JsonPatch.apply(POD, json("{'op':'add'}")))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(400));
  }

  @Test
  void tooManyOperations_is413() {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i <= JsonPatch.MAX_OPERATIONS; i++) {
      sb.append(i == 0 ? "" : ",").append("{\"op\":\"test\",\"path\":\"/metadata/name\",\"value\":\"web\"}");
    }
    assertThatThrownBy(() -> JsonPatch.apply(POD, json(sb.append("]").toString())))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(413));
  }

  /** k copies of an array into itself would build 2^k elements: the copies stop at kube's limit. */
  @Test
  void copiesOfAnArrayIntoItself_stopAtTheCopyLimit_with422() {
    StringBuilder ops = new StringBuilder("[{'op':'add','path':'/a','value':['xxxxxxxxxxxxxxxx']}");
    for (int k = 0; k < 28; k++) {
      ops.append(",{'op':'copy','from':'/a','path':'/a/-'}");
    }
    assertThatThrownBy(() -> JsonPatch.apply(json("{}"), json(ops.append("]").toString())))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.code()).isEqualTo(422);
          assertThat(e.status().details().causes().getFirst().message())
              .startsWith("Unable to complete the copy, the accumulated size increase of copy is ")
              .endsWith(", exceeding the limit " + JsonPatch.MAX_COPY_BYTES);
        });
  }

  @Test
  void copiesUpToTheLimit_apply() {
    String big = "x".repeat(1000);
    StringBuilder ops = new StringBuilder("[");
    // each copy adds the 1,002 bytes of the quoted string: 3,000 of them stay under 3 MiB
    for (int k = 0; k < 3000; k++) {
      ops.append(k == 0 ? "" : ",").append("{'op':'copy','from':'/s','path':'/l/-'}");
    }
    JsonNode out = JsonPatch.apply(json("{'s':'" + big + "','l':[]}"), json(ops.append("]").toString()));
    assertThat(out.get("l").size()).isEqualTo(3000);
  }

  /** A copy of an object into its own deepest object doubles its depth: the patch stops before it nests too deep. */
  @Test
  void aResultNestingDeeperThanReadersTake_is422() {
    StringBuilder ops = new StringBuilder("[{'op':'add','path':'/a','value':{'b':{}}}");
    String deepest = "/b"; // the deepest object of /a, relative to it
    for (int k = 0; k < 12; k++) {
      ops.append(",{'op':'copy','from':'/a','path':'/a").append(deepest).append("/n'}");
      deepest = deepest + "/n" + deepest;
    }
    assertThatThrownBy(() -> JsonPatch.apply(json("{}"), json(ops.append("]").toString())))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.code()).isEqualTo(422);
          assertThat(e.status().details().causes().getFirst().message())
              .isEqualTo("the patched object would nest more than 998 levels deep (a list holds an object two levels down)");
        });
  }

  @Test
  void addAtTheObjectDepthLimit_applies_andOneLevelMore_is422() {
    JsonNode target = json("{'a':{'b':{}}}");
    // the value's arrays sit below /a/b/c, three levels deep: 995 of them make 998 levels, the most an object may have
    String atLimit = "[{'op':'add','path':'/a/b/c','value':" + "[".repeat(995) + "]".repeat(995) + "}]";
    assertThat(io.listwatch.api.JsonLimits.depth(JsonPatch.apply(target, json(atLimit)), 2000)).isEqualTo(998);
    String over = "[{'op':'add','path':'/a/b/c','value':" + "[".repeat(996) + "]".repeat(996) + "}]";
    assertThatThrownBy(() -> JsonPatch.apply(target, json(over)))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(422));
  }

  @Test
  void moveIntoItsOwnChild_is422_andTestComparesNumbersByValue() {
    assertThatThrownBy(() -> JsonPatch.apply(POD, json("[{'op':'move','from':'/spec','path':'/spec/inner'}]")))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(422));
    JsonNode out = JsonPatch.apply(json("{'n':1}"), json("[{'op':'test','path':'/n','value':1.0}]"));
    assertThat(out).isEqualTo(json("{'n':1}"));
  }

  @Test
  void arrayIndexes_insertReplaceAndRemove() {
    JsonNode out = JsonPatch.apply(json("{'l':[1,2,3]}"), json("""
        [{'op':'add','path':'/l/1','value':9},{'op':'replace','path':'/l/0','value':0},
         {'op':'remove','path':'/l/3'},{'op':'add','path':'/l/-','value':4}]"""));
    assertThat(out).isEqualTo(json("{'l':[0,9,2,4]}"));
    assertThatThrownBy(() -> JsonPatch.apply(json("{'l':[1]}"), json("[{'op':'add','path':'/l/5','value':9}]")))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(422));
    assertThatThrownBy(() -> JsonPatch.apply(json("{'l':[1]}"), json("[{'op':'replace','path':'/l/1','value':9}]")))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(422));
  }
}
