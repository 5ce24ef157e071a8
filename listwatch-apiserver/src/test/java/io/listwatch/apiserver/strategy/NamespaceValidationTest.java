package io.listwatch.apiserver.strategy;

import static io.listwatch.apiserver.strategy.StrategyCases.causes;
import static org.assertj.core.api.Assertions.assertThat;

import io.listwatch.api.StatusException;
import io.listwatch.apiserver.InMemoryCore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** kube's {@code TestValidateNamespace}, {@code ...FinalizeUpdate} and {@code ...StatusUpdate} cases. */
class NamespaceValidationTest {

  private static final String NS = "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"team\"}%s}";

  private final NamespaceStrategy strategy = new NamespaceStrategy();

  @ParameterizedTest
  @CsvSource(delimiter = '|', textBlock = """
      ["kubernetes","orphan","foregroundDeletion","example.com/f"] |
      ["foo"]            | spec.finalizers: Invalid value: "foo": name is neither a standard finalizer name nor is it fully qualified
      ["example.com/a b"] | spec.finalizers: Invalid value: "example.com/a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')
      """)
  void finalizers(String finalizers, String cause) {
    assertThat(causes(strategy, "{\"spec\":{\"finalizers\":" + finalizers + "}}"))
        .containsExactlyElementsOf(cause == null ? List.of() : List.of(cause));
  }

  @Test
  void endToEnd_finalizeIndexesItsErrors_andStatusPhaseFollowsDeletion() {
    try (InMemoryCore core = InMemoryCore.start()) {
      StatusException create = core.refusal("POST", "/api/v1/namespaces", Map.of(), NS.formatted(",\"spec\":{\"finalizers\":[\"foo\"]}"));
      assertThat(create.getMessage()).isEqualTo(
          "Namespace \"team\" is invalid: spec.finalizers: Invalid value: \"foo\": name is neither a standard finalizer name nor is it fully qualified");

      core.send("POST", "/api/v1/namespaces", Map.of(), NS.formatted(""));
      StatusException finalize = core.refusal("PUT", "/api/v1/namespaces/team/finalize", Map.of(),
          NS.formatted(",\"spec\":{\"finalizers\":[\"kubernetes\",\"bar\"]}"));
      assertThat(finalize.code()).isEqualTo(422);
      assertThat(StrategyCases.lines(finalize.status().details().causes())).containsExactly(
          "spec.finalizers[1]: Invalid value: \"bar\": name is neither a standard finalizer name nor is it fully qualified");

      StatusException status = core.refusal("PUT", "/api/v1/namespaces/team/status", Map.of(),
          NS.formatted(",\"status\":{\"phase\":\"Terminating\"}"));
      assertThat(StrategyCases.lines(status.status().details().causes())).containsExactly(
          "status.Phase: Invalid value: \"Terminating\": may only be 'Active' if `deletionTimestamp` is empty");

      // a main-resource update keeps the stored status (kube's strategy), whatever it sends
      var updated = StrategyCases.body(core.send("PUT", "/api/v1/namespaces/team", Map.of(),
          NS.formatted(",\"status\":{\"phase\":\"Terminating\"}")));
      assertThat(updated.path("status").path("phase").asText()).isEqualTo("Active");
    }
  }
}
