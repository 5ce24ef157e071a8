package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube 1.32's {@code ValidateFlowSchema} and the flowcontrol/v1 defaults: each row a FlowSchema's
 * name and spec (cases of kube's {@code TestFlowSchemaValidation}) and every cause of the create,
 * or none; then the kind through the core (create, get, update, {@code /status}).
 */
class FlowSchemaValidationTest {

  private static final String FSS = "/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas";
  private static final String FS = "{\"apiVersion\":\"flowcontrol.apiserver.k8s.io/v1\",\"kind\":\"FlowSchema\","
      + "\"metadata\":{\"name\":\"%s\"},\"spec\":%s}";
  private static final FlowSchemaStrategy STRATEGY = new FlowSchemaStrategy();
  /** A rule's subjects, User noxu; rows append their rules after it. */
  private static final String NOXU = "{\"matchingPrecedence\":50,\"priorityLevelConfiguration\":{\"name\":\"system-bar\"},"
      + "\"rules\":[{\"subjects\":[{\"kind\":\"User\",\"user\":{\"name\":\"noxu\"}}]";
  private static final String ALL = "\"resourceRules\":[{\"verbs\":[\"*\"],\"apiGroups\":[\"*\"],\"resources\":[\"*\"],"
      + "\"clusterScope\":true,\"namespaces\":[\"*\"]}]";

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
      system-foo | NOXU}]} | spec.rules[0]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty
      system-foo | NOXU,"resourceRules":[{"verbs":["*"],"apiGroups":["*"],"resources":["*"],"namespaces":["*"]}]}]} |
      system-foo | {"matchingPrecedence":50,"priorityLevelConfiguration":{"name":"system-bar"},"rules":[{"subjects":[{"kind":"ServiceAccount","user":{"name":"fred"},"group":{"name":"fred"}}],"nonResourceRules":[{"verbs":["*"],"nonResourceURLs":["*"]}]}]} | spec.rules[0].subjects[0].serviceAccount: Required value: serviceAccount is required when subject kind is 'ServiceAccount' ;; spec.rules[0].subjects[0].user: Forbidden: user is forbidden when subject kind is not 'User' ;; spec.rules[0].subjects[0].group: Forbidden: group is forbidden when subject kind is not 'Group'
      system-foo | {"matchingPrecedence":50,"priorityLevelConfiguration":{"name":"system-bar"},"rules":[{"subjects":[{"kind":"User","group":{"name":"fred"},"serviceAccount":{"namespace":"s","name":"n"}}],"nonResourceRules":[{"verbs":["*"],"nonResourceURLs":["*"]}]}]} | spec.rules[0].subjects[0].serviceAccount: Forbidden: serviceAccount is forbidden when subject kind is not 'ServiceAccount' ;; spec.rules[0].subjects[0].user: Required value: user is required when subject kind is 'User' ;; spec.rules[0].subjects[0].group: Forbidden: group is forbidden when subject kind is not 'Group'
      system-foo | {"matchingPrecedence":50,"priorityLevelConfiguration":{"name":"system-bar"},"rules":[{"subjects":[{"kind":"Group","user":{"name":"fred"},"serviceAccount":{"namespace":"s","name":"n"}}],"nonResourceRules":[{"verbs":["*"],"nonResourceURLs":["*"]}]}]} | spec.rules[0].subjects[0].serviceAccount: Forbidden: serviceAccount is forbidden when subject kind is not 'ServiceAccount' ;; spec.rules[0].subjects[0].user: Forbidden: user is forbidden when subject kind is not 'User' ;; spec.rules[0].subjects[0].group: Required value: group is required when subject kind is 'Group'
      system-foo | {"priorityLevelConfiguration":{"name":"system-bar"},"rules":[{"subjects":[{"kind":"Robot"},{"kind":"User","user":{}},{"kind":"ServiceAccount","serviceAccount":{"name":"Bad_Name"}},{"kind":"ServiceAccount","serviceAccount":{"name":"*","namespace":"Bad"}}],"nonResourceRules":[{"verbs":["*"],"nonResourceURLs":["*"]}]}]} | spec.rules[0].subjects[0].kind: Unsupported value: "Robot": supported values: "Group", "ServiceAccount", "User" ;; spec.rules[0].subjects[1].user.name: Required value ;; spec.rules[0].subjects[2].serviceAccount.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*') ;; spec.rules[0].subjects[2].serviceAccount.namespace: Required value: must specify namespace for service account ;; spec.rules[0].subjects[3].serviceAccount.namespace: Invalid value: "Bad": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')
      exempt     | {"matchingPrecedence":1,"priorityLevelConfiguration":{"name":"exempt"},"rules":[{"subjects":[{"kind":"Group","group":{"name":"system:masters"}}],ALL,"nonResourceRules":[{"verbs":["*"],"nonResourceURLs":["*"]}]}]} |
      exempt     | {"matchingPrecedence":1,"priorityLevelConfiguration":{"name":"exempt"},"rules":[{"subjects":[{"kind":"Group","group":{"name":"system:masters"}}],ALL,"nonResourceRules":[{"verbs":["*"],"nonResourceURLs":["/"]}]}]} | spec: Invalid value: flowcontrol.FlowSchemaSpec{PriorityLevelConfiguration:flowcontrol.PriorityLevelConfigurationReference{Name:"exempt"}, MatchingPrecedence:1, DistinguisherMethod:(*flowcontrol.FlowDistinguisherMethod)(nil), Rules:[]flowcontrol.PolicyRulesWithSubjects{...}}: spec of 'exempt' must equal the fixed value
      catch-all  | {"matchingPrecedence":10000,"priorityLevelConfiguration":{"name":"catch-all"},"distinguisherMethod":{"type":"ByUser"},"rules":[{"subjects":[{"kind":"Group","group":{"name":"system:unauthenticated"}},{"kind":"Group","group":{"name":"system:authenticated"}}],ALL,"nonResourceRules":[{"verbs":["*"],"nonResourceURLs":["*"]}]}]} |
      catch-all  | {"matchingPrecedence":10000,"priorityLevelConfiguration":{"name":"catch-all"},"distinguisherMethod":{"type":"ByUser"},"rules":[{"subjects":[{"kind":"Group","group":{"name":"system:unauthenticated"}},{"kind":"Group","group":{"name":"system:authenticated"}}],ALL,"nonResourceRules":[{"verbs":["*"],"nonResourceURLs":["/"]}]}]} | spec: Invalid value: flowcontrol.FlowSchemaSpec{PriorityLevelConfiguration:flowcontrol.PriorityLevelConfigurationReference{Name:"catch-all"}, MatchingPrecedence:10000, DistinguisherMethod:(*flowcontrol.FlowDistinguisherMethod)(0xc000000000), Rules:[]flowcontrol.PolicyRulesWithSubjects{...}}: spec of 'catch-all' must equal the fixed value
      fred       | {"matchingPrecedence":1,"priorityLevelConfiguration":{"name":"exempt"},"rules":[{"subjects":[{"kind":"Group","group":{"name":"gorp"}}],"nonResourceRules":[{"verbs":["*"],"nonResourceURLs":["*"]}]}]} | spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1
      system-foo | NOXU,"resourceRules":[{"verbs":["*","create"],"apiGroups":["*","tak"],"resources":["*","tok"],"namespaces":["*"]}]}]} | spec.rules[0].resourceRules[0].verbs: Invalid value: []string{"*", "create"}: if '*' is present, must not specify other verbs ;; spec.rules[0].resourceRules[0].apiGroups: Invalid value: []string{"*", "tak"}: if '*' is present, must not specify other api groups ;; spec.rules[0].resourceRules[0].resources: Invalid value: []string{"*", "tok"}: if '*' is present, must not specify other resources
      system-foo | NOXU,ALL,"nonResourceRules":[{"verbs":["*"],"nonResourceURLs":["/apis/*"]}]}]} |
      system-foo | NOXU,"nonResourceRules":[{"verbs":["*"],"nonResourceURLs":["*","/apis/*"]}]}]} | spec.rules[0].nonResourceRules[0].nonResourceURLs: Invalid value: []string{"*", "/apis/*"}: if '*' is present, must not specify other non-resource URLs
      system-foo | NOXU,"nonResourceRules":[{"verbs":["feed","*"],"nonResourceURLs":["/"]}]}]} | spec.rules[0].nonResourceRules[0].verbs: Invalid value: []string{"feed", "*"}: if '*' is present, must not specify other verbs
      system-foo | NOXU,"resourceRules":[{"verbs":["feed"],"apiGroups":["*"],"resources":["*"],"namespaces":["*"]}]}]} | spec.rules[0].resourceRules[0].verbs: Unsupported value: []string{"feed"}: supported values: "create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"
      system-foo | NOXU,"nonResourceRules":[{"verbs":["get"],"nonResourceURLs":["/healthz","/hea*","/a//b","/a b","healthz"]}]}]} | spec.rules[0].nonResourceRules[0].nonResourceURLs[1]: Invalid value: "/hea*": wildcard can only do suffix matching ;; spec.rules[0].nonResourceRules[0].nonResourceURLs[2]: Invalid value: "/a//b": must not contain double slash ;; spec.rules[0].nonResourceRules[0].nonResourceURLs[3]: Invalid value: "/a b": must not contain white-space ;; spec.rules[0].nonResourceRules[0].nonResourceURLs[4]: Invalid value: "healthz": must start with slash
      system-foo | NOXU,"resourceRules":[{"verbs":["get"],"apiGroups":["*"],"resources":["*"]}]}]} | spec.rules[0].resourceRules[0].namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace
      system-foo | NOXU,"resourceRules":[{"verbs":["get"],"apiGroups":["*"],"resources":["*"],"namespaces":["*","foo"]}]}]} | spec.rules[0].resourceRules[0].namespaces: Invalid value: []string{"*", "foo"}: if '*' is present, must not specify other namespaces
      system-foo | NOXU,"resourceRules":[{"verbs":["get"],"apiGroups":["*"],"resources":["*"],"namespaces":["-foo"]}]}]} | spec.rules[0].resourceRules[0].namespaces[0]: Invalid value: "-foo": each member of this list must be '*' or a DNS-1123 label; a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')
      system-foo | NOXU,"resourceRules":[{"verbs":[],"apiGroups":[],"resources":[],"clusterScope":true}]}]} | spec.rules[0].resourceRules[0].verbs: Required value: verbs must contain at least one value ;; spec.rules[0].resourceRules[0].apiGroups: Required value: resource rules must supply at least one api group ;; spec.rules[0].resourceRules[0].resources: Required value: resource rules must supply at least one resource
      system-foo | {"matchingPrecedence":10001,"priorityLevelConfiguration":{},"distinguisherMethod":{"type":"ByGroup"},"rules":[{"nonResourceRules":[{"verbs":["get"]}]}]} | spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000 ;; spec.distinguisherMethod.type: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:"ByGroup"}: supported values: "ByNamespace", "ByUser" ;; spec.priorityLevelConfiguration.name: Required value: must reference a priority level ;; spec.rules[0].subjects: Required value: subjects must contain at least one value ;; spec.rules[0].nonResourceRules[0].nonResourceURLs: Required value: nonResourceURLs must contain at least one value
      system-foo | {"matchingPrecedence":-1,"priorityLevelConfiguration":{"name":"Bad"}} | spec.matchingPrecedence: Invalid value: -1: must be a positive value ;; spec.priorityLevelConfiguration.name: Invalid value: "Bad": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
      """)
  void create(String name, String spec, String causes) {
    String body = spec.replace("NOXU", NOXU).replace("ALL", ALL);
    List<String> expected = causes == null ? List.of() : List.of(causes.split(" ;; "));
    assertThat(StrategyCases.create(STRATEGY, FS.formatted(name, body))).containsExactlyInAnyOrderElementsOf(expected);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
      [{"type":"Dangling","status":"False"},{"type":"Other"}] |
      [{"type":"Dangling"},{"type":"Dangling"}] | status.conditions[1].type: Duplicate value: "Dangling"
      [{"status":"True"}] | status.conditions[0].type: Required value: must not be empty
      """)
  void statusUpdate(String conditions, String causes) {
    try (InMemoryCore core = InMemoryCore.start()) {
      core.send("POST", FSS, Map.of(), FS.formatted("web", NOXU + "," + ALL + "}]}"));
      ObjectNode stored = StrategyCases.body(core.send("GET", FSS + "/web", Map.of(), null));
      stored.putObject("status").set("conditions", InMemoryCore.json("{\"c\":" + conditions + "}").get("c"));
      if (causes == null) {
        ObjectNode updated = StrategyCases.body(core.send("PUT", FSS + "/web/status", Map.of(), stored.toString()));
        assertThat(updated.path("status").path("conditions").size()).isEqualTo(2);
        return;
      }
      StatusException e = core.refusal("PUT", FSS + "/web/status", Map.of(), stored.toString());
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.status().details().causes()).extracting(c -> c.field() + ": " + c.message())
          .containsExactlyElementsOf(List.of(causes.split(" ;; ")));
    }
  }

  @Test
  void createGetUpdate_throughTheCore_defaultsThePrecedenceAndKeepsTheStatus() {
    try (InMemoryCore core = InMemoryCore.start()) {
      String spec = "{\"priorityLevelConfiguration\":{\"name\":\"workload-low\"},\"rules\":[{\"subjects\":"
          + "[{\"kind\":\"ServiceAccount\",\"serviceAccount\":{\"namespace\":\"kube-system\",\"name\":\"*\"}}]," + ALL + "}]}";
      ObjectNode created = StrategyCases.body(core.send("POST", FSS, Map.of(),
          FS.formatted("kube-system-controllers", spec)));
      assertThat(created.path("spec").path("matchingPrecedence").asInt()).isEqualTo(1000);
      assertThat(created.path("metadata").path("generation").asLong()).isEqualTo(1);

      ObjectNode got = StrategyCases.body(core.send("GET", FSS + "/kube-system-controllers", Map.of(), null));
      assertThat(got.path("spec")).isEqualTo(created.path("spec"));
      ((ObjectNode) got.path("spec")).putObject("distinguisherMethod").put("type", "ByNamespace");
      got.putObject("status").putArray("conditions").addObject().put("type", "Dangling").put("status", "True");
      ObjectNode updated = StrategyCases.body(core.send("PUT", FSS + "/kube-system-controllers", Map.of(), got.toString()));
      assertThat(updated.path("spec").path("distinguisherMethod").path("type").asText()).isEqualTo("ByNamespace");
      assertThat(updated.path("metadata").path("generation").asLong()).isEqualTo(2);
      assertThat(updated.path("status").path("conditions").isEmpty()).isTrue();

      ((ObjectNode) updated.path("spec")).put("matchingPrecedence", 20000);
      StatusException e = core.refusal("PUT", FSS + "/kube-system-controllers", Map.of(), updated.toString());
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.status().details().causes()).extracting(c -> c.field() + ": " + c.message())
          .containsExactly("spec.matchingPrecedence: Invalid value: 20000: must not be greater than 10000");
    }
  }
}
