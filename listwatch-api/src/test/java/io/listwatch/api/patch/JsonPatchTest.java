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
}
