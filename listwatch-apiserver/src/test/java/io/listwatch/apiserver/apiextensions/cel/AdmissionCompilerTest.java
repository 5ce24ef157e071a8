package io.listwatch.apiserver.apiextensions.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.listwatch.apiserver.InMemoryCore;
import io.listwatch.apiserver.apiextensions.cel.AdmissionExpression.ReturnType;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** kube's admission CEL environment: what compiles, with which result types, and evaluation errors. */
class AdmissionCompilerTest {

  private static Map<String, Object> object(String json) {
    return Map.of("object", AdmissionExpression.value(InMemoryCore.json(json)));
  }

  @Test
  void auditAnnotationValue_mayBeAStringOrNull_asInKubesDocs() throws Exception {
    AdmissionExpression e = AdmissionCompiler.of(false, false).compile(
        "object.spec.replicas > 50 ? 'Deployment spec.replicas set to ' + string(object.spec.replicas) : null",
        ReturnType.STRING_OR_NULL);
    assertThat(e.evaluate(object("{\"spec\":{\"replicas\":60}}"))).isEqualTo("Deployment spec.replicas set to 60");
    assertThat(AdmissionExpression.isNull(e.evaluate(object("{\"spec\":{\"replicas\":6}}")))).isTrue();

    AdmissionCompiler c = AdmissionCompiler.of(false, false);
    AdmissionExpression lazy = c.compile(
        "!has(object.spec.replicas) ? null : 'n=' + string(object.spec.replicas)", ReturnType.STRING_OR_NULL);
    assertThat(AdmissionExpression.isNull(lazy.evaluate(object("{\"spec\":{}}")))).as("the other branch is not evaluated")
        .isTrue();
    assertThat(lazy.evaluate(object("{\"spec\":{\"replicas\":2}}"))).isEqualTo("n=2");
    assertThat(c.compile("object.x == 1 ? 1 : 2", ReturnType.ANY).evaluate(object("{\"x\":1}"))).isEqualTo(1L);
    assertThat(c.compile("object.x == 1 ? 'a' : 'b'", ReturnType.STRING).evaluate(object("{\"x\":2}"))).isEqualTo("b");
  }

  @Test
  void variables_areTypedByTheirExpressions_andOnlyEarlierOnesAreSeen() throws Exception {
    AdmissionCompiler c = AdmissionCompiler.of(false, true);
    c.compileVariable("exempt", "object.metadata.name == 'x'");
    assertThat(c.compile("variables.exempt", ReturnType.BOOL).text()).isEqualTo("variables.exempt");
    var e = catchThrowableOfType(AdmissionExpression.CompileError.class,
        () -> c.compile("variables.later", ReturnType.BOOL));
    assertThat(e.getMessage()).startsWith("compilation failed: ERROR: <input>:1:10: undefined field 'later'");
  }

  @Test
  void params_areDeclaredOnlyWithAParamKind() {
    var e = catchThrowableOfType(AdmissionExpression.CompileError.class,
        () -> AdmissionCompiler.of(false, false).compile("params.x == 1", ReturnType.BOOL));
    assertThat(e.getMessage()).contains("undeclared reference to 'params'");
  }

  @Test
  void evaluationErrors_readAsCelGosText() throws Exception {
    AdmissionExpression e = AdmissionCompiler.of(false, false).compile("object.spec.missing <= 5", ReturnType.BOOL);
    var error = catchThrowableOfType(AdmissionExpression.EvaluationError.class,
        () -> e.evaluate(object("{\"spec\":{}}")));
    assertThat(error.getMessage()).isEqualTo("no such key: missing");
  }
}
