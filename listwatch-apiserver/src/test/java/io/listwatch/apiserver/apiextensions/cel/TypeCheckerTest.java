package io.listwatch.apiserver.apiextensions.cel;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.apiextensions.cel.TypeChecker.GroupVersionKind;
import io.listwatch.apiserver.openapi.OpenApiSchemaResolver;
import io.listwatch.apiserver.openapi.PatchMetadata;
import io.listwatch.apiserver.openapi.ProtoSchemas;
import io.listwatch.apiserver.registry.ResourceDefinition;
import io.listwatch.apiserver.registry.ResourceRegistry;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * kube's ValidatingAdmissionPolicy type checker: against the built-in kinds' real schemas, and
 * kube's {@code typechecking_test.go} tables (with one made-up schema served for every kind).
 */
class TypeCheckerTest {

  private static final ResourceRegistry REGISTRY = ResourceRegistry.builtins();
  private static final OpenApiSchemaResolver SCHEMAS = new OpenApiSchemaResolver(() -> REGISTRY,
      ProtoSchemas.builtins(PatchMetadata.builtins()));
  /** The checker of this server's built-in kinds. */
  private static final TypeChecker BUILTINS = new TypeChecker(
      (g, v, r) -> REGISTRY.find(g, v, r).map(TypeCheckerTest::gvk).stream().toList(),
      gvk -> SCHEMAS.resolveSchema(gvk.group(), gvk.version(), gvk.kind()));

  private static GroupVersionKind gvk(ResourceDefinition def) {
    return new GroupVersionKind(def.group(), def.version(), def.kind());
  }

  private static final String DEPLOYMENTS = """
      "matchConstraints":{"resourceRules":[{"apiGroups":["apps"],"apiVersions":["v1"],
        "operations":["CREATE","UPDATE"],"resources":["deployments"]}]}""";

  private static JsonNode policy(String spec) {
    return InMemoryCore.json("{\"spec\":{" + spec + "}}");
  }

  @Test
  void undefinedField_onABuiltInKind_isReportedAsKubeDoes() {
    List<ExpressionWarning> warnings = BUILTINS.check(policy(DEPLOYMENTS
        + ",\"validations\":[{\"expression\":\"object.replicas > 1\"}]"));

    assertThat(warnings).containsExactly(new ExpressionWarning("spec.validations[0].expression", """
        apps/v1, Kind=Deployment: ERROR: <input>:1:7: undefined field 'replicas'
         | object.replicas > 1
         | ......^
        """));
  }

  @Test
  void correctPolicy_hasNoWarnings() {
    assertThat(BUILTINS.check(policy(DEPLOYMENTS + """
        ,"validations":[{"expression":"object.spec.replicas > 1 && object.metadata.name.startsWith('a')",
          "messageExpression":"'replicas: ' + string(object.spec.replicas)"},
          {"expression":"oldObject == null || object.spec.template.spec.containers.all(c, c.image != '')"}]
        """))).isEmpty();
  }

  @Test
  void messageExpression_isCheckedToo_andReportedAtItsOwnPath() {
    List<ExpressionWarning> warnings = BUILTINS.check(policy(DEPLOYMENTS + """
        ,"validations":[{"expression":"object.spec.replicas > 1","messageExpression":"object.spec.replica + 'x'"}]
        """));

    assertThat(warnings).extracting(ExpressionWarning::fieldRef)
        .containsExactly("spec.validations[0].messageExpression");
    assertThat(warnings.getFirst().warning()).contains("undefined field 'replica'");
  }

  @Test
  void params_areTypedFromTheParamKindsSchema() {
    String spec = DEPLOYMENTS + ",\"paramKind\":{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\"},";

    assertThat(BUILTINS.check(policy(spec + """
        "validations":[{"expression":"object.spec.replicas <= int(params.data['max'])"}]"""))).isEmpty();
    List<ExpressionWarning> warnings = BUILTINS.check(policy(spec + """
        "validations":[{"expression":"object.spec.replicas <= params.spec.max"}]"""));
    assertThat(warnings).extracting(ExpressionWarning::fieldRef).containsExactly("spec.validations[0].expression");
    assertThat(warnings.getFirst().warning())
        .startsWith("apps/v1, Kind=Deployment: ERROR: <input>:1:31: undefined field 'spec'");
  }

  @Test
  void multipleKinds_eachFailingOne_isAParagraph_inGroupVersionKindOrder() {
    List<ExpressionWarning> warnings = BUILTINS.check(policy("""
        "matchConstraints":{"resourceRules":[{"apiGroups":["apps"],"apiVersions":["v1"],
          "operations":["CREATE"],"resources":["replicasets","deployments"]},
          {"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["pods","pods/status"]}]},
        "validations":[{"expression":"object.replicas > 1"},{"expression":"object.spec.replicas > 1"}]"""));

    assertThat(warnings).hasSize(2);
    assertThat(warnings.get(0).warning()).isEqualTo("""
        /v1, Kind=Pod: ERROR: <input>:1:7: undefined field 'replicas'
         | object.replicas > 1
         | ......^

        apps/v1, Kind=Deployment: ERROR: <input>:1:7: undefined field 'replicas'
         | object.replicas > 1
         | ......^

        apps/v1, Kind=ReplicaSet: ERROR: <input>:1:7: undefined field 'replicas'
         | object.replicas > 1
         | ......^
        """);
    assertThat(warnings.get(1).fieldRef()).isEqualTo("spec.validations[1].expression");
    assertThat(warnings.get(1).warning()).startsWith("/v1, Kind=Pod: ERROR: <input>:1:12: undefined field 'replicas'")
        .doesNotContain("Deployment").doesNotContain("ReplicaSet");
  }

  @Test
  void variables_areTypedForTheExpressions_butNotReportedOn() {
    assertThat(BUILTINS.check(policy(DEPLOYMENTS + """
        ,"variables":[{"name":"replicas","expression":"object.spec.replicas"},{"name":"bad","expression":"object.nope"}],
        "validations":[{"expression":"variables.replicas > 1"}]"""))).isEmpty();
    assertThat(BUILTINS.check(policy(DEPLOYMENTS + """
        ,"variables":[{"name":"replicas","expression":"object.spec.replicas"}],
        "validations":[{"expression":"variables.replicas == 'one'"}]""")).getFirst().warning())
        .contains("found no matching overload for '_==_' applied to '(int, string)'");
  }

  @Test
  void customResourceSchema_typesTheObject() {
    var crd = InMemoryCore.json("""
        {"group":"example.com","names":{"kind":"Widget","plural":"widgets"},"scope":"Namespaced",
         "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object",
           "properties":{"spec":{"type":"object","properties":{"size":{"type":"integer"}}}}}}}]}""");
    ResourceDefinition widgets = ResourceDefinition.builder("example.com", "v1", "Widget", "widgets")
        .customResource(new io.listwatch.apiserver.registry.CustomResourceVersion(crd, crd.path("versions").get(0)))
        .build();
    ResourceRegistry registry = REGISTRY.with(widgets);
    OpenApiSchemaResolver schemas = new OpenApiSchemaResolver(() -> registry, ProtoSchemas.builtins(PatchMetadata.builtins()));
    TypeChecker checker = new TypeChecker((g, v, r) -> registry.find(g, v, r).map(TypeCheckerTest::gvk).stream().toList(),
        gvk -> schemas.resolveSchema(gvk.group(), gvk.version(), gvk.kind()));
    String rules = "\"matchConstraints\":{\"resourceRules\":[{\"apiGroups\":[\"example.com\"],\"apiVersions\":[\"v1\"],"
        + "\"operations\":[\"CREATE\"],\"resources\":[\"widgets\"]}]},";

    assertThat(checker.check(policy(rules + """
        "validations":[{"expression":"object.spec.size < 3 && object.metadata.labels['a'] != ''"}]"""))).isEmpty();
    assertThat(checker.check(policy(rules + """
        "validations":[{"expression":"object.spec.colour == 'red'"}]""")).getFirst().warning())
        .startsWith("example.com/v1, Kind=Widget: ERROR: <input>:1:12: undefined field 'colour'");
  }

  // kube's typechecking_test.go, TestExtractTypeNames

  static Stream<Arguments> typesToCheck() {
    return Stream.of(
        Arguments.of("empty", "", List.of()),
        Arguments.of("specific", rule("apps", "v1", "deployments"), List.of("apps/v1, Kind=Deployment")),
        Arguments.of("multiple", rule("apps", "v1", "deployments") + "," + rule("", "v1", "pods"),
            List.of("/v1, Kind=Pod", "apps/v1, Kind=Deployment")),
        Arguments.of("all resources", rule("apps", "v1", "*"), List.of()),
        Arguments.of("sub resources", rule("apps", "v1", "pods/*"), List.of()),
        Arguments.of("mixtures", rule("apps", "v1", "deployments") + "," + rule("apps", "*", "deployments"),
            List.of("apps/v1, Kind=Deployment")),
        Arguments.of("wildcard group", rule("*", "v1", "deployments"), List.of()),
        Arguments.of("unknown resource", rule("apps", "v1", "gadgets"), List.of()));
  }

  private static String rule(String group, String version, String resource) {
    return "{\"apiGroups\":[\"" + group + "\"],\"apiVersions\":[\"" + version + "\"],\"resources\":[\"" + resource
        + "\"]}";
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void typesToCheck(String name, String rules, List<String> expected) {
    JsonNode spec = policy("\"matchConstraints\":{\"resourceRules\":[" + rules + "]}").path("spec");
    assertThat(BUILTINS.typesToCheck(spec)).map(GroupVersionKind::toString).containsExactlyElementsOf(expected);
  }

  @Test
  void typesToCheck_stopsAtTenKinds() {
    TypeChecker checker = new TypeChecker((g, v, r) -> List.of(new GroupVersionKind(g, v, "Kind" + r)),
        gvk -> Optional.empty());
    String resources = String.join(",", Stream.of("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l")
        .map(r -> "\"" + r + "\"").toList());
    JsonNode spec = policy("\"matchConstraints\":{\"resourceRules\":[{\"apiGroups\":[\"x\"],\"apiVersions\":[\"v1\"],"
        + "\"resources\":[" + resources + "]}]}").path("spec");

    assertThat(checker.typesToCheck(spec)).hasSize(TypeChecker.MAX_TYPES_TO_CHECK)
        .last().extracting(GroupVersionKind::kind).isEqualTo("Kindj");
  }

  // kube's typechecking_test.go, TestTypeCheck: one schema served for every kind

  private static final String FOO_STRING = "{\"type\":\"object\",\"properties\":{\"foo\":{\"type\":\"string\"}}}";
  private static final String FOO_INT = "{\"type\":\"object\",\"properties\":{\"foo\":{\"type\":\"integer\"}}}";

  static Stream<Arguments> typeCheck() {
    String deploymentPolicy = DEPLOYMENTS + ",\"validations\":[{\"expression\":\"object.foo == 'bar'\"}]";
    return Stream.of(
        Arguments.of("empty", "", FOO_STRING, null, null),
        Arguments.of("unresolved schema", deploymentPolicy, null, null, null),
        Arguments.of("passed check", deploymentPolicy, FOO_STRING, null, null),
        Arguments.of("undefined field", deploymentPolicy,
            "{\"type\":\"object\",\"properties\":{\"bar\":{\"type\":\"string\"}}}",
            "spec.validations[0].expression", "undefined field 'foo'"),
        Arguments.of("field type mismatch", deploymentPolicy, FOO_INT, "spec.validations[0].expression",
            "found no matching overload"),
        Arguments.of("params", DEPLOYMENTS + ",\"paramKind\":{\"apiVersion\":\"v1\",\"kind\":\"DoesNotMatter\"},"
            + "\"validations\":[{\"expression\":\"object.foo == params.bar\"}]", FOO_STRING,
            "spec.validations[0].expression", "undefined field 'bar'"),
        Arguments.of("params with untyped schema", DEPLOYMENTS + ",\"paramKind\":{\"apiVersion\":\"v1\","
            + "\"kind\":\"Config\"},\"validations\":[{\"expression\":\"params != null\"}]", "{}", null, null),
        Arguments.of("multiple expressions", DEPLOYMENTS + ",\"validations\":[{\"expression\":\"object.foo == 'bar'\"},"
            + "{\"expression\":\"object.bar == 'foo'\"}]", FOO_STRING, "spec.validations[1].expression",
            "undefined field 'bar'"),
        Arguments.of("message expressions", DEPLOYMENTS + ",\"validations\":[{\"expression\":\"object.foo == 'bar'\","
            + "\"messageExpression\":\"object.foo + 114514\"}]", FOO_STRING, "spec.validations[0].messageExpression",
            "found no matching overload"),
        Arguments.of("additionalProperties: true", DEPLOYMENTS
            + ",\"validations\":[{\"expression\":\"has(object.spec.text)\"}]", """
            {"type":"object","properties":{"spec":{"type":"object","properties":{"text":{"type":"string"}}},
             "status":{"type":"object","properties":{"problematicProperty":{"type":"object",
               "additionalProperties":true}}}}}""", null, null),
        Arguments.of("schema without type", DEPLOYMENTS + ",\"validations\":[{\"expression\":\"true\"}]", "{}",
            null, null),
        Arguments.of("variables valid", DEPLOYMENTS + ",\"variables\":[{\"name\":\"works\",\"expression\":\"true\"}],"
            + "\"validations\":[{\"expression\":\"variables.works\"}]", FOO_INT, null, null),
        Arguments.of("variables missing field", DEPLOYMENTS + ",\"variables\":[{\"name\":\"works\","
            + "\"expression\":\"true\"}],\"validations\":[{\"expression\":\"variables.nonExisting\"}]", FOO_INT,
            "spec.validations[0].expression", "undefined field 'nonExisting'"),
        Arguments.of("variables field wrong type", DEPLOYMENTS + ",\"variables\":[{\"name\":\"name\","
            + "\"expression\":\"'something'\"}],\"validations\":[{\"expression\":\"variables.name == object.foo\"}]",
            FOO_INT, "spec.validations[0].expression", "found no matching overload for '_==_' applied to '(string, int)'"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void typeCheck(String name, String spec, String schema, String fieldRef, String contains) {
    TypeChecker checker = new TypeChecker(
        (g, v, r) -> REGISTRY.find(g, v, r).map(TypeCheckerTest::gvk).stream().toList(),
        gvk -> Optional.ofNullable(schema).map(InMemoryCore::json));

    List<ExpressionWarning> warnings = checker.check(policy(spec));

    if (fieldRef == null) {
      assertThat(warnings).isEmpty();
    } else {
      assertThat(warnings).hasSize(1);
      assertThat(warnings.getFirst().fieldRef()).isEqualTo(fieldRef);
      assertThat(warnings.getFirst().warning()).contains(contains);
    }
  }
}
