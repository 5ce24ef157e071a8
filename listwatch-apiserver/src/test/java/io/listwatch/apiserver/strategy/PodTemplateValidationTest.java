package io.listwatch.apiserver.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.printers.PodTemplateTableConvertor;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube's validation of PodTemplates ({@code ValidatePodTemplate}, whose template cases are
 * kube's {@code TestValidatePodTemplateSpec*}), its defaults and generation, and the kind
 * served by the core.
 */
class PodTemplateValidationTest {

  private static final String PATH = "/api/v1/namespaces/default/podtemplates";

  private static String podTemplate(String labels, String spec) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"PodTemplate\",\"metadata\":{\"name\":\"pt\"},"
        + "\"template\":{\"metadata\":{\"labels\":{" + labels + "}},\"spec\":{" + spec + "}}}";
  }

  private static final String CONTAINERS = "\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]";

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "app":"web" | CONTAINERS
      ''          | CONTAINERS,"restartPolicy":"Never"
      "app":"web" | CONTAINERS,"restartPolicy":"OnFailure","activeDeadlineSeconds":30
      """)
  void valid(String labels, String spec) {
    assertThat(StrategyCases.create(new PodTemplateStrategy(), podTemplate(labels, spec.replace("CONTAINERS", CONTAINERS))))
        .isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      "app":"web"     | ''                                                                                   | template.spec.containers: Required value
      "a b":"web"     | CONTAINERS                                                                           | template.metadata.labels: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')
      "app":"web"     | CONTAINERS,"restartPolicy":"Sometimes"                                               | template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"
      "app":"web"     | CONTAINERS,"ephemeralContainers":[{"name":"debug","image":"busybox"}]                | template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template
      """)
  void invalid(String labels, String spec, String error) {
    assertThat(StrategyCases.create(new PodTemplateStrategy(), podTemplate(labels, spec.replace("CONTAINERS", CONTAINERS))))
        .contains(error);
  }

  @Test
  void aTemplateMissingAltogether_isRefusedForItsContainers() {
    assertThat(StrategyCases.create(new PodTemplateStrategy(), "{\"metadata\":{\"name\":\"pt\"}}"))
        .containsExactly("template.spec.containers: Required value");
  }

  @Test
  void tableRow_namesImagesAndPodLabels() {
    ObjectNode pt = InMemoryCore.json(podTemplate("\"b\":\"2\",\"a\":\"1\"",
        "\"containers\":[{\"name\":\"c1\",\"image\":\"nginx\"},{\"name\":\"c2\",\"image\":\"busybox\"}]"));
    assertThat(new PodTemplateTableConvertor().row(pt, Instant.EPOCH).cells())
        .containsExactly("pt", "c1,c2", "nginx,busybox", "a=1,b=2");
  }

  @Test
  void served_createdDefaulted_generationMovesWithTheTemplate() {
    try (InMemoryCore core = InMemoryCore.start()) {
      assertThat(core.send("POST", PATH, Map.of(), podTemplate("\"app\":\"web\"", CONTAINERS)).code()).isEqualTo(201);
      ObjectNode got = StrategyCases.body(core.send("GET", PATH + "/pt", Map.of(), null));
      assertThat(got.at("/metadata/generation").asLong()).isEqualTo(1);
      assertThat(got.at("/template/spec/restartPolicy").asText()).isEqualTo("Always");
      assertThat(got.at("/template/spec/containers/0/imagePullPolicy").asText()).isEqualTo("Always");

      got.with("metadata").putObject("labels").put("x", "y");
      ObjectNode labelled = StrategyCases.body(core.send("PUT", PATH + "/pt", Map.of(), got.toString()));
      assertThat(labelled.at("/metadata/generation").asLong()).isEqualTo(1);

      ((ObjectNode) labelled.at("/template/spec/containers/0")).put("image", "nginx:1.27");
      ObjectNode changed = StrategyCases.body(core.send("PUT", PATH + "/pt", Map.of(), labelled.toString()));
      assertThat(changed.at("/metadata/generation").asLong()).isEqualTo(2);

      changed.with("template").with("spec").putArray("containers");
      StatusException e = core.refusal("PUT", PATH + "/pt", Map.of(), changed.toString());
      assertThat(e.code()).isEqualTo(422);
      assertThat(e.getMessage()).isEqualTo("PodTemplate \"pt\" is invalid: template.spec.containers: Required value");
    }
  }
}
