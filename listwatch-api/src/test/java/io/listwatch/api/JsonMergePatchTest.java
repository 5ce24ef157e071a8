package io.listwatch.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JsonMergePatchTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static JsonNode json(String s) {
    try {
      return MAPPER.readTree(s);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** RFC 7386 Appendix A, every row. */
  @ParameterizedTest(name = "{0} + {1} = {2}")
  @CsvSource(delimiter = '|', textBlock = """
      {"a":"b"}                | {"a":"c"}                      | {"a":"c"}
      {"a":"b"}                | {"b":"c"}                      | {"a":"b","b":"c"}
      {"a":"b"}                | {"a":null}                     | {}
      {"a":"b","b":"c"}        | {"a":null}                     | {"b":"c"}
      {"a":["b"]}              | {"a":"c"}                      | {"a":"c"}
      {"a":"c"}                | {"a":["b"]}                    | {"a":["b"]}
      {"a":{"b":"c"}}          | {"a":{"b":"d","c":null}}       | {"a":{"b":"d"}}
      {"a":[{"b":"c"}]}        | {"a":[1]}                      | {"a":[1]}
      ["a","b"]                | ["c","d"]                      | ["c","d"]
      {"a":"b"}                | ["c"]                          | ["c"]
      {"a":"foo"}              | null                           | null
      {"a":"foo"}              | "bar"                          | "bar"
      {"e":null}               | {"a":1}                        | {"e":null,"a":1}
      [1,2]                    | {"a":"b","c":null}             | {"a":"b"}
      {}                       | {"a":{"bb":{"ccc":null}}}      | {"a":{"bb":{}}}
      """)
  void apply_matchesRfc7386AppendixA(String target, String patch, String expected) {
    assertThat(JsonMergePatch.apply(json(target), json(patch))).isEqualTo(json(expected));
  }

  @Test
  void apply_matchesRfc7386Section3Example() {
    JsonNode target = json("""
        {"title":"Goodbye!","author":{"givenName":"John","familyName":"Doe"},
         "tags":["example","sample"],"content":"This will be unchanged"}""");
    JsonNode patch = json("""
        {"title":"Hello!","phoneNumber":"+01-123-456-7890","author":{"familyName":null},"tags":["example"]}""");
    assertThat(JsonMergePatch.apply(target, patch)).isEqualTo(json("""
        {"title":"Hello!","author":{"givenName":"John"},"tags":["example"],
         "content":"This will be unchanged","phoneNumber":"+01-123-456-7890"}"""));
  }

  @Test
  void apply_kubectlLabel_addsAndRemovesLabels() {
    JsonNode pod = json("{\"metadata\":{\"name\":\"web\",\"labels\":{\"app\":\"web\",\"tier\":\"fe\"}},\"spec\":{}}");
    JsonNode patch = json("{\"metadata\":{\"labels\":{\"tier\":null,\"env\":\"prod\"}}}");
    assertThat(JsonMergePatch.apply(pod, patch)).isEqualTo(
        json("{\"metadata\":{\"name\":\"web\",\"labels\":{\"app\":\"web\",\"env\":\"prod\"}},\"spec\":{}}"));
  }

  @Test
  void apply_keepsExistingKeyPositions() {
    JsonNode result = JsonMergePatch.apply(json("{\"a\":1,\"b\":2,\"c\":3}"), json("{\"b\":{\"x\":1},\"d\":4}"));
    assertThat(result.toString()).isEqualTo("{\"a\":1,\"b\":{\"x\":1},\"c\":3,\"d\":4}");
  }

  @Test
  void apply_objectPatchOnScalarMember_replacesItWithMergedObject() {
    assertThat(JsonMergePatch.apply(json("{\"a\":5}"), json("{\"a\":{\"b\":null,\"c\":1}}")))
        .isEqualTo(json("{\"a\":{\"c\":1}}"));
  }

  @Test
  void apply_nullsInsideArrays_areKept() {
    assertThat(JsonMergePatch.apply(json("{}"), json("{\"a\":[null,{\"b\":null}]}")))
        .isEqualTo(json("{\"a\":[null,{\"b\":null}]}"));
  }

  @Test
  void apply_emptyPatch_returnsEqualCopy() {
    JsonNode target = json("{\"a\":{\"b\":[1,2]}}");
    JsonNode result = JsonMergePatch.apply(target, json("{}"));
    assertThat(result).isEqualTo(target).isNotSameAs(target);
  }

  @Test
  void apply_nullOrMissingTarget_isTreatedAsNonObject() {
    assertThat(JsonMergePatch.apply(null, json("{\"a\":1,\"b\":null}"))).isEqualTo(json("{\"a\":1}"));
    assertThat(JsonMergePatch.apply(MissingNode.getInstance(), json("{\"a\":1}"))).isEqualTo(json("{\"a\":1}"));
    assertThat(JsonMergePatch.apply(null, json("[1]"))).isEqualTo(json("[1]"));
  }

  @Test
  void apply_rejectsJavaNullPatch() {
    assertThatThrownBy(() -> JsonMergePatch.apply(json("{}"), null)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void apply_neverMutatesInputs() {
    JsonNode target = json("{\"a\":{\"b\":\"c\",\"d\":[1]},\"e\":1}");
    JsonNode patch = json("{\"a\":{\"b\":null,\"x\":{\"y\":null,\"z\":[2]}},\"e\":null,\"f\":{\"g\":1}}");
    JsonNode targetBefore = target.deepCopy();
    JsonNode patchBefore = patch.deepCopy();
    JsonMergePatch.apply(target, patch);
    assertThat(target).isEqualTo(targetBefore);
    assertThat(patch).isEqualTo(patchBefore);
  }

  @Test
  void apply_resultSharesNoNodesWithInputs() {
    JsonNode target = json("{\"keep\":{\"k\":1},\"arr\":[1]}");
    JsonNode patch = json("{\"new\":{\"n\":1},\"list\":[{\"l\":1}],\"keep\":{\"k2\":2}}");
    JsonNode targetBefore = target.deepCopy();
    JsonNode patchBefore = patch.deepCopy();
    ObjectNode result = (ObjectNode) JsonMergePatch.apply(target, patch);
    ((ObjectNode) result.get("keep")).put("mutated", true);
    ((ObjectNode) result.get("new")).put("mutated", true);
    ((ObjectNode) result.get("list").get(0)).put("mutated", true);
    result.withArray("arr").add(2);
    assertThat(target).isEqualTo(targetBefore);
    assertThat(patch).isEqualTo(patchBefore);
  }

  @Test
  void apply_nonObjectPatch_returnsCopyOfPatch() {
    JsonNode patch = json("[{\"a\":1}]");
    JsonNode result = JsonMergePatch.apply(json("{}"), patch);
    assertThat(result).isEqualTo(patch).isNotSameAs(patch);
  }
}
