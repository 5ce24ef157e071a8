package io.listwatch.apiserver.apiextensions.cel;

import static io.listwatch.apiserver.apiextensions.cel.CelValidatorTest.json;
import static io.listwatch.apiserver.apiextensions.cel.CelValidatorTest.root;
import static io.listwatch.apiserver.apiextensions.cel.CelValidatorTest.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.schema.FieldError;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each case: a CRD version's schema and the errors kube gives when the CRD is written, for
 * {@code x-kubernetes-validations} that cannot be used. Wording from kube's apiextensions
 * validation and its CRD documentation.
 */
class CompileErrorsTest {

  private static final String AT = "spec.versions[0].schema.openAPIV3Schema";
  private static final String SPEC_RULES = AT + ".properties[spec].x-kubernetes-validations";
  private static final String INTS = "'replicas':{'type':'integer'}";

  static Stream<Arguments> cases() {
    return Stream.of(
        c("rules that compile", spec(INTS, "{'rule':'self.replicas > 0'}")),
        c("an undefined field", spec(INTS, "{'rule':'self.nonExistingField > 0'}"),
            SPEC_RULES + "[0].rule: Invalid value: apiextensions.ValidationRule{"
                + "Rule:\"self.nonExistingField > 0\", Message:\"\", MessageExpression:\"\","
                + " Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\","
                + " OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:5:"
                + " undefined field 'nonExistingField'\n"
                + " | self.nonExistingField > 0\n"
                + " | ....^"),
        c("no matching overload", root("{'type':'integer','x-kubernetes-validations':"
                + "[{'rule':'self == true'}]}"),
            AT + ".properties[spec].x-kubernetes-validations[0].rule: Invalid value:"
                + " apiextensions.ValidationRule{Rule:\"self == true\", Message:\"\","
                + " MessageExpression:\"\", Reason:(*apiextensions.FieldValueErrorReason)(nil),"
                + " FieldPath:\"\", OptionalOldSelf:(*bool)(nil)}: compilation failed:"
                + " ERROR: <input>:1:6: found no matching overload for '_==_' applied to"
                + " '(int, bool)' (candidates: (%A0, %A0))\n"
                + " | self == true\n"
                + " | .....^"),
        c("a syntax error", spec(INTS, "{'rule':'self.replicas >','message':'m'}"),
            SPEC_RULES + "[0].rule: Invalid value: apiextensions.ValidationRule{"
                + "Rule:\"self.replicas >\", Message:\"m\", MessageExpression:\"\","
                + " Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\","
                + " OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:16:"
                + " mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true',"
                + " 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n"
                + " | self.replicas >\n"
                + " | ...............^"),
        c("a rule that is not a bool", spec(INTS, "{'rule':'self.replicas'}"),
            SPEC_RULES + "[0].rule: Invalid value: apiextensions.ValidationRule{"
                + "Rule:\"self.replicas\", Message:\"\", MessageExpression:\"\","
                + " Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\","
                + " OptionalOldSelf:(*bool)(nil)}: cel expression must evaluate to a bool"),
        c("a nested rule, deep in items", root("{'type':'object','properties':{'ports':{"
                + "'type':'array','items':{'type':'object','properties':{'port':{"
                + "'type':'integer','x-kubernetes-validations':[{'rule':'self.x'}]}}}}}}"),
            AT + ".properties[spec].properties[ports].items.properties[port]"
                + ".x-kubernetes-validations[0].rule: Invalid value:"
                + " apiextensions.ValidationRule{Rule:\"self.x\", Message:\"\","
                + " MessageExpression:\"\", Reason:(*apiextensions.FieldValueErrorReason)(nil),"
                + " FieldPath:\"\", OptionalOldSelf:(*bool)(nil)}: compilation failed:"
                + " ERROR: <input>:1:5: type 'int' does not support field selection\n"
                + " | self.x\n"
                + " | ....^"),
        c("an empty rule", spec(INTS, "{'rule':'  '}"),
            SPEC_RULES + "[0].rule: Required value: rule is not specified"),
        c("a blank message", spec(INTS, "{'rule':'true','message':' '}"),
            SPEC_RULES + "[0].message: Invalid value: \" \": message must be non-empty if"
                + " specified"),
        c("a message with a line break", spec(INTS, "{'rule':'true','message':'a\\nb'}"),
            SPEC_RULES + "[0].message: Invalid value: \"a\\nb\": message must not contain line"
                + " breaks"),
        c("a multi-line rule without a message", spec(INTS, "{'rule':'true &&\\ntrue'}"),
            SPEC_RULES + "[0].message: Required value: message must be specified if rule"
                + " contains line breaks"),
        c("an unsupported reason", spec(INTS, "{'rule':'true','reason':'Nope'}"),
            SPEC_RULES + "[0].reason: Unsupported value: \"Nope\": supported values:"
                + " \"FieldValueDuplicate\", \"FieldValueForbidden\", \"FieldValueInvalid\","
                + " \"FieldValueRequired\""),
        c("a fieldPath to no field", spec(INTS, "{'rule':'true','fieldPath':'.nope'}"),
            SPEC_RULES + "[0].fieldPath: Invalid value: \".nope\": fieldPath must be a valid"
                + " path"),
        c("a blank messageExpression", spec(INTS, "{'rule':'true','messageExpression':' '}"),
            SPEC_RULES + "[0].messageExpression: Required value: messageExpression must be"
                + " non-empty if specified"),
        c("a messageExpression that is not a string", spec(INTS,
                "{'rule':'true','messageExpression':'1'}"),
            SPEC_RULES + "[0].messageExpression: Invalid value: apiextensions.ValidationRule{"
                + "Rule:\"true\", Message:\"\", MessageExpression:\"1\","
                + " Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\","
                + " OptionalOldSelf:(*bool)(nil)}: messageExpression must evaluate to a string"),
        c("optionalOldSelf on a rule without oldSelf", spec(INTS,
                "{'rule':'true','optionalOldSelf':true}"),
            SPEC_RULES + "[0].optionalOldSelf: Invalid value: true: may not be set if oldSelf"
                + " is not used in rule"),
        c("a messageExpression that does not compile", spec(INTS,
                "{'rule':'true','messageExpression':'self.nope'}"),
            SPEC_RULES + "[0].messageExpression: Invalid value: apiextensions.ValidationRule{"
                + "Rule:\"true\", Message:\"\", MessageExpression:\"self.nope\","
                + " Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\","
                + " OptionalOldSelf:(*bool)(nil)}: messageExpression compilation failed:"
                + " ERROR: <input>:1:5: undefined field 'nope'\n"
                + " | self.nope\n"
                + " | ....^"),
        c("a transition rule under a list that is not a list-map", root("{'type':'object',"
                + "'properties':{'tags':{'type':'array','items':{'type':'string',"
                + "'x-kubernetes-validations':[{'rule':'self == oldSelf'}]}}}}"),
            AT + ".properties[spec].properties[tags].items.x-kubernetes-validations[0].rule:"
                + " Invalid value: \"self == oldSelf\": oldSelf cannot be used on the"
                + " uncorrelatable portion of the schema within " + AT
                + ".properties[spec].properties[tags]"),
        c("a transition rule under a list-map compiles", root("{'type':'object','properties':{"
            + "'ports':{'type':'array','x-kubernetes-list-type':'map',"
            + "'x-kubernetes-list-map-keys':['name'],'items':{'type':'object',"
            + "'properties':{'name':{'type':'string'}},"
            + "'x-kubernetes-validations':[{'rule':'self == oldSelf'}]}}}}")),
        c("every rule that does not compile is reported, in order", spec(INTS,
                "{'rule':'self.replicas > 0'},{'rule':'self.a'},{'rule':'self.b'}"),
            SPEC_RULES + "[1].rule: Invalid value: apiextensions.ValidationRule{"
                + "Rule:\"self.a\", Message:\"\", MessageExpression:\"\","
                + " Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\","
                + " OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:5:"
                + " undefined field 'a'\n"
                + " | self.a\n"
                + " | ....^",
            SPEC_RULES + "[2].rule: Invalid value: apiextensions.ValidationRule{"
                + "Rule:\"self.b\", Message:\"\", MessageExpression:\"\","
                + " Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\","
                + " OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:5:"
                + " undefined field 'b'\n"
                + " | self.b\n"
                + " | ....^"),
        c("a badly written rule keeps the rules beside and above it from compiling", root(
                "{'type':'object','properties':{'replicas':{'type':'integer',"
                    + "'x-kubernetes-validations':[{'rule':''}]}},"
                    + "'x-kubernetes-validations':[{'rule':'self.nope'}]}"),
            AT + ".properties[spec].properties[replicas].x-kubernetes-validations[0].rule:"
                + " Required value: rule is not specified"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void compileErrors_areKubesCrdErrors(String name, String schema, List<String> expected) {
    List<FieldError> errors = CelValidator.compileErrors(json(schema), AT);
    assertThat(errors).map(FieldError::toString).containsExactlyElementsOf(expected);
  }

  private static Arguments c(String name, String schema, String... expected) {
    return Arguments.of(name, schema, List.of(expected));
  }
}
