package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Mutating and validating webhook configurations served by the core: kubernetes.io's examples
 * (the "Dynamic Admission Control" page) created, defaulted, read, listed and updated, with the
 * generation following the webhooks and an invalid write answered with one 422.
 */
class WebhookConfigurationServingTest {

  private static final String GROUP = "/apis/admissionregistration.k8s.io/v1/";
  private static final String VALIDATING = GROUP + "validatingwebhookconfigurations";
  private static final String MUTATING = GROUP + "mutatingwebhookconfigurations";

  /** kubernetes.io's ValidatingWebhookConfiguration (a service with a caBundle), plus its breakglass match condition. */
  private static final String POD_POLICY = """
      {"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingWebhookConfiguration",
       "metadata":{"name":"pod-policy.example.com"},
       "webhooks":[{"name":"pod-policy.example.com",
         "rules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["pods"],"scope":"Namespaced"}],
         "clientConfig":{"service":{"namespace":"example-namespace","name":"example-service"},"caBundle":"Y2EtYnVuZGxlCg=="},
         "admissionReviewVersions":["v1"],"sideEffects":"None","timeoutSeconds":5,
         "matchConditions":[{"name":"breakglass","expression":"!authorizer.group('admissionregistration.k8s.io').resource('validatingwebhookconfigurations').name('my-webhook.example.com').check('breakglass').allowed()"}]}]}""";

  /** kubernetes.io's MutatingWebhookConfiguration with match conditions. */
  private static final String MY_WEBHOOK = """
      {"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingWebhookConfiguration",
       "metadata":{"name":"my-webhook.example.com"},
       "webhooks":[{"name":"my-webhook.example.com","matchPolicy":"Equivalent",
         "rules":[{"operations":["CREATE","UPDATE"],"apiGroups":["*"],"apiVersions":["*"],"resources":["*"]}],
         "failurePolicy":"Ignore","sideEffects":"None","admissionReviewVersions":["v1"],
         "clientConfig":{"service":{"namespace":"my-namespace","name":"my-webhook"},"caBundle":"Y2EtYnVuZGxlCg=="},
         "matchConditions":[
           {"name":"exclude-leases","expression":"!(request.resource.group == 'coordination.k8s.io' && request.resource.resource == 'leases')"},
           {"name":"exclude-kubelet-requests","expression":"!('system:nodes' in request.userInfo.groups)"},
           {"name":"rbac","expression":"request.resource.group != 'rbac.authorization.k8s.io'"}]}]}""";

  @Test
  void validating_docsExample_isCreatedDefaultedListedAndUpdated_generationFollowsTheWebhooks() {
    try (InMemoryCore core = InMemoryCore.start()) {
      assertThat(core.send("POST", VALIDATING, Map.of(), POD_POLICY).code()).isEqualTo(201);
      ObjectNode got = StrategyCases.body(core.send("GET", VALIDATING + "/pod-policy.example.com", Map.of(), null));
      assertThat(got.at("/metadata/generation").asLong()).isEqualTo(1);
      assertThat(got.at("/webhooks/0/failurePolicy").asText()).isEqualTo("Fail");
      assertThat(got.at("/webhooks/0/matchPolicy").asText()).isEqualTo("Equivalent");
      assertThat(got.at("/webhooks/0/timeoutSeconds").asInt()).isEqualTo(5);
      assertThat(got.at("/webhooks/0/clientConfig/service/port").asInt()).isEqualTo(443);
      assertThat(got.at("/webhooks/0/clientConfig/caBundle").asText()).isEqualTo("Y2EtYnVuZGxlCg==");
      assertThat(got.at("/webhooks/0/namespaceSelector").isObject()).isTrue();
      assertThat(got.at("/webhooks/0/rules/0/scope").asText()).isEqualTo("Namespaced");
      assertThat(got.at("/webhooks/0/reinvocationPolicy").isMissingNode()).isTrue();

      ObjectNode list = StrategyCases.body(core.send("GET", VALIDATING, Map.of(), null));
      assertThat(list.path("kind").asText()).isEqualTo("ValidatingWebhookConfigurationList");
      assertThat(list.path("items").size()).isEqualTo(1);

      got.with("metadata").putObject("labels").put("team", "a");
      ObjectNode relabelled = StrategyCases.body(core.send("PUT", VALIDATING + "/pod-policy.example.com", Map.of(), got.toString()));
      assertThat(relabelled.at("/metadata/generation").asLong()).isEqualTo(1);

      relabelled.withObject("/webhooks/0").put("timeoutSeconds", 7);
      ObjectNode changed = StrategyCases.body(core.send("PUT", VALIDATING + "/pod-policy.example.com", Map.of(), relabelled.toString()));
      assertThat(changed.at("/metadata/generation").asLong()).isEqualTo(2);
      assertThat(changed.at("/webhooks/0/timeoutSeconds").asInt()).isEqualTo(7);
    }
  }

  @Test
  void mutating_docsExample_isCreated_withItsReinvocationPolicyDefaulted() {
    try (InMemoryCore core = InMemoryCore.start()) {
      assertThat(core.send("POST", MUTATING, Map.of(), MY_WEBHOOK).code()).isEqualTo(201);
      ObjectNode got = StrategyCases.body(core.send("GET", MUTATING + "/my-webhook.example.com", Map.of(), null));
      assertThat(got.at("/webhooks/0/reinvocationPolicy").asText()).isEqualTo("Never");
      assertThat(got.at("/webhooks/0/failurePolicy").asText()).isEqualTo("Ignore");
      assertThat(got.at("/webhooks/0/timeoutSeconds").asInt()).isEqualTo(10);
      assertThat(got.at("/webhooks/0/rules/0/scope").asText()).isEqualTo("*");
      assertThat(got.at("/webhooks/0/matchConditions").size()).isEqualTo(3);
    }
  }

  @Test
  void invalidWrites_areRefusedWithOne422_listingEveryCause() {
    try (InMemoryCore core = InMemoryCore.start()) {
      StatusException e = core.refusal("POST", MUTATING, Map.of(), """
          {"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingWebhookConfiguration","metadata":{"name":"bad"},
           "webhooks":[{"name":"hook","clientConfig":{"url":"http://example.com"},"admissionReviewVersions":["v1"]}]}""");
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.getMessage()).isEqualTo("MutatingWebhookConfiguration.admissionregistration.k8s.io \"bad\" is invalid: ["
          + "webhooks[0].name: Invalid value: \"hook\": should be a domain with at least three segments separated by dots, "
          + "webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun, "
          + "webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]]");

      assertThat(core.send("POST", VALIDATING, Map.of(), POD_POLICY).code()).isEqualTo(201);
      ObjectNode got = StrategyCases.body(core.send("GET", VALIDATING + "/pod-policy.example.com", Map.of(), null));
      got.withObject("/webhooks/0").put("sideEffects", "Some");
      StatusException update = core.refusal("PUT", VALIDATING + "/pod-policy.example.com", Map.of(), got.toString());
      assertThat(update.getMessage()).isEqualTo("ValidatingWebhookConfiguration.admissionregistration.k8s.io \"pod-policy.example.com\" "
          + "is invalid: webhooks[0].sideEffects: Unsupported value: \"Some\": supported values: \"None\", \"NoneOnDryRun\"");
    }
  }
}
