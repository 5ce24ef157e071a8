package io.listwatch.server.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.server.openapi.FieldValidation.Directive;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FieldValidationTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final FieldValidation.Catalog CATALOG =
      new FieldValidation.Catalog(ProtoSchemas.builtins(PatchMetadata.NONE));
  private static final FieldValidation PODS = CATALOG.forKind("", "v1", "Pod").orElseThrow();
  private static final FieldValidation CONFIG_MAPS = CATALOG.forKind("", "v1", "ConfigMap").orElseThrow();

  private static final String BAD_POD = """
      {"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","name":"b","labels":{"any":"label"}},
       "spec":{"foo":1,"containers":[{"name":"main","image":"nginx","bar":{"x":1}}]}}""";

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static ObjectNode parse(String s) throws Exception {
    return (ObjectNode) JSON.readTree(s);
  }

  @Test
  void strict_rejectsUnknownAndDuplicateFields_inDocumentOrder_withKubesMessage() throws Exception {
    ObjectNode pod = parse(BAD_POD);

    assertThatThrownBy(() -> PODS.checkObject(Directive.STRICT, bytes(BAD_POD), pod))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.code()).isEqualTo(400);
          assertThat(e.reason()).isEqualTo("BadRequest");
          assertThat(e.getMessage()).isEqualTo("Pod in version \"v1\" cannot be handled as a Pod: strict decoding "
              + "error: duplicate field \"metadata.name\", unknown field \"spec.foo\", "
              + "unknown field \"spec.containers[0].bar\"");
        });
  }

  @Test
  void warn_returnsOneWarningPerField_andPrunesUnknownFields_lastDuplicateWins() throws Exception {
    ObjectNode pod = parse(BAD_POD);

    var warnings = PODS.checkObject(Directive.WARN, bytes(BAD_POD), pod);

    assertThat(warnings).containsExactly("duplicate field \"metadata.name\"", "unknown field \"spec.foo\"",
        "unknown field \"spec.containers[0].bar\"");
    assertThat(pod.path("metadata").path("name").asText()).isEqualTo("b");
    assertThat(pod.path("spec").has("foo")).isFalse();
    assertThat(pod.path("spec").path("containers").get(0).has("bar")).isFalse();
    assertThat(pod.path("spec").path("containers").get(0).path("image").asText()).isEqualTo("nginx");
    assertThat(pod.path("metadata").path("labels").path("any").asText()).isEqualTo("label");
  }

  @Test
  void ignore_saysNothing_butStillPrunes() throws Exception {
    ObjectNode pod = parse(BAD_POD);

    assertThat(PODS.checkObject(Directive.IGNORE, bytes(BAD_POD), pod)).isEmpty();
    assertThat(pod.path("spec").has("foo")).isFalse();
  }

  @Test
  void validBody_passesStrict_unchanged() throws Exception {
    String body = """
        {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","annotations":{"a":"b"},
         "managedFields":[{"manager":"kubectl","fieldsV1":{"f:data":{"f:anything":{}}}}]},
         "data":{"k":"v"},"binaryData":{"b":"AAE="}}""";
    ObjectNode cm = parse(body);

    assertThat(CONFIG_MAPS.checkObject(Directive.STRICT, bytes(body), cm)).isEmpty();
    assertThat(cm).isEqualTo(parse(body));
  }

  @Test
  void patch_strictNamesDuplicatesOfThePatch_andUnknownFieldsOfTheResult() throws Exception {
    String patch = "{\"data\":{\"k\":\"1\",\"k\":\"2\"},\"colour\":\"red\"}";
    ObjectNode patched = parse("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"},"
        + "\"data\":{\"k\":\"2\"},\"colour\":\"red\"}");

    assertThatThrownBy(() -> CONFIG_MAPS.checkPatched(Directive.STRICT, bytes(patch), patched))
        .hasMessage("strict decoding error: duplicate field \"data.k\", unknown field \"colour\"");
    assertThat(CONFIG_MAPS.checkPatched(Directive.WARN, bytes(patch), patched))
        .containsExactly("duplicate field \"data.k\"", "unknown field \"colour\"");
    assertThat(patched.has("colour")).isFalse();
  }

  @Test
  void directive_absentIsWarn_andAnUnknownValueIsInvalid() {
    assertThat(Directive.parse("", "CreateOptions")).isEqualTo(Directive.WARN);
    assertThat(Directive.parse("Strict", "CreateOptions")).isEqualTo(Directive.STRICT);
    assertThat(Directive.parse("Ignore", "CreateOptions")).isEqualTo(Directive.IGNORE);
    assertThatThrownBy(() -> Directive.parse("strict", "PatchOptions"))
        .isInstanceOfSatisfying(StatusException.class, e -> {
          assertThat(e.code()).isEqualTo(422);
          assertThat(e.getMessage()).isEqualTo("PatchOptions.meta.k8s.io \"\" is invalid: fieldValidation: "
              + "Unsupported value: \"strict\": supported values: \"Ignore\", \"Strict\", \"Warn\"");
        });
  }

  @Test
  void kindsWithoutASchema_haveNoValidation() {
    assertThat(CATALOG.forKind("example.com", "v1", "Widget")).isEmpty();
  }
}
