package io.listwatch.api.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each case: a schema, a custom resource, and the errors kube's 422 lists for it. */
class SchemaValidatorTest {

  private static final String SPEC = "{'type':'object','properties':{'spec':{'type':'object',"
      + "'required':['image'],'properties':{"
      + "'replicas':{'type':'integer','minimum':1,'maximum':10},"
      + "'ratio':{'type':'number','exclusiveMinimum':true,'minimum':0,'exclusiveMaximum':true,'maximum':1},"
      + "'image':{'type':'string','minLength':3,'maxLength':20,'pattern':'^[a-z]+(:[a-z0-9.]+)?$'},"
      + "'mode':{'type':'string','enum':['a','b']},"
      + "'level':{'type':'integer','enum':[1,2]},"
      + "'note':{'type':'string','nullable':true},"
      + "'when':{'type':'string','format':'date-time'},"
      + "'data':{'type':'string','format':'byte'},"
      + "'id':{'type':'string','format':'uuid'},"
      + "'big':{'type':'integer','format':'int32'},"
      + "'huge':{'type':'integer'},"
      + "'small':{'type':'number','format':'float'},"
      + "'port':{'x-kubernetes-int-or-string':true},"
      + "'choice':{'type':'string','anyOf':[{'maxLength':5},{'pattern':'^[0-9]+$'}]},"
      + "'odd':{'type':'integer','not':{'multipleOf':2}},"
      + "'tags':{'type':'array','maxItems':2,'minItems':1,'items':{'type':'string'},'x-kubernetes-list-type':'set'},"
      + "'ports':{'type':'array','x-kubernetes-list-type':'map','x-kubernetes-list-map-keys':['name'],"
      + "  'items':{'type':'object','required':['name'],'properties':{'name':{'type':'string'},'port':{'type':'integer'}}}},"
      + "'labels':{'type':'object','maxProperties':2,'minProperties':1,'additionalProperties':{'type':'string'}},"
      + "'template':{'type':'object','x-kubernetes-embedded-resource':true,'x-kubernetes-preserve-unknown-fields':true}"
      + "}}}}";

  static Stream<Arguments> cases() {
    return Stream.of(
        c("a valid object", "{'image':'nginx:1.27','replicas':3,'ratio':0.5,'mode':'a','level':2,"
            + "'when':'2024-01-02T03:04:05Z','data':'aGVsbG8=','id':'123e4567-e89b-12d3-a456-426614174000',"
            + "'big':2147483647,'port':8080,'tags':['x','y'],'ports':[{'name':'a'},{'name':'b'}],"
            + "'labels':{'app':'x'},'note':null,"
            + "'template':{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p'},'spec':{}}}"),
        c("wrong type", "{'image':'nginx','replicas':'3'}",
            "spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\""),
        c("an integral float is an integer", "{'image':'nginx','replicas':3.0}"),
        c("a missing required field", "{'replicas':3}",
            "spec.image: Required value"),
        c("null where not nullable", "{'image':null}",
            "spec.image: Invalid value: \"null\": spec.image in body must be of type string: \"null\""),
        c("enum", "{'image':'nginx','mode':'c','level':3}",
            "spec.mode: Unsupported value: \"c\": supported values: \"a\", \"b\"",
            "spec.level: Unsupported value: 3: supported values: \"1\", \"2\""),
        c("minimum and maximum", "{'image':'nginx','replicas':0}",
            "spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1"),
        c("maximum", "{'image':'nginx','replicas':11}",
            "spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10"),
        c("exclusive bounds", "{'image':'nginx','ratio':1}",
            "spec.ratio: Invalid value: 1: spec.ratio in body should be less than 1"),
        c("exclusive minimum", "{'image':'nginx','ratio':0}",
            "spec.ratio: Invalid value: 0: spec.ratio in body should be greater than 0"),
        c("string length and pattern", "{'image':'Ab'}",
            "spec.image: Invalid value: \"Ab\": spec.image in body should be at least 3 chars long",
            "spec.image: Invalid value: \"Ab\": spec.image in body should match '^[a-z]+(:[a-z0-9.]+)?$'"),
        c("too long", "{'image':'abcdefghijklmnopqrstuvwxyz'}",
            "spec.image: Too long: may not be longer than 20"),
        c("date-time takes RFC 3339 with or without fraction", "{'image':'nginx','when':'2024-01-02T03:04:05.123+02:00'}"),
        c("byte takes padded standard base64 only", "{'image':'nginx','data':'aGVsbG8'}",
            "spec.data: Invalid value: \"aGVsbG8\": spec.data in body must be of type byte: \"aGVsbG8\""),
        c("formats", "{'image':'nginx','when':'yesterday','data':'%%%','id':'nope'}",
            "spec.when: Invalid value: \"yesterday\": spec.when in body must be of type date-time: \"yesterday\"",
            "spec.data: Invalid value: \"%%%\": spec.data in body must be of type byte: \"%%%\"",
            "spec.id: Invalid value: \"nope\": spec.id in body must be of type uuid: \"nope\""),
        c("an int32 must fit 32 bits", "{'image':'nginx','big':2147483648}",
            "Invalid value: \"\": Checked value must be of type integer with format int32 in spec.big"),
        c("an integer must fit 64 bits", "{'image':'nginx','huge':9223372036854775808}",
            "Invalid value: \"\": Checked value must be of type integer (default format) in spec.huge"),
        c("a float must fit 32 bits", "{'image':'nginx','small':1e39}",
            "Invalid value: \"\": Checked value must be of type number with format float in spec.small"),
        c("int-or-string refuses other types", "{'image':'nginx','port':true}",
            "spec.port: Invalid value: \"boolean\": spec.port in body must be of type integer,string: \"boolean\""),
        c("int-or-string takes a string", "{'image':'nginx','port':'http'}"),
        c("item counts", "{'image':'nginx','tags':['a','b','c']}",
            "spec.tags: Too many: 3: must have at most 2 items"),
        c("too few items", "{'image':'nginx','tags':[]}",
            "spec.tags: Invalid value: 0: spec.tags in body should have at least 1 items"),
        c("set duplicates", "{'image':'nginx','tags':['a','a']}",
            "spec.tags[1]: Duplicate value: \"a\""),
        c("map list duplicate keys and a missing key", "{'image':'nginx','ports':[{'name':'a','port':1},{'name':'a','port':2},{'port':3}]}",
            "spec.ports[1]: Duplicate value: {\"name\":\"a\"}",
            "spec.ports[2].name: Required value"),
        c("item type errors name the index", "{'image':'nginx','ports':[{'name':'a','port':'x'}]}",
            "spec.ports[0].port: Invalid value: \"string\": spec.ports[0].port in body must be of type integer: \"string\""),
        c("property counts and map values", "{'image':'nginx','labels':{'a':'1','b':'2','c':3}}",
            "spec.labels: Too many: 3: must have at most 2 items",
            "spec.labels.c: Invalid value: \"integer\": spec.labels.c in body must be of type string: \"integer\""),
        c("too few properties", "{'image':'nginx','labels':{}}",
            "spec.labels: Invalid value: 0: spec.labels in body should have at least 1 properties"),
        c("anyOf passes when one branch does", "{'image':'nginx','choice':'123456789'}"),
        c("anyOf failing: a summary, then the errors of the branch that failed least",
            "{'image':'nginx','choice':'abcdefgh'}",
            "Invalid value: \"\": \"spec.choice\" must validate at least one schema (anyOf)",
            "spec.choice: Too long: may not be longer than 5"),
        c("not", "{'image':'nginx','odd':4}",
            "Invalid value: \"\": \"spec.odd\" must not validate the schema (not)"),
        c("not passes when its schema fails", "{'image':'nginx','odd':3}"),
        c("an embedded resource needs apiVersion and kind", "{'image':'nginx','template':{'metadata':{}}}",
            "spec.template.apiVersion: Required value: must not be empty",
            "spec.template.kind: Required value: must not be empty"));
  }

  private static Arguments c(String name, String spec, String... errors) {
    return Arguments.of(name, spec, List.of(errors));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void validate_reportsKubesErrors(String name, String spec, List<String> expected) {
    List<FieldError> errors =
        SchemaValidator.validate(Json.parse(SPEC), Json.parse("{'spec':" + spec + "}"));

    assertThat(errors).map(FieldError::toString).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void validate_atAFieldPath_prefixesFields_andNamesRelativePaths() {
    List<FieldError> errors = SchemaValidator.validate(
        Json.parse("{'type':'object','properties':{'n':{'type':'integer'}}}"),
        Json.parse("{'n':'x'}"), "spec.validation.openAPIV3Schema.properties[a].default");

    assertThat(errors).map(FieldError::toString).containsExactly(
        "spec.validation.openAPIV3Schema.properties[a].default.n: Invalid value: \"string\": "
            + "n in body must be of type integer: \"string\"");
  }

  @Test
  void typeErrors_carryTheTypeInvalidReason() {
    List<FieldError> errors = SchemaValidator.validate(Json.parse(SPEC),
        Json.parse("{'spec':{'image':'nginx','replicas':'x'}}"));

    assertThat(errors).singleElement().extracting(e -> e.toCause().reason())
        .isEqualTo("FieldValueTypeInvalid");
  }
}
