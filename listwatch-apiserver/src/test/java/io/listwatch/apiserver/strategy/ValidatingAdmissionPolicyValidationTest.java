package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube's validation of ValidatingAdmissionPolicies and their bindings, from the cases of kube's
 * {@code TestValidateValidatingAdmissionPolicy} and {@code TestValidateValidatingAdmissionPolicyBinding}
 * (objects as given, without defaults, as kube's tests validate internal objects; each expected
 * error is contained in kube's aggregate, as there). CEL-Java words a syntax error without
 * cel-go's {@code Syntax error: } prefix, so those two cases expect its text.
 */
class ValidatingAdmissionPolicyValidationTest {

  private static final RestStrategy POLICY = new ValidatingAdmissionPolicyStrategy();
  private static final RestStrategy BINDING = new ValidatingAdmissionPolicyBindingStrategy();

  private static final String RULES = """
      "matchConstraints":{"matchPolicy":"Exact","namespaceSelector":{"matchLabels":{"a":"b"}},
        "objectSelector":{"matchLabels":{"a":"b"}},
        "resourceRules":[{"operations":["CREATE"],"apiGroups":["a"],"apiVersions":["a"],"resources":["a"]}]}""";

  private static String policy(String spec) {
    return "{\"metadata\":{\"name\":\"config\"},\"spec\":{" + spec + "}}";
  }

  /** A valid policy's spec with {@code extra} fields. */
  private static String valid(String extra) {
    return policy("\"failurePolicy\":\"Fail\"," + RULES + (extra.isEmpty() ? "" : "," + extra));
  }

  private static List<String> errors(String policy) {
    return StrategyCases.causes(POLICY, policy);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
      "failurePolicy":"other","validations":[{"expression":"object.x < 100"}]                      | spec.failurePolicy: Unsupported value: "other": supported values: "Fail", "Ignore"
      "validations":[{"expression":"object.x < 100"}],"paramKind":{"kind":"Example","apiVersion":"test.example.com"} | spec.paramKind.apiVersion: Invalid value: "test.example.com"
      "validations":[{"expression":"object.x < 100"}],"paramKind":{"apiVersion":"test.example.com/v1"}             | spec.paramKind.kind: Required value
      "validations":[{"expression":"object.x < 100"}],"paramKind":{"kind":"Example","apiVersion":"test.example.com/!!!"} | spec.paramKind.apiVersion: Invalid value: "!!!":
      "validations":[{"expression":"object.x < 100"}],"paramKind":{"kind":"ReplicaLimit","apiVersion":"!!!/v1"}    | spec.paramKind.apiVersion: Invalid value: "!!!":
      `"x":1`                                                                                      | spec.validations: Required value: validations or auditAnnotations must contain at least one item
      "validations":[{"expression":"object.x < 100","reason":"other"}]                             | spec.validations[0].reason: Unsupported value: "other"
      "validations":[{"expression":"object.x < 100"}]                                              | spec.matchConstraints: Required value
      "validations":[{"expression":"object.x < 100"}],"matchConstraints":{}                        | spec.matchConstraints.resourceRules: Required value
      "validations":[{"expression":"object.x < 100"}],"matchConstraints":{"resourceRules":[{"resourceNames":["/./."]}]} | spec.matchConstraints.resourceRules[0].apiVersions: Required value
      "validations":[{}]                                                                           | spec.validations[0].expression: Required value: expression is not specified
      "validations":[{"expression":"object.x < 100"}],"matchConstraints":{"resourceRules":[{"resourceNames":["/./."]}]} | spec.matchConstraints.resourceRules[0].resourceNames[0]: Invalid value: "/./."
      "validations":[{"expression":"object.x < 100"}],"matchConstraints":{"resourceRules":[{"resourceNames":["test","test"]}]} | spec.matchConstraints.resourceRules[0].resourceNames[1]: Duplicate value: "test"
      "validations":[{"expression":"object.x < 100"}],"matchConstraints":{"matchPolicy":"other"}   | spec.matchConstraints.matchPolicy: Unsupported value: "other": supported values: "Equivalent", "Exact"
      "validations":[{"expression":"object.x < 100"}],"matchConstraints":{"resourceRules":[{"operations":["CREATE",""],"apiGroups":["a"],"apiVersions":["a"],"resources":["a"]}]} | Unsupported value: ""
      "validations":[{"expression":"object.x < 100"}],"matchConstraints":{"resourceRules":[{"operations":["PATCH"],"apiGroups":["a"],"apiVersions":["a"],"resources":["a"]}]} | Unsupported value: "PATCH"
      "validations":[{"expression":"object.x < 100"}],"matchConstraints":{"resourceRules":[{"operations":["CREATE","*"],"apiGroups":["a"],"apiVersions":["a"],"resources":["a"]}]} | if '*' is present, must not specify other operations
      "validations":[{"expression":"object.x < 100"}],"matchConstraints":{"resourceRules":[{"operations":["CREATE"],"apiGroups":["a"],"apiVersions":["a"],"resources":["*","a"]}]} | if '*' is present, must not specify other resources without subresources
      "validations":[{"expression":"object.x < 100"}],"matchConstraints":{"resourceRules":[{"operations":["CREATE"],"apiGroups":["a"],"apiVersions":["a"],"resources":["a/*","a/x"]}]} | spec.matchConstraints.resourceRules[0].resources[1]: Invalid value: "a/x": if 'a/*' is present, must not specify a/x
      "validations":[{"expression":"object.x < 100"}],"matchConstraints":{"resourceRules":[{"operations":["CREATE"],"apiGroups":["a"],"apiVersions":["a"],"resources":["*/a","x/a"]}]} | spec.matchConstraints.resourceRules[0].resources[1]: Invalid value: "x/a": if '*/a' is present, must not specify x/a
      "validations":[{"expression":"object.x < 100"}],"matchConstraints":{"resourceRules":[{"operations":["CREATE"],"apiGroups":["a"],"apiVersions":["a"],"resources":["*/*","a"]}]} | if '*/*' is present, must not specify other resources
      "validations":[{"expression":"object.x < 100"}],"matchConstraints":{"resourceRules":[{"operations":["CREATE"],"apiGroups":["a"],"apiVersions":["a"],"resources":["a"],"scope":"other"}]} | spec.matchConstraints.resourceRules[0].scope: Unsupported value: "other": supported values: "*", "Cluster", "Namespaced"
      "validations":[{"expression":"object.x < 100"}],"matchConstraints":{"namespaceSelector":{"matchExpressions":[{"key":"a","operator":"nop"}]}} | spec.matchConstraints.namespaceSelector.matchExpressions[0].operator: Invalid value: "nop": not a valid selector operator
      "validations":[{"expression":"object.x < 100"}],"matchConstraints":{"objectSelector":{"matchLabels":{"a":"b@"}}} | spec.matchConstraints.objectSelector.matchLabels: Invalid value: "b@"
      "validations":[{"expression":"object.x < 100","message":"   "}]                              | spec.validations[0].message: Invalid value: "   ": message must be non-empty if specified
      "validations":[{"expression":"object.x < 100","message":"hello \\n world"}]                  | spec.validations[0].message: Invalid value: "hello \\n world": message must not contain line breaks
      "validations":[{"expression":"object.x < 100","messageExpression":"   "}]                    | spec.validations[0].messageExpression: Invalid value: "   ": must be non-empty if specified
      "validations":[{"expression":"object.x < 100","messageExpression":"object.x in [1, 2, "}]    | spec.validations[0].messageExpression: Invalid value: "object.x in [1, 2, ": compilation failed: ERROR: <input>:1:20: missing ']' at '<EOF>'
      "validations":[{"expression":"object.x < 100","messageExpression":"0"}]                      | spec.validations[0].messageExpression: Invalid value: "0": must evaluate to string
      "validations":[{"expression":"object.x"}]                                                    | spec.validations[0].expression: Invalid value: "object.x": must evaluate to bool
      "validations":[{"expression":"params.x < 100"}]                                              | undeclared reference to 'params'
      "auditAnnotations":[{"key":"@","valueExpression":"value"}]                                   | spec.auditAnnotations[0].key: Invalid value: "config/@": name part must consist of alphanumeric characters
      "auditAnnotations":[{"key":"a","valueExpression":"'value'"},{"key":"a","valueExpression":"'value'"}] | spec.auditAnnotations[1].key: Duplicate value: "a"
      "auditAnnotations":[{"key":"something","valueExpression":"true"}]                            | spec.auditAnnotations[0].valueExpression: Invalid value: "true": must evaluate to one of [string null_type]
      "auditAnnotations":[{"key":"something","valueExpression":"object.x in [1, 2, "}]             | spec.auditAnnotations[0].valueExpression: Invalid value: "object.x in [1, 2, ": compilation failed: ERROR: <input>:1:19: missing ']' at '<EOF>'
      "auditAnnotations":[{"key":"something","valueExpression":""}]                                | spec.auditAnnotations[0].valueExpression: Required value: valueExpression is not specified
      "matchConditions":[{"expression":"true"}],"validations":[{"expression":"object.x < 100"}]    | spec.matchConditions[0].name: Required value
      "matchConditions":[{"name":"hasParams","expression":"params.foo == 'okay'"}],"validations":[{"expression":"object.x < 100"}] | undeclared reference to 'params'
      "matchConditions":[{"name":"a","expression":"true"},{"name":"a","expression":"true"}],"validations":[{"expression":"true"}] | spec.matchConditions[1].name: Duplicate value: "a"
      "variables":[{"name":"    ","expression":"true"}],"validations":[{"expression":"true"}]     | spec.variables[0].name: Required value: name is not specified
      "variables":[{"name":"4ever","expression":"true"}],"validations":[{"expression":"true"}]     | spec.variables[0].name: Invalid value: "4ever": name is not a valid CEL identifier
      "variables":[{"name":"foo","expression":"114 + '514'"}],"validations":[{"expression":"true"}] | spec.variables[0].expression: Invalid value: "114 + '514'": compilation failed: ERROR: <input>:1:5: found no matching overload for '_+_' applied to '(int, string)
      "variables":[{"name":"foo","expression":"1 + 1"},{"name":"bar","expression":"variables.foo + 1"}],"validations":[{"expression":"variables.foo > 1"},{"expression":"variables.replicas == 2"}] | spec.validations[1].expression: Invalid value: "variables.replicas == 2": compilation failed: ERROR: <input>:1:10: undefined field 'replicas'
      "variables":[{"name":"correct","expression":"object"},{"name":"bar","expression":"variables.foo + 1"},{"name":"foo","expression":"1 + 1"}],"validations":[{"expression":"variables.foo > 1"}] | spec.variables[1].expression: Invalid value: "variables.foo + 1": compilation failed: ERROR: <input>:1:10: undefined field 'foo'
      """)
  void invalid(String spec, String expected) {
    assertThat(errors(policy(spec))).as(spec).anySatisfy(e -> assertThat(e).contains(expected));
  }

  @Test
  void operationsRequired_inEveryRule() {
    String rule = "{\"operations\":[],\"apiGroups\":[\"a\"],\"apiVersions\":[\"a\"],\"resources\":[\"a\"]}";
    String rule2 = "{\"apiGroups\":[\"a\"],\"apiVersions\":[\"a\"],\"resources\":[\"a\"]}";
    assertThat(errors(policy("""
        "failurePolicy":"Fail","validations":[{"expression":"object.x < 100"}],
        "matchConstraints":{"matchPolicy":"Exact","namespaceSelector":{},"objectSelector":{},
          "resourceRules":[%s,%s],"excludeResourceRules":[%s,%s]}""".formatted(rule, rule2, rule, rule2))))
        .containsExactly(
            "spec.matchConstraints.resourceRules[0].operations: Required value",
            "spec.matchConstraints.resourceRules[1].operations: Required value",
            "spec.matchConstraints.excludeResourceRules[0].operations: Required value",
            "spec.matchConstraints.excludeResourceRules[1].operations: Required value");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
      "validations":[{"expression":"object.x < 100"}]
      "matchConstraints":{"matchPolicy":"Exact","namespaceSelector":{},"objectSelector":{},"resourceRules":[{"operations":["CREATE"],"apiGroups":["a"],"apiVersions":["a"],"resources":["*","a/b","a/*","*/b"]}]},"validations":[{"expression":"object.x < 100"}]
      "paramKind":{"kind":"Foo","apiVersion":"foobar/v1alpha1"},"matchConditions":[{"name":"hasParams","expression":"params.foo == 'okay'"}],"validations":[{"expression":"object.x < 100"}]
      "validations":[{"expression":"object.x < 100","messageExpression":"'x is ' + string(object.x)","reason":"Forbidden"}]
      "auditAnnotations":[{"key":"high-replica-count","valueExpression":"'Deployment spec.replicas set to ' + string(object.spec.replicas)"}]
      "variables":[{"name":"foo","expression":"1 + 1"},{"name":"exempt","expression":"object.x == 1"}],"validations":[{"expression":"variables.exempt"},{"expression":"variables.foo > 1"}]
      """)
  void valid_(String extra) {
    String json = extra.contains("matchConstraints") ? policy("\"failurePolicy\":\"Fail\"," + extra) : valid(extra);
    assertThat(errors(json)).isEmpty();
  }

  @Test
  void defaults_fillKubesV1Defaults_andAreValid() {
    String json = policy("""
        "matchConstraints":{"resourceRules":[{"operations":["CREATE"],"apiGroups":["apps"],"apiVersions":["v1"],
          "resources":["deployments"]}]},"validations":[{"expression":"object.spec.replicas <= 5"}]""");
    assertThat(StrategyCases.create(POLICY, json)).isEmpty();
  }

  @Test
  void statusUpdate_checksTypeCheckingWarnings() {
    var obj = io.listwatch.apiserver.InMemoryCore.json(valid("\"validations\":[{\"expression\":\"true\"}]"));
    obj.putObject("status").putObject("typeChecking").putArray("expressionWarnings").addObject().put("fieldRef", "");
    io.listwatch.api.StatusException e = org.assertj.core.api.Assertions.catchThrowableOfType(
        io.listwatch.api.StatusException.class, () -> POLICY.prepareForStatusUpdate(obj, obj.deepCopy()));
    assertThat(e.getMessage()).isEqualTo("ValidatingAdmissionPolicy.admissionregistration.k8s.io \"config\" is"
        + " invalid: [status.typeChecking.expressionWarnings[0].warning: Required value,"
        + " status.typeChecking.expressionWarnings[0].fieldRef: Required value]");
  }

  private static String binding(String spec) {
    return "{\"metadata\":{\"name\":\"config\"},\"spec\":{" + spec + "}}";
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
      "policyName":"xyzlimit-scale.example.com","validationActions":["Deny"],"paramRef":{"name":"xyzlimit-scale-setting.example.com","parameterNotFoundAction":"Deny"}
      "policyName":"xyzlimit-scale.example.com","validationActions":["Warn","Audit"],"paramRef":{"selector":{"matchLabels":{"a":"b"}},"parameterNotFoundAction":"Allow"}
      "policyName":"xyzlimit-scale.example.com","validationActions":["Audit"],"matchResources":{"matchPolicy":"Exact","namespaceSelector":{},"objectSelector":{}}
      """)
  void binding_valid(String spec) {
    assertThat(StrategyCases.causes(BINDING, binding(spec))).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
      "validationActions":["Deny"]                                                                  | spec.policyName: Required value
      "policyName":"!!!!","validationActions":["Deny"]                                              | spec.policyName: Invalid value: "!!!!": a lowercase RFC 1123 subdomain
      "policyName":"p","validationActions":["Deny"],"paramRef":{"name":"xyz","selector":{},"parameterNotFoundAction":"Deny"} | spec.paramRef.name: Forbidden: name and selector are mutually exclusive
      "policyName":"p","validationActions":["Deny"],"paramRef":{"name":"xyz","selector":{},"parameterNotFoundAction":"Deny"} | spec.paramRef.selector: Forbidden: name and selector are mutually exclusive
      "policyName":"p","validationActions":["Deny"],"paramRef":{"parameterNotFoundAction":"Deny"}   | spec.paramRef: Required value: one of name or selector must be specified
      "policyName":"p","validationActions":["Deny"],"paramRef":{"name":"xyz"}                       | spec.paramRef.parameterNotFoundAction: Required value
      "policyName":"p","validationActions":["Deny"],"paramRef":{"name":"xyz","parameterNotFoundAction":"DoNothing"} | spec.paramRef.parameterNotFoundAction: Unsupported value: "DoNothing": supported values: "Deny", "Allow"
      "policyName":"p","validationActions":["Deny"],"paramRef":{"name":"a/b","parameterNotFoundAction":"Deny"} | spec.paramRef.name: Invalid value: "a/b": may not contain '/'
      "policyName":"p","validationActions":["Deny"],"matchResources":{"matchPolicy":"other","namespaceSelector":{},"objectSelector":{}} | spec.matchResouces.matchPolicy: Unsupported value: "other": supported values: "Equivalent", "Exact"
      "policyName":"p","validationActions":["Deny"],"matchResources":{"namespaceSelector":{},"objectSelector":{}} | spec.matchResouces.matchPolicy: Required value
      "policyName":"p"                                                                              | spec.validationActions: Required value: at least one validation action is required
      "policyName":"p","validationActions":["illegal"]                                              | spec.validationActions[0]: Unsupported value: "illegal": supported values: "Audit", "Deny", "Warn"
      "policyName":"p","validationActions":["Audit","Audit"]                                        | spec.validationActions[1]: Duplicate value: "Audit"
      "policyName":"p","validationActions":["Deny","Warn"]                                          | spec.validationActions: Invalid value: []string{"Deny", "Warn"}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)
      """)
  void binding_invalid(String spec, String expected) {
    assertThat(StrategyCases.causes(BINDING, binding(spec))).as(spec).anySatisfy(e -> assertThat(e).contains(expected));
  }

  @Test
  void tables_asKubePrintsThem() {
    var p = io.listwatch.apiserver.InMemoryCore.json(valid(
        "\"paramKind\":{\"apiVersion\":\"rules.example.com/v1\",\"kind\":\"ReplicaLimit\"},\"validations\":[{\"expression\":\"true\"},{\"expression\":\"true\"}]"));
    assertThat(new io.listwatch.apiserver.printers.ValidatingAdmissionPolicyTableConvertor().row(p, java.time.Instant.EPOCH)
        .cells().subList(0, 3)).containsExactly("config", 2L, "rules.example.com/v1/ReplicaLimit");
    var convertor = new io.listwatch.apiserver.printers.ValidatingAdmissionPolicyBindingTableConvertor();
    var b = io.listwatch.apiserver.InMemoryCore.json(binding("\"policyName\":\"p\",\"paramRef\":{\"name\":\"x\"}"));
    assertThat(convertor.row(b, java.time.Instant.EPOCH).cells().subList(0, 3)).containsExactly("config", "p", "*/x");
    b = io.listwatch.apiserver.InMemoryCore.json(binding("\"policyName\":\"p\",\"paramRef\":{\"selector\":{\"matchLabels\":{\"a\":\"b\"}}}"));
    assertThat(convertor.row(b, java.time.Instant.EPOCH).cells().get(2))
        .isEqualTo("&LabelSelector{MatchLabels:map[string]string{a: b,},MatchExpressions:[]LabelSelectorRequirement{},}");
    b = io.listwatch.apiserver.InMemoryCore.json(binding("\"policyName\":\"p\""));
    assertThat(convertor.row(b, java.time.Instant.EPOCH).cells().get(2)).isEqualTo("<unset>");
  }
}
