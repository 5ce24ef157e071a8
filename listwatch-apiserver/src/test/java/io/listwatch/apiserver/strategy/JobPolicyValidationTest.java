package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube's rules of a Job's pod failure policy, success policy, {@code managedBy}, the limits of
 * an Indexed job with many completions and the immutable fields among them, from the cases of
 * kube's {@code pkg/apis/batch/validation/validation_test.go} ({@code TestValidateJob},
 * {@code TestValidateJobUpdate}). Where kube's test checks only the first error of a case, the
 * rows here list every error kube gives, separated by {@code ~}.
 */
class JobPolicyValidationTest {

  private final JobStrategy strategy = new JobStrategy();

  /**
   * A job named {@code name} as the server holds it after {@code prepareForCreate} (generated
   * selector and labels; a container {@code abc} and an init container {@code def},
   * {@code restartPolicy: Never}), with {@code spec} added.
   */
  private static String job(String name, String spec) {
    return "{\"metadata\":{\"name\":\"" + name + "\",\"uid\":\"1a2b3c\"},\"spec\":{" + spec + (spec.isEmpty() ? "" : ",")
        + "\"selector\":{\"matchLabels\":{\"batch.kubernetes.io/controller-uid\":\"1a2b3c\"}},\"template\":{\"metadata\":"
        + "{\"labels\":{\"batch.kubernetes.io/controller-uid\":\"1a2b3c\",\"controller-uid\":\"1a2b3c\","
        + "\"batch.kubernetes.io/job-name\":\"" + name + "\",\"job-name\":\"" + name + "\"}},\"spec\":{\"restartPolicy\":\"Never\","
        + "\"containers\":[{\"name\":\"abc\",\"image\":\"i\"}],\"initContainers\":[{\"name\":\"def\",\"image\":\"i\"}]}}}}";
  }

  private static String job(String spec) {
    return job("myjob", spec);
  }

  private static String podFailurePolicy(String rules) {
    return "\"podFailurePolicy\":{\"rules\":[" + rules + "]}";
  }

  private static String successPolicy(String policy) {
    return "\"completionMode\":\"Indexed\",\"completions\":5,\"successPolicy\":" + policy;
  }

  private static String repeated(int times, IntFunction<String> element) {
    return IntStream.range(0, times).mapToObj(element).collect(Collectors.joining(","));
  }

  @Test
  void podFailurePolicy_valid() {
    String rules = """
        {"action":"Ignore","onPodConditions":[{"type":"DisruptionTarget","status":"True"}]},
        {"action":"FailJob","onPodConditions":[{"type":"CustomConditionType","status":"False"}]},
        {"action":"Count","onExitCodes":{"containerName":"abc","operator":"In","values":[1,2,3]}},
        {"action":"Ignore","onExitCodes":{"containerName":"def","operator":"In","values":[4]}},
        {"action":"FailJob","onExitCodes":{"operator":"NotIn","values":[5,6,7]}}""";

    assertThat(StrategyCases.create(strategy, job(podFailurePolicy(rules)))).isEmpty();
    assertThat(StrategyCases.create(strategy, job("\"completionMode\":\"Indexed\",\"completions\":2,\"backoffLimitPerIndex\":1,"
        + podFailurePolicy("{\"action\":\"FailIndex\",\"onExitCodes\":{\"operator\":\"In\",\"values\":[10]}}")))).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
      {"action":"FailJob"} | spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required
      {"action":"FailJob","onExitCodes":{"operator":"In","values":[11,11]}} | spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Duplicate value: 11
      {"action":"FailJob","onExitCodes":{"operator":"In","values":[12,13,13,13]}} | spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 13 ~ spec.podFailurePolicy.rules[0].onExitCodes.values[3]: Duplicate value: 13
      {"action":"FailJob","onExitCodes":{"operator":"In","values":[19,11]}} | spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{19, 11}: must be ordered
      {"action":"FailJob","onExitCodes":{"operator":"In","values":[]}} | spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{}: at least one value is required
      {"action":"FailJob","onExitCodes":{"operator":"In"}} | spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32(nil): at least one value is required
      {"action":"","onExitCodes":{"operator":"In","values":[1,2,3]}} | spec.podFailurePolicy.rules[0].action: Required value: valid values: ["Count" "FailIndex" "FailJob" "Ignore"]
      {"action":"FailJob","onExitCodes":{"operator":"","values":[1,2,3]}} | spec.podFailurePolicy.rules[0].onExitCodes.operator: Required value: valid values: ["In" "NotIn"]
      {"action":"FailJob","onExitCodes":{"containerName":"abc","operator":"In","values":[1,2,3]},"onPodConditions":[{"type":"DisruptionTarget","status":"True"}]} | spec.podFailurePolicy.rules[0]: Invalid value: specifying both OnExitCodes and OnPodConditions is not supported
      {"action":"Ignore","onExitCodes":{"operator":"In","values":[1,0,2]}} | spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Invalid value: 0: must not be 0 for the In operator ~ spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{1, 0, 2}: must be ordered
      {"action":"Ignore","onExitCodes":{"operator":"NotIn","values":[0,1]}} |
      {"action":"Ignore","onExitCodes":{"containerName":"abc","operator":"In","values":[1,2,3]}},{"action":"FailJob","onExitCodes":{"containerName":"xyz","operator":"In","values":[5,6,7]}} | spec.podFailurePolicy.rules[1].onExitCodes.containerName: Invalid value: "xyz": must be one of the container or initContainer names in the pod template
      {"action":"UnknownAction","onExitCodes":{"containerName":"abc","operator":"In","values":[1,2,3]}} | spec.podFailurePolicy.rules[0].action: Unsupported value: "UnknownAction": supported values: "Count", "FailIndex", "FailJob", "Ignore"
      {"action":"FailIndex","onExitCodes":{"operator":"In","values":[1]}} | spec.podFailurePolicy.rules[0].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set
      {"action":"Ignore","onExitCodes":{"operator":"UnknownOperator","values":[1,2,3]}} | spec.podFailurePolicy.rules[0].onExitCodes.operator: Unsupported value: "UnknownOperator": supported values: "In", "NotIn"
      {"action":"Ignore","onPodConditions":[{"type":"DisruptionTarget","status":"UnknownStatus"}]} | spec.podFailurePolicy.rules[0].onPodConditions[0].status: Unsupported value: "UnknownStatus": supported values: "False", "True", "Unknown"
      {"action":"Ignore","onPodConditions":[{"type":"Invalid Condition Type","status":"True"}]} | spec.podFailurePolicy.rules[0].onPodConditions[0].type: Invalid value: "Invalid Condition Type": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')
      """)
  void podFailurePolicy_invalid(String rules, String errors) {
    assertThat(StrategyCases.create(strategy, job(podFailurePolicy(rules))))
        .containsExactly(errors == null ? new String[0] : errors.split(" ~ "));
  }

  @Test
  void podFailurePolicy_limits() {
    String tooManyValues = "{\"action\":\"FailJob\",\"onExitCodes\":{\"operator\":\"In\",\"values\":["
        + repeated(256, i -> String.valueOf(i + 1)) + "]}}";
    String tooManyRules = repeated(21, i -> "{\"action\":\"FailJob\",\"onExitCodes\":{\"operator\":\"In\",\"values\":[" + (i + 1) + "]}}");
    String tooManyPatterns = "{\"action\":\"FailJob\",\"onPodConditions\":["
        + repeated(21, i -> "{\"type\":\"CustomType_" + i + "\",\"status\":\"True\"}") + "]}";

    assertThat(StrategyCases.create(strategy, job(podFailurePolicy(tooManyValues))))
        .containsExactly("spec.podFailurePolicy.rules[0].onExitCodes.values: Too many: 256: must have at most 255 items");
    assertThat(StrategyCases.create(strategy, job(podFailurePolicy(tooManyRules))))
        .containsExactly("spec.podFailurePolicy.rules: Too many: 21: must have at most 20 items");
    assertThat(StrategyCases.create(strategy, job(podFailurePolicy(tooManyPatterns))))
        .containsExactly("spec.podFailurePolicy.rules[0].onPodConditions: Too many: 21: must have at most 20 items");
  }

  @Test
  void podFailurePolicy_patternWithoutStatusOrType_asValidated() {
    // the defaults give a pattern status True; validation alone requires one
    ObjectNode job = InMemoryCore.json(job(podFailurePolicy("{\"action\":\"Ignore\",\"onPodConditions\":[{}]}")));
    strategy.defaults(job);
    ((ObjectNode) job.at("/spec/podFailurePolicy/rules/0/onPodConditions/0")).remove("status");

    assertThat(StrategyCases.causes(strategy, job.toString())).containsExactly(
        "spec.podFailurePolicy.rules[0].onPodConditions[0].type: Invalid value: \"\": name part must be non-empty",
        "spec.podFailurePolicy.rules[0].onPodConditions[0].type: Invalid value: \"\": name part must consist of alphanumeric "
            + "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or "
            + "'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        "spec.podFailurePolicy.rules[0].onPodConditions[0].status: Required value: valid values: [\"False\" \"True\" \"Unknown\"]");
  }

  @Test
  void podFailurePolicy_needsRestartPolicyNever_andPodReplacementPolicyFailed() {
    String policy = podFailurePolicy("{\"action\":\"Ignore\",\"onPodConditions\":[{\"type\":\"DisruptionTarget\"}]}");

    assertThat(StrategyCases.create(strategy, job(podFailurePolicy("")).replace("\"Never\"", "\"OnFailure\"")))
        .containsExactly("spec.template.spec.restartPolicy: Invalid value: \"OnFailure\": only \"Never\" is supported when "
            + "podFailurePolicy is specified");
    assertThat(StrategyCases.create(strategy, job("\"podReplacementPolicy\":\"TerminatingOrFailed\"," + policy)))
        .containsExactly("spec.podReplacementPolicy: Unsupported value: \"TerminatingOrFailed\": supported values: \"Failed\"");
    // kube defaults the pointer only when it is nil: an empty string is left, for validation to refuse
    assertThat(StrategyCases.create(strategy, job("\"podReplacementPolicy\":\"\"")))
        .containsExactly("spec.podReplacementPolicy: Unsupported value: \"\": supported values: \"Failed\", \"TerminatingOrFailed\"");
  }

  @Test
  void defaults_ofThePolicies() {
    ObjectNode withPolicy = InMemoryCore.json(job(podFailurePolicy(
        "{\"action\":\"Ignore\",\"onPodConditions\":[{\"type\":\"DisruptionTarget\"},{\"type\":\"Ready\",\"status\":\"False\"}]}")));
    ObjectNode perIndex = InMemoryCore.json(job("\"completionMode\":\"Indexed\",\"completions\":2,\"backoffLimitPerIndex\":1"));

    strategy.defaults(withPolicy);
    strategy.defaults(perIndex);

    JsonNode patterns = withPolicy.at("/spec/podFailurePolicy/rules/0/onPodConditions");
    assertThat(patterns.get(0).path("status").asText()).isEqualTo("True");
    assertThat(patterns.get(1).path("status").asText()).isEqualTo("False");
    assertThat(withPolicy.at("/spec/podReplacementPolicy").asText()).isEqualTo("Failed");
    assertThat(withPolicy.at("/spec/backoffLimit").asInt()).isEqualTo(6);
    assertThat(perIndex.at("/spec/backoffLimit").asInt()).isEqualTo(Integer.MAX_VALUE);
    assertThat(perIndex.at("/spec/podReplacementPolicy").asText()).isEqualTo("TerminatingOrFailed");
  }

  @Test
  void successPolicy_valid() {
    assertThat(StrategyCases.create(strategy, job("\"completionMode\":\"Indexed\",\"completions\":10,\"successPolicy\":"
        + "{\"rules\":[{\"succeededCount\":1,\"succeededIndexes\":\"0,2,4\"},{\"succeededIndexes\":\"1,3,5-9\"}]}"))).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
      {}                                                    | spec.successPolicy.rules: Required value: at least one rules must be specified when the successPolicy is specified
      {"rules":[{}]}                                        | spec.successPolicy.rules[0]: Required value: at least one of succeededCount or succeededIndexes must be specified
      {"rules":[{"succeededIndexes":"invalid-format"}]}     | spec.successPolicy.rules[0].succeededIndexes: Invalid value: "invalid-format": error parsing succeededIndexes: cannot convert string to integer for index: "invalid"
      {"rules":[{"succeededIndexes":"1,1"}]}                | spec.successPolicy.rules[0].succeededIndexes: Invalid value: "1,1": error parsing succeededIndexes: non-increasing order, previous: 1, current: 1
      {"rules":[{"succeededIndexes":"3-1"}]}                | spec.successPolicy.rules[0].succeededIndexes: Invalid value: "3-1": error parsing succeededIndexes: non-increasing order, previous: 3, current: 1
      {"rules":[{"succeededIndexes":"0-2,2-4"}]}            | spec.successPolicy.rules[0].succeededIndexes: Invalid value: "0-2,2-4": error parsing succeededIndexes: non-increasing order, previous: 2, current: 2
      {"rules":[{"succeededIndexes":"1-2-3"}]}              | spec.successPolicy.rules[0].succeededIndexes: Invalid value: "1-2-3": error parsing succeededIndexes: the fragment "1-2-3" violates the requirement that an index interval can have at most two parts separated by '-'
      {"rules":[{"succeededIndexes":"0,5"}]}                | spec.successPolicy.rules[0].succeededIndexes: Invalid value: "0,5": error parsing succeededIndexes: too large index: "5"
      {"rules":[{"succeededIndexes":"0,"}]}                 | spec.successPolicy.rules[0].succeededIndexes: Invalid value: "0,": error parsing succeededIndexes: cannot convert string to integer for index: ""
      {"rules":[{"succeededCount":-1}]}                     | spec.successPolicy.rules[0].succeededCount: Invalid value: -1: must be greater than or equal to 0
      {"rules":[{"succeededCount":6}]}                      | spec.successPolicy.rules[0].succeededCount: Invalid value: 6: must be less than or equal to 5 (the number of specified completions)
      {"rules":[{"succeededCount":4,"succeededIndexes":"0-2"}]} | spec.successPolicy.rules[0].succeededCount: Invalid value: 4: must be less than or equal to 3 (the number of indexes in the specified succeededIndexes field)
      """)
  void successPolicy_invalid(String policy, String errors) {
    assertThat(StrategyCases.create(strategy, job(successPolicy(policy)))).containsExactly(errors.split(" ~ "));
  }

  @Test
  void successPolicy_limits_andIndexedOnly() {
    String tooLong = "{\"rules\":[{\"succeededIndexes\":\"" + "1".repeat(64 * 1024 + 1) + "\"}]}";
    String tooManyRules = "{\"rules\":[" + repeated(21, i -> "{\"succeededCount\":5}") + "]}";

    assertThat(StrategyCases.create(strategy, job(successPolicy(tooLong))).getFirst())
        .isEqualTo("spec.successPolicy.rules[0].succeededIndexes: Too long: may not be more than 65536 bytes");
    assertThat(StrategyCases.create(strategy, job(successPolicy(tooManyRules))))
        .containsExactly("spec.successPolicy.rules: Too many: 21: must have at most 20 items");
    assertThat(StrategyCases.create(strategy, job("\"successPolicy\":{\"rules\":[]}"))).containsExactly(
        "spec.successPolicy: Invalid value: batch.SuccessPolicy{Rules:[]batch.SuccessPolicyRule{}}: requires indexed completion mode");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
      example.com/foo                    |
      example.com/a/b:c                  |
      invalid custom controller name     | spec.managedBy: Invalid value: "invalid custom controller name": must be a domain-prefixed path (such as "acme.io/foo")
      example.com/                       | spec.managedBy: Invalid value: "example.com/": must be a domain-prefixed path (such as "acme.io/foo")
      example.com/a b                    | spec.managedBy: Invalid value: "a b": Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')
      example.com/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx | spec.managedBy: Too long: may not be more than 63 bytes
      """)
  void managedBy(String managedBy, String error) {
    assertThat(StrategyCases.create(strategy, job("\"managedBy\":\"" + managedBy + "\"")))
        .containsExactly(error == null ? new String[0] : new String[] {error});
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
      "completions":100000,"parallelism":100000,"maxFailedIndexes":100000    |
      "completions":1000000000,"parallelism":10000,"maxFailedIndexes":10000  |
      "completions":100001                                                   | spec.maxFailedIndexes: Required value: must be specified when completions is above 100000
      "completions":100001,"parallelism":50000,"maxFailedIndexes":1          | spec.parallelism: Invalid value: 50000: must be less than or equal to 10000 when completions are above 100000 and used with backoff limit per index
      "completions":100001,"maxFailedIndexes":100001                         | spec.maxFailedIndexes: Invalid value: 100001: must be less than or equal to 100000 ~ spec.maxFailedIndexes: Invalid value: 100001: must be less than or equal to 10000 when completions are above 100000 and used with backoff limit per index
      "completions":100001,"maxFailedIndexes":50000                          | spec.maxFailedIndexes: Invalid value: 50000: must be less than or equal to 10000 when completions are above 100000 and used with backoff limit per index
      "completions":10,"maxFailedIndexes":11                                 | spec.maxFailedIndexes: Invalid value: 11: must be less than or equal to completions
      """)
  void indexed_withBackoffLimitPerIndex_limits(String spec, String errors) {
    assertThat(StrategyCases.create(strategy, job("\"completionMode\":\"Indexed\",\"backoffLimitPerIndex\":1," + spec)))
        .containsExactly(errors == null ? new String[0] : errors.split(" ~ "));
  }

  @Test
  void indexed_lastPodHostname_mustBeADnsLabel() {
    String name = "a".repeat(60);

    assertThat(StrategyCases.create(strategy, job(name, "\"completionMode\":\"Indexed\",\"completions\":1000")))
        .containsExactly("metadata.name: Invalid value: \"" + name + "\": will not able to create pod with invalid DNS label: "
            + name + "-999");
    assertThat(StrategyCases.create(strategy, job(name, "\"completionMode\":\"Indexed\",\"completions\":100"))).isEmpty();
    assertThat(StrategyCases.create(strategy, job(name, "\"completions\":1000"))).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
      ""                                                | "managedBy":"example.com/custom-controller"  | spec.managedBy: Invalid value: "example.com/custom-controller": field is immutable
      "managedBy":"example.com/custom-controller1"      | "managedBy":"example.com/custom-controller2" | spec.managedBy: Invalid value: "example.com/custom-controller2": field is immutable
      "managedBy":"example.com/custom-controller1"      | ""                                           | spec.managedBy: Invalid value: "null": field is immutable
      "completionMode":"Indexed","completions":3        | "completionMode":"Indexed","completions":3,"backoffLimitPerIndex":1 | spec.backoffLimitPerIndex: Invalid value: 1: field is immutable
      "completionMode":"Indexed","completions":3,"backoffLimitPerIndex":1 | "completionMode":"Indexed","completions":3 | spec.backoffLimitPerIndex: Invalid value: "null": field is immutable
      "completionMode":"Indexed","completions":3,"backoffLimitPerIndex":1 | "completionMode":"Indexed","completions":3,"backoffLimitPerIndex":2 | spec.backoffLimitPerIndex: Invalid value: 2: field is immutable
      """)
  void update_immutableFields(String oldSpec, String newSpec, String error) {
    assertThat(StrategyCases.update(strategy, job(oldSpec.equals("\"\"") ? "" : oldSpec), job(newSpec.equals("\"\"") ? "" : newSpec)))
        .containsExactly(error);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
      ""                                        | {"rules":[{"succeededCount":2}]}                                     | spec.successPolicy
      {"rules":[{"succeededIndexes":"1-3"}]}    | {"rules":[{"succeededIndexes":"1-3"},{"succeededCount":3}]}          | spec.successPolicy
      {"rules":[{"succeededIndexes":"1-3"}]}    | ""                                                                   | spec.successPolicy
      """)
  void update_successPolicy_isImmutable(String oldPolicy, String newPolicy, String field) {
    String indexed = "\"completionMode\":\"Indexed\",\"completions\":5";
    String old = job(oldPolicy.equals("\"\"") ? indexed : indexed + ",\"successPolicy\":" + oldPolicy);
    String updated = job(newPolicy.equals("\"\"") ? indexed : indexed + ",\"successPolicy\":" + newPolicy);

    assertThat(StrategyCases.update(strategy, old, updated)).singleElement()
        .satisfies(e -> assertThat(e).startsWith(field + ": Invalid value: ").endsWith(": field is immutable"));
  }

  @Test
  void update_podFailurePolicy_isImmutable() {
    String ignore = "{\"action\":\"Ignore\",\"onPodConditions\":[{\"type\":\"DisruptionTarget\",\"status\":\"True\"}]}";
    String count = "{\"action\":\"Count\",\"onPodConditions\":[{\"type\":\"DisruptionTarget\",\"status\":\"True\"}]}";
    String none = job("");
    String one = job(podFailurePolicy(ignore));
    String two = job(podFailurePolicy(ignore + "," + count));

    for (String[] change : new String[][] {{none, one}, {one, two}, {one, none}}) {
      // a policy added or removed also changes the defaulted podReplacementPolicy, which is mutable
      assertThat(StrategyCases.update(strategy, change[0], change[1])).singleElement()
          .satisfies(e -> assertThat(e).startsWith("spec.podFailurePolicy: Invalid value: ").endsWith(": field is immutable"));
    }
  }

  @Test
  void cronJob_jobTemplate_hasTheSamePolicyRules_underItsPath() {
    String cronJob = "{\"metadata\":{\"name\":\"c\"},\"spec\":{\"schedule\":\"0 * * * *\",\"jobTemplate\":{\"spec\":{"
        + podFailurePolicy("{\"action\":\"FailJob\",\"onExitCodes\":{\"operator\":\"In\",\"values\":[19,11]}}")
        + ",\"managedBy\":\"kueue\",\"template\":{\"spec\":{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}}}}}";

    assertThat(StrategyCases.create(new CronJobStrategy(), cronJob)).containsExactly(
        "spec.jobTemplate.spec.managedBy: Invalid value: \"kueue\": must be a domain-prefixed path (such as \"acme.io/foo\")",
        "spec.jobTemplate.spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{19, 11}: must be ordered");
  }

  @Test
  void warnings_aNameThatIsNotADnsLabel_andAnIndexedJobTooLargeToTrack() {
    ObjectNode job = InMemoryCore.json(job("my.job", "\"completionMode\":\"Indexed\",\"completions\":100001,\"parallelism\":10001"));
    strategy.defaults(job);
    List<String> onCreate = new ArrayList<>();
    List<String> onUpdateOfMetadata = new ArrayList<>();

    strategy.warnings(job, null, onCreate::add);
    strategy.warnings(job, job.deepCopy(), onUpdateOfMetadata::add);

    assertThat(onCreate).containsExactly(
        "metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; "
            + "a DNS label is recommended: [must not contain dots]",
        "spec: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, "
            + "Kubernetes might not be able to track completedIndexes when a big number of indexes fail");
    assertThat(onUpdateOfMetadata).isEmpty();
  }

  @Test
  void endToEnd_aJobWithUnorderedExitCodes_isRefusedWithKubesMessage() {
    try (InMemoryCore core = InMemoryCore.start()) {
      String body = """
          {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"pi"},"spec":{"podFailurePolicy":{"rules":[
           {"action":"FailJob","onExitCodes":{"containerName":"pi","operator":"In","values":[42,1]}},
           {"action":"Ignore","onPodConditions":[{"type":"DisruptionTarget"}]}]},
           "template":{"spec":{"restartPolicy":"Never","containers":[{"name":"pi","image":"perl"}]}}}}""";

      StatusException e = core.refusal("POST", "/apis/batch/v1/namespaces/default/jobs", Map.of(), body);
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.getMessage()).isEqualTo("Job.batch \"pi\" is invalid: spec.podFailurePolicy.rules[0].onExitCodes.values: "
          + "Invalid value: []int32{42, 1}: must be ordered");

      var response = core.send("POST", "/apis/batch/v1/namespaces/default/jobs", Map.of(), body.replace("[42,1]", "[1,42]"));
      assertThat(response.code()).isEqualTo(201);
      ObjectNode created = StrategyCases.body(response);
      assertThat(created.at("/spec/podReplacementPolicy").asText()).isEqualTo("Failed");
      assertThat(created.at("/spec/podFailurePolicy/rules/1/onPodConditions/0/status").asText()).isEqualTo("True");
    }
  }
}
