package io.listwatch.apiserver.apiextensions;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * kube's validation of {@code spec.conversion} (apiextensions validation's conversion cases):
 * paths are kube's internal ones ({@code webhookClientConfig}, {@code conversionReviewVersions}).
 */
class CustomResourceConversionValidationTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final CustomResourceDefinitionValidation VALIDATION = new CustomResourceDefinitionValidation();
  private static final String WEBHOOK_URL = "\"webhook\":{\"clientConfig\":{\"url\":\"https://hook.example.com/convert\"},"
      + "\"conversionReviewVersions\":[\"v1\"]}";

  private static ObjectNode crd(String conversion, String extra) throws Exception {
    return (ObjectNode) JSON.readTree("""
        {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"widgets.example.com"},
         "spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"widgets","kind":"Widget"},%s
          "conversion":%s,
          "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}},
           {"name":"v2","served":true,"storage":false,"schema":{"openAPIV3Schema":{"type":"object"}}}]}}"""
        .formatted(extra, conversion));
  }

  private static List<String> causes(ObjectNode crd, ObjectNode old) {
    try {
      VALIDATION.admit(null, "", crd, old);
      return List.of();
    } catch (StatusException e) {
      assertThat(e.code()).isEqualTo(422);
      return e.status().details().causes().stream().map(c -> c.field() + ": " + c.message()).toList();
    }
  }

  static Stream<Arguments> refused() {
    String form = "; desired format: https://host[/path]";
    String cc = "spec.conversion.webhookClientConfig";
    String versions = "spec.conversion.conversionReviewVersions";
    return Stream.of(
        Arguments.of("webhook strategy without a webhook", "{\"strategy\":\"Webhook\"}", "", List.of(
            cc + ": Required value: required when strategy is set to Webhook",
            versions + ": Required value")),
        Arguments.of("unknown strategy", "{\"strategy\":\"Other\"}", "", List.of(
            "spec.conversion.strategy: Unsupported value: \"Other\": supported values: \"None\", \"Webhook\"")),
        Arguments.of("webhook with preserveUnknownFields", "{\"strategy\":\"Webhook\"," + WEBHOOK_URL + "}",
            "\"preserveUnknownFields\":true,", List.of(
            "spec.conversion.strategy: Invalid value: \"Webhook\": must be None if spec.preserveUnknownFields is true")),
        Arguments.of("None with a webhook", "{\"strategy\":\"None\"," + WEBHOOK_URL + "}", "", List.of(
            cc + ": Forbidden: should not be set when strategy is not set to Webhook",
            versions + ": Forbidden: should not be set when strategy is not set to Webhook")),
        Arguments.of("neither url nor service", "{\"strategy\":\"Webhook\",\"webhook\":{\"clientConfig\":{},"
            + "\"conversionReviewVersions\":[\"v1\"]}}", "", List.of(
            cc + ": Required value: exactly one of url or service is required")),
        Arguments.of("both url and service", "{\"strategy\":\"Webhook\",\"webhook\":{\"clientConfig\":{\"url\":"
            + "\"https://a.example.com\",\"service\":{\"namespace\":\"ns\",\"name\":\"n\"}},"
            + "\"conversionReviewVersions\":[\"v1\"]}}", "", List.of(
            cc + ": Required value: exactly one of url or service is required")),
        Arguments.of("http url with user, query and fragment", "{\"strategy\":\"Webhook\",\"webhook\":{\"clientConfig\":"
            + "{\"url\":\"http://user@a.example.com/p?x=1#frag\"},\"conversionReviewVersions\":[\"v1\"]}}", "", List.of(
            cc + ".url: Invalid value: \"http\": 'https' is the only allowed URL scheme" + form,
            cc + ".url: Invalid value: \"user\": user information is not permitted in the URL",
            cc + ".url: Invalid value: \"frag\": fragments are not permitted in the URL",
            cc + ".url: Invalid value: \"x=1\": query parameters are not permitted in the URL")),
        Arguments.of("url without a host", "{\"strategy\":\"Webhook\",\"webhook\":{\"clientConfig\":"
            + "{\"url\":\"https:///convert\"},\"conversionReviewVersions\":[\"v1\"]}}", "", List.of(
            cc + ".url: Invalid value: \"\": host must be specified" + form)),
        // kube's CRD validation passes the service's name and namespace swapped to the shared check
        Arguments.of("service without namespace and name, port 0", "{\"strategy\":\"Webhook\",\"webhook\":{\"clientConfig\":"
            + "{\"service\":{\"port\":0}},\"conversionReviewVersions\":[\"v1\"]}}", "", List.of(
            cc + ".service.name: Required value: service name is required",
            cc + ".service.namespace: Required value: service namespace is required",
            cc + ".service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive")),
        Arguments.of("service without a namespace", "{\"strategy\":\"Webhook\",\"webhook\":{\"clientConfig\":"
            + "{\"service\":{\"name\":\"hook\"}},\"conversionReviewVersions\":[\"v1\"]}}", "", List.of(
            cc + ".service.name: Required value: service name is required")),
        Arguments.of("service paths", "{\"strategy\":\"Webhook\",\"webhook\":{\"clientConfig\":"
            + "{\"service\":{\"namespace\":\"ns\",\"name\":\"hook\",\"path\":\"foo//Bar\"}},"
            + "\"conversionReviewVersions\":[\"v1\"]}}", "", List.of(
            cc + ".service.path: Invalid value: \"foo//Bar\": must start with a '/'",
            // as kube, the first character is dropped whatever it is: "oo", "", "Bar"
            cc + ".service.path: Invalid value: \"foo//Bar\": segment[1] may not be empty",
            cc + ".service.path: Invalid value: \"foo//Bar\": segment[2]: a lowercase RFC 1123 subdomain must "
                + "consist of lower case alphanumeric characters, '-' or '.', and must start and end with an "
                + "alphanumeric character (e.g. 'example.com', regex used for validation is "
                + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")),
        Arguments.of("service path //", "{\"strategy\":\"Webhook\",\"webhook\":{\"clientConfig\":"
            + "{\"service\":{\"namespace\":\"ns\",\"name\":\"hook\",\"path\":\"//\"}},"
            + "\"conversionReviewVersions\":[\"v1\"]}}", "", List.of(
            cc + ".service.path: Invalid value: \"//\": segment[0] may not be empty")),
        Arguments.of("unknown, duplicate and malformed review versions", "{\"strategy\":\"Webhook\",\"webhook\":{\"clientConfig\":"
            + "{\"url\":\"https://a.example.com\"},\"conversionReviewVersions\":[\"v2\",\"v2\",\"V3\"]}}", "", List.of(
            versions + "[1]: Invalid value: \"v2\": duplicate version",
            versions + "[2]: Invalid value: \"V3\": a DNS-1035 label must consist of lower case alphanumeric "
                + "characters or '-', start with an alphabetic character, and end with an alphanumeric character "
                + "(e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
            versions + ": Invalid value: []string{\"v2\", \"v2\", \"V3\"}: must include at least one of v1, v1beta1")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refused")
  void aBadConversion_isRefusedWithKubesCauses(String name, String conversion, String extra, List<String> expected)
      throws Exception {
    assertThat(causes(crd(conversion, extra), null)).containsExactlyElementsOf(expected);
  }

  @Test
  void aWebhookConversion_passes_itsServicePortDefaultedTo443() throws Exception {
    ObjectNode byUrl = crd("{\"strategy\":\"Webhook\"," + WEBHOOK_URL + "}", "");
    assertThat(causes(byUrl, null)).isEmpty();

    ObjectNode byService = crd("{\"strategy\":\"Webhook\",\"webhook\":{\"clientConfig\":{\"service\":"
        + "{\"namespace\":\"ns\",\"name\":\"hook\",\"path\":\"/convert/v1\"}},\"conversionReviewVersions\":[\"v1beta1\",\"v9\"]}}", "");
    assertThat(causes(byService, null)).isEmpty();
    assertThat(byService.at("/spec/conversion/webhook/clientConfig/service/port").asInt()).isEqualTo(443);
  }

  @Test
  void anUpdate_mayKeepReviewVersionsTheStoredDefinitionAlreadyHad_noneOfThemKnown() throws Exception {
    String conversion = "{\"strategy\":\"Webhook\",\"webhook\":{\"clientConfig\":{\"url\":\"https://a.example.com\"},"
        + "\"conversionReviewVersions\":[\"v9\"]}}";
    assertThat(causes(crd(conversion, ""), crd(conversion, ""))).isEmpty();
    assertThat(causes(crd(conversion, ""), crd("{\"strategy\":\"Webhook\"," + WEBHOOK_URL + "}", "")))
        .containsExactly("spec.conversion.conversionReviewVersions: Invalid value: []string{\"v9\"}: must include at "
            + "least one of v1, v1beta1");
  }
}
