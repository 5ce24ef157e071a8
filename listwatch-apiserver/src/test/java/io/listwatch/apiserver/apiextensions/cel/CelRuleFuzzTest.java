package io.listwatch.apiserver.apiextensions.cel;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.JsonLimits;
import io.listwatch.api.schema.FieldError;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Coverage-guided fuzzing (Jazzer) of CEL validation rules ({@code x-kubernetes-validations}) on
 * their own, much faster than through a CustomResourceDefinition ({@code ApiRequestFuzzTest}
 * covers that path). One input is a rule on its first line and a custom resource's
 * {@code spec} (JSON) after it; the rule sits on {@code spec} of a fixed schema with strings,
 * formats, integers, numbers, quantities, lists (atomic, set, map) and maps, as the seeds under
 * {@code CelRuleFuzzTestInputs/rule/} show.
 *
 * <p>Invariants: a rule either does not compile, which {@link CelValidator#compileErrors} reports
 * (the CRD is refused with 422), or it compiles, and then validating an object (a create, and an
 * update against itself) returns field errors, never throws (a throw would be a 500 on the
 * custom resource's write); the errors are bounded in number.
 */
class CelRuleFuzzTest {

  private static final ObjectMapper JSON = JsonLimits.mapper();
  private static final String SPEC_PROPERTIES = """
      {"s":{"type":"string","maxLength":64},"d":{"type":"string","format":"date-time"},
       "i":{"type":"integer","format":"int64"},"n":{"type":"number"},"b":{"type":"boolean"},
       "q":{"x-kubernetes-int-or-string":true},
       "ip":{"type":"string","maxLength":64},
       "l":{"type":"array","maxItems":20,"items":{"type":"string","maxLength":16}},
       "set":{"type":"array","maxItems":20,"x-kubernetes-list-type":"set","items":{"type":"integer"}},
       "ports":{"type":"array","maxItems":10,"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
        "items":{"type":"object","required":["name"],"properties":{"name":{"type":"string","maxLength":16},
         "port":{"type":"integer"}}}},
       "m":{"type":"object","maxProperties":10,"additionalProperties":{"type":"string","maxLength":16}},
       "o":{"type":"object","properties":{"a":{"type":"string","maxLength":16},"b":{"type":"integer"}}},
       "any":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}""";

  @FuzzTest(maxDuration = "2m")
  void rule(byte[] input) throws JsonProcessingException {
    String text = new String(input, StandardCharsets.UTF_8);
    int newline = text.indexOf('\n');
    String rule = newline < 0 ? text : text.substring(0, newline);
    JsonNode spec;
    try {
      spec = JSON.readTree(newline < 0 ? "{}" : text.substring(newline + 1));
    } catch (JsonProcessingException e) {
      return; // refused as a body before any rule runs
    }
    if (spec == null) {
      return;
    }
    ObjectNode specSchema = (ObjectNode) JSON.readTree("{\"type\":\"object\",\"properties\":" + SPEC_PROPERTIES + "}");
    specSchema.putArray("x-kubernetes-validations").addObject().put("rule", rule);
    ObjectNode schema = JSON.createObjectNode().put("type", "object");
    schema.putObject("properties").set("spec", specSchema);
    if (!CelValidator.compileErrors(schema, "openAPIV3Schema").isEmpty()) {
      return;
    }
    CelValidator validator = CelValidator.compile(schema);
    ObjectNode object = JSON.createObjectNode().put("apiVersion", "example.com/v1").put("kind", "Widget");
    object.putObject("metadata").put("name", "w");
    object.set("spec", spec);
    List<FieldError> created = validator.validate(object, null);
    List<FieldError> updated = validator.validate(object, object);
    assertThat(created.size() + updated.size()).as("errors of one rule").isLessThanOrEqualTo(2);
  }
}
