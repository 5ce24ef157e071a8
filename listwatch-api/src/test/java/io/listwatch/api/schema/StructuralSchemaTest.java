package io.listwatch.api.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each case: an openAPIV3Schema and the errors kube's CRD validation reports for it, written
 * from kube's apiextensions validation, with the schema at {@code spec.validation.openAPIV3Schema}.
 */
class StructuralSchemaTest {

  private static final String P = "spec.validation.openAPIV3Schema";

  static Stream<Arguments> cases() {
    return Stream.of(
        c("a plain structural schema is accepted",
            "{'type':'object','properties':{'spec':{'type':'object','properties':{"
                + "'replicas':{'type':'integer','minimum':0},'image':{'type':'string'}}}}}"),
        c("a field without type is not structural",
            "{'type':'object','properties':{'spec':{'properties':{'a':{'type':'string'}}}}}",
            P + ".properties[spec].type: Required value: must not be empty for specified object fields"),
        c("array items without type",
            "{'type':'object','properties':{'l':{'type':'array','items':{}}}}",
            P + ".properties[l].items.type: Required value: must not be empty for specified array items"),
        c("an array needs items",
            "{'type':'object','properties':{'l':{'type':'array'}}}",
            P + ".properties[l].items: Required value: must be specified"),
        c("the root without type",
            "{'properties':{'a':{'type':'string'}}}",
            P + ".type: Required value: must not be empty at the root"),
        c("the root must be an object",
            "{'type':'string'}",
            P + ".type: Invalid value: \"string\": must be object at the root"),
        c("additionalProperties at the root",
            "{'type':'object','additionalProperties':{'type':'string'}}",
            P + ".additionalProperties: Forbidden: must not be used at the root"),
        c("a field with preserve-unknown-fields needs no type",
            "{'type':'object','properties':{'raw':{'x-kubernetes-preserve-unknown-fields':true}}}"),
        c("int-or-string needs no type, in its anyOf pattern",
            "{'type':'object','properties':{'port':{'x-kubernetes-int-or-string':true,"
                + "'anyOf':[{'type':'integer'},{'type':'string'}]}}}"),
        c("type inside anyOf is not structural outside the int-or-string pattern",
            "{'type':'object','properties':{'a':{'type':'string','anyOf':[{'type':'string'}]}}}",
            P + ".properties[a].anyOf[0].type: Forbidden: must be empty to be structural"),
        c("description and default under a junctor",
            "{'type':'object','properties':{'a':{'type':'string','allOf':[{'description':'d','default':'x'}]}}}",
            P + ".properties[a].allOf[0].default: Forbidden: must be undefined to be structural",
            P + ".properties[a].allOf[0].description: Forbidden: must be empty to be structural"),
        c("metadata under a junctor",
            "{'type':'object','properties':{'a':{'type':'object','not':{'properties':{'metadata':{}}}}}}",
            P + ".properties[a].not.properties[metadata]: Forbidden: must not be specified in a nested context"),
        c("int-or-string with preserve-unknown-fields",
            "{'type':'object','properties':{'p':{'x-kubernetes-int-or-string':true,"
                + "'x-kubernetes-preserve-unknown-fields':true}}}",
            P + ".properties[p].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true"),
        c("metadata at the root may restrict name and generateName",
            "{'type':'object','properties':{'metadata':{'type':'object','properties':{"
                + "'name':{'type':'string','maxLength':10},'generateName':{'type':'string'}}}}}"),
        c("metadata at the root may not restrict labels",
            "{'type':'object','properties':{'metadata':{'type':'object','properties':{"
                + "'labels':{'type':'object'}}}}}",
            P + ".properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified"),
        c("metadata, kind and apiVersion types at the root",
            "{'type':'object','properties':{'metadata':{'type':'string'},'kind':{'type':'integer'},"
                + "'apiVersion':{'type':'string'}}}",
            P + ".properties[kind].type: Invalid value: \"integer\": must be string",
            P + ".properties[metadata].type: Invalid value: \"string\": must be object"),
        c("an embedded resource must be an object with properties or preserve-unknown-fields",
            "{'type':'object','properties':{'e':{'x-kubernetes-embedded-resource':true}}}",
            P + ".properties[e].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
            P + ".properties[e].type: Required value: must be object if x-kubernetes-embedded-resource is true"),
        c("an embedded resource with preserve-unknown-fields",
            "{'type':'object','properties':{'e':{'type':'object','x-kubernetes-embedded-resource':true,"
                + "'x-kubernetes-preserve-unknown-fields':true}}}"),
        c("nullable at the root",
            "{'type':'object','nullable':true}",
            P + ".nullable: Forbidden: nullable cannot be true at the root"),
        c("$ref is not supported",
            "{'type':'object','properties':{'a':{'type':'object','$ref':'#/definitions/A'}}}",
            P + ".properties[a].$ref: Forbidden: $ref is not supported"),
        c("the other unsupported keywords",
            "{'type':'object','properties':{'a':{'type':'array','items':{'type':'string'},"
                + "'additionalItems':false,'uniqueItems':true,'id':'x'},"
                + "'b':{'type':'object','patternProperties':{'^x':{'type':'string'}},"
                + "'dependencies':{'c':['d']}}}}",
            P + ".properties[a].additionalItems: Forbidden: additionalItems is not supported",
            P + ".properties[a].id: Forbidden: id is not supported",
            P + ".properties[a].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
            P + ".properties[b].dependencies: Forbidden: dependencies is not supported",
            P + ".properties[b].patternProperties: Forbidden: patternProperties is not supported"),
        c("definitions are not supported",
            "{'type':'object','definitions':{'A':{'type':'string'}}}",
            P + ".definitions: Forbidden: definitions is not supported"),
        c("type null and unknown types",
            "{'type':'object','properties':{'a':{'type':'null'},'b':{'type':'int'}}}",
            P + ".properties[a].type: Forbidden: type cannot be set to null, use nullable as an alternative",
            P + ".properties[a].type: Unsupported value: \"null\": supported values: \"array\", \"boolean\", \"integer\", \"number\", \"object\", \"string\"",
            P + ".properties[b].type: Unsupported value: \"int\": supported values: \"array\", \"boolean\", \"integer\", \"number\", \"object\", \"string\""),
        c("additionalProperties and properties together",
            "{'type':'object','properties':{'s':{'type':'object','properties':{'a':{'type':'string'}},"
                + "'additionalProperties':false}}}",
            P + ".properties[s].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive"),
        c("additionalProperties true beside properties is allowed",
            "{'type':'object','properties':{'s':{'type':'object','properties':{'a':{'type':'string'}},"
                + "'additionalProperties':true}}}"),
        c("preserve-unknown-fields false",
            "{'type':'object','properties':{'s':{'type':'object','x-kubernetes-preserve-unknown-fields':false}}}",
            P + ".properties[s].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined"),
        c("int-or-string beside a type",
            "{'type':'object','properties':{'p':{'type':'string','x-kubernetes-int-or-string':true}}}"),
        c("map-type values and type",
            "{'type':'object','properties':{'m':{'type':'object','x-kubernetes-map-type':'granular'},"
                + "'n':{'type':'object','x-kubernetes-map-type':'merged'},"
                + "'o':{'type':'string','x-kubernetes-map-type':'atomic'}}}",
            P + ".properties[n].x-kubernetes-map-type: Unsupported value: \"merged\": supported values: \"atomic\", \"granular\"",
            P + ".properties[o].type: Invalid value: \"string\": must be object if x-kubernetes-map-type is specified"),
        c("list-type values",
            "{'type':'object','properties':{'l':{'type':'array','items':{'type':'string'},"
                + "'x-kubernetes-list-type':'bag'},'s':{'type':'string','x-kubernetes-list-type':'set'}}}",
            P + ".properties[l].x-kubernetes-list-type: Unsupported value: \"bag\": supported values: \"atomic\", \"set\", \"map\"",
            P + ".properties[s].type: Invalid value: \"string\": must be array if x-kubernetes-list-type is specified"),
        c("a map list needs keys",
            "{'type':'object','properties':{'l':{'type':'array','x-kubernetes-list-type':'map',"
                + "'items':{'type':'object','properties':{'name':{'type':'string'}}}}}}",
            P + ".properties[l].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map"),
        c("map keys only for map lists",
            "{'type':'object','properties':{'l':{'type':'array','x-kubernetes-list-type':'atomic',"
                + "'x-kubernetes-list-map-keys':['name'],"
                + "'items':{'type':'object','properties':{'name':{'type':'string'}}}},"
                + "'m':{'type':'array','x-kubernetes-list-map-keys':['name'],"
                + "'items':{'type':'object','properties':{'name':{'type':'string'}}}}}}",
            P + ".properties[l].x-kubernetes-list-type: Invalid value: \"atomic\": must be map if x-kubernetes-list-map-keys is non-empty",
            P + ".properties[m].x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty"),
        c("a map list with a required scalar key is accepted",
            "{'type':'object','properties':{'l':{'type':'array','x-kubernetes-list-type':'map',"
                + "'x-kubernetes-list-map-keys':['name','port'],'items':{'type':'object','required':['name'],"
                + "'properties':{'name':{'type':'string'},'port':{'type':'integer','default':80}}}}}}"),
        c("map list keys must be required or defaulted scalar properties",
            "{'type':'object','properties':{'l':{'type':'array','x-kubernetes-list-type':'map',"
                + "'x-kubernetes-list-map-keys':['name','sel','missing'],'items':{'type':'object',"
                + "'properties':{'name':{'type':'string','nullable':true},"
                + "'sel':{'type':'object','default':{}}}}}}}",
            P + ".properties[l].items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
            P + ".properties[l].items.properties[name].nullable: Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable",
            P + ".properties[l].items.properties[sel].type: Invalid value: \"object\": must be a scalar type if parent array's x-kubernetes-list-type is map",
            P + ".properties[l].x-kubernetes-list-map-keys: Invalid value: [\"name\",\"sel\",\"missing\"]: entries must all be names of item properties"),
        c("map list items must be objects",
            "{'type':'object','properties':{'l':{'type':'array','x-kubernetes-list-type':'map',"
                + "'x-kubernetes-list-map-keys':['name'],'items':{'type':'string'}}}}",
            P + ".properties[l].items.type: Invalid value: \"string\": must be object if parent array's x-kubernetes-list-type is map"),
        c("set items of objects must be atomic maps",
            "{'type':'object','properties':{'s':{'type':'array','x-kubernetes-list-type':'set',"
                + "'items':{'type':'object','properties':{'a':{'type':'string'}}}},"
                + "'t':{'type':'array','x-kubernetes-list-type':'set','items':{'type':'object',"
                + "'x-kubernetes-map-type':'atomic','properties':{'a':{'type':'string'}}}}}}",
            P + ".properties[s].items.x-kubernetes-map-type: Invalid value: \"null\": must be atomic as item of a list with x-kubernetes-list-type=set"),
        c("defaults are forbidden in top-level metadata",
            "{'type':'object','properties':{'metadata':{'type':'object','default':{'name':'x'}}}}",
            P + ".properties[metadata].default: Forbidden: must not be set in top-level metadata"),
        c("a default must validate against its schema",
            "{'type':'object','properties':{'spec':{'type':'object','properties':{"
                + "'replicas':{'type':'integer','default':'one'},"
                + "'mode':{'type':'string','enum':['a','b'],'default':'c'}}}}}",
            P + ".properties[spec].properties[mode].default: Unsupported value: \"c\": supported values: \"a\", \"b\"",
            P + ".properties[spec].properties[replicas].default: Invalid value: \"string\": in body must be of type integer: \"string\""),
        c("an object default's fields are validated with relative names",
            "{'type':'object','properties':{'spec':{'type':'object','default':{'n':'x'},"
                + "'properties':{'n':{'type':'integer'}}}}}",
            P + ".properties[spec].default.n: Invalid value: \"string\": n in body must be of type integer: \"string\""),
        c("a default must not hold unknown fields",
            "{'type':'object','properties':{'spec':{'type':'object','default':{'a':'x','b':'y'},"
                + "'properties':{'a':{'type':'string'}}}}}",
            P + ".properties[spec].default: Invalid value: {\"a\":\"x\",\"b\":\"y\"}: must not have unknown fields"),
        c("valid nested defaults are accepted",
            "{'type':'object','properties':{'spec':{'type':'object','default':{},'properties':{"
                + "'s':{'type':'object','default':{'a':'x'},'properties':{'a':{'type':'string'}}},"
                + "'l':{'type':'array','items':{'type':'integer','default':1,'minimum':0}}}}}}"),
        c("defaults are not checked while the schema is not structural",
            "{'type':'object','properties':{'a':{'default':'x'}}}",
            P + ".properties[a].type: Required value: must not be empty for specified object fields"),
        c("kube: forbidden in nested value validation",
            "{'type':'object','properties':{'foo':{'type':'string'}},"
                + "'not':{'type':'string','additionalProperties':true,'title':'hello','description':'world','nullable':true},"
                + "'allOf':[{'properties':{'foo':{'type':'string','additionalProperties':true,'title':'hello','description':'world','nullable':true}}}],"
                + "'anyOf':[{'items':{'type':'string','additionalProperties':true,'title':'hello','description':'world','nullable':true}}],"
                + "'oneOf':[{'properties':{'foo':{'type':'string','additionalProperties':true,'title':'hello','description':'world','nullable':true}}}]}",
            P + ".anyOf[0].items.type: Forbidden: must be empty to be structural",
            P + ".anyOf[0].items.additionalProperties: Forbidden: must be undefined to be structural",
            P + ".anyOf[0].items.title: Forbidden: must be empty to be structural",
            P + ".anyOf[0].items.description: Forbidden: must be empty to be structural",
            P + ".anyOf[0].items.nullable: Forbidden: must be false to be structural",
            P + ".allOf[0].properties[foo].type: Forbidden: must be empty to be structural",
            P + ".allOf[0].properties[foo].additionalProperties: Forbidden: must be undefined to be structural",
            P + ".allOf[0].properties[foo].title: Forbidden: must be empty to be structural",
            P + ".allOf[0].properties[foo].description: Forbidden: must be empty to be structural",
            P + ".allOf[0].properties[foo].nullable: Forbidden: must be false to be structural",
            P + ".oneOf[0].properties[foo].type: Forbidden: must be empty to be structural",
            P + ".oneOf[0].properties[foo].additionalProperties: Forbidden: must be undefined to be structural",
            P + ".oneOf[0].properties[foo].title: Forbidden: must be empty to be structural",
            P + ".oneOf[0].properties[foo].description: Forbidden: must be empty to be structural",
            P + ".oneOf[0].properties[foo].nullable: Forbidden: must be false to be structural",
            P + ".not.type: Forbidden: must be empty to be structural",
            P + ".not.additionalProperties: Forbidden: must be undefined to be structural",
            P + ".not.title: Forbidden: must be empty to be structural",
            P + ".not.description: Forbidden: must be empty to be structural",
            P + ".not.nullable: Forbidden: must be false to be structural",
            P + ".items: Required value: because it is defined in " + P + ".anyOf[0].items"),
        c("kube: missing types with extensions",
            "{'properties':{'foo':{'properties':{'a':{}}},"
                + "'bar':{'items':{'additionalProperties':{'properties':{'a':{}},'items':{}}}},"
                + "'abc':{'additionalProperties':{'properties':{'a':{'items':{'additionalProperties':{'items':null}}}}}},"
                + "'json':{'x-kubernetes-preserve-unknown-fields':true,'properties':{'a':{}}},"
                + "'int-or-string':{'x-kubernetes-int-or-string':true,'properties':{'a':{}}}}}",
            P + ".properties[foo].properties[a].type: Required value: must not be empty for specified object fields",
            P + ".properties[foo].type: Required value: must not be empty for specified object fields",
            P + ".properties[int-or-string].properties[a].type: Required value: must not be empty for specified object fields",
            P + ".properties[json].properties[a].type: Required value: must not be empty for specified object fields",
            P + ".properties[abc].additionalProperties.properties[a].items.additionalProperties.type: Required value: must not be empty for specified object fields",
            P + ".properties[abc].additionalProperties.properties[a].items.type: Required value: must not be empty for specified array items",
            P + ".properties[abc].additionalProperties.properties[a].type: Required value: must not be empty for specified object fields",
            P + ".properties[abc].additionalProperties.type: Required value: must not be empty for specified object fields",
            P + ".properties[abc].type: Required value: must not be empty for specified object fields",
            P + ".properties[bar].items.additionalProperties.items.type: Required value: must not be empty for specified array items",
            P + ".properties[bar].items.additionalProperties.properties[a].type: Required value: must not be empty for specified object fields",
            P + ".properties[bar].items.additionalProperties.type: Required value: must not be empty for specified object fields",
            P + ".properties[bar].items.type: Required value: must not be empty for specified array items",
            P + ".properties[bar].type: Required value: must not be empty for specified object fields",
            P + ".type: Required value: must not be empty at the root"),
        c("kube: embedded resource with the wrong type",
            "{'type':'array','x-kubernetes-embedded-resource':true,'x-kubernetes-preserve-unknown-fields':true}",
            P + ".type: Invalid value: \"array\": must be object if x-kubernetes-embedded-resource is true",
            P + ".type: Invalid value: \"array\": must be object at the root",
            P + ".items: Required value: must be specified"),
        c("an invalid pattern",
            "{'type':'object','properties':{'a':{'type':'string','pattern':'(a'}}}",
            P + ".properties[a].pattern: Invalid value: \"(a\": must be a valid regular expression, but isn't: Unclosed group"));
  }

  private static Arguments c(String name, String schema, String... errors) {
    return Arguments.of(name, schema, List.of(errors));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void validate_reportsKubesErrors(String name, String schema, List<String> expected) {
    List<FieldError> errors = StructuralSchema.validate(Json.parse(schema), P);

    assertThat(errors).map(FieldError::toString).containsExactlyInAnyOrderElementsOf(expected);
  }
}
