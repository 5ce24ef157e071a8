package io.listwatch.apiserver.apiextensions.cel;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cel.common.types.CelType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import java.util.Map;

/**
 * One compiled CEL expression of kube's admission environment (a ValidatingAdmissionPolicy's
 * validations, messageExpressions, auditAnnotations, matchConditions and variables): kube's
 * {@code plugin/cel} compiler, on the same libraries as CRD rules ({@link KubeCelLibrary}).
 *
 * Compiled by an {@link AdmissionCompiler}, which says what the expression may refer to. Values
 * are given to {@link #evaluate} as CEL values ({@link #value} makes them from JSON).
 *
 * <p>Immutable and thread-safe: one compiled expression is evaluated concurrently.
 */
public final class AdmissionExpression {

  /** What an expression must evaluate to, as kube's {@code ExpressionAccessor.ReturnTypes}. */
  public enum ReturnType {
    /** validations and matchConditions. */
    BOOL("must evaluate to bool"),
    /** messageExpression. */
    STRING("must evaluate to string"),
    /** an auditAnnotation's valueExpression. */
    STRING_OR_NULL("must evaluate to one of [string null_type]"),
    /** variables. */
    ANY("");

    private final String mismatch;

    ReturnType(String mismatch) {
      this.mismatch = mismatch;
    }

    String mismatch() {
      return mismatch;
    }

    boolean accepts(CelType type) {
      return switch (this) {
        case BOOL -> type.equals(SimpleType.BOOL);
        case STRING -> type.equals(SimpleType.STRING);
        case STRING_OR_NULL -> type.equals(SimpleType.STRING) || type.equals(SimpleType.NULL_TYPE);
        case ANY -> true;
      };
    }
  }

  private final String text;
  private final CelRuntime.Program program;
  private final CelType resultType;

  AdmissionExpression(String text, CelRuntime.Program program, CelType resultType) {
    this.text = text;
    this.program = program;
    this.resultType = resultType;
  }

  /** The type the checker gave the expression's result. */
  CelType resultType() {
    return resultType;
  }

  /** The expression as written. */
  public String text() {
    return text;
  }

  /**
   * Evaluates the expression with {@code activation} (variable name to CEL value; a variable
   * left out is an error only if the expression reads it), within kube's per-call cost limit.
   *
   * @return the result as a CEL value ({@code Boolean}, {@code String}, CEL's null, ...)
   * @throws EvaluationError with the text kube shows ({@code no such key: replicas},
   *     {@code operation cancelled: actual cost limit exceeded}, ...)
   */
  public Object evaluate(Map<String, Object> activation) throws EvaluationError {
    RuntimeCost cost = new RuntimeCost(RuntimeCost.PER_CALL_LIMIT);
    try {
      return program.trace(activation, cost);
    } catch (RuntimeCost.LimitExceeded e) {
      throw new EvaluationError(e.getMessage());
    } catch (EvaluationError.Unchecked e) {
      throw new EvaluationError(e.getMessage());
    } catch (CelEvaluationException e) {
      for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
        if (c instanceof RuntimeCost.LimitExceeded || c instanceof EvaluationError.Unchecked) {
          throw new EvaluationError(c.getMessage());
        }
      }
      throw new EvaluationError(EvaluationErrors.describe(e));
    }
  }

  /** {@code json} as the CEL value kube's unstructured objects give ({@code dyn}); JSON null is CEL's null. */
  public static Object value(JsonNode json) {
    return CelValues.dyn(json);
  }

  /** CEL's null value, for a variable that is null ({@code oldObject} on create). */
  public static Object nullValue() {
    return dev.cel.common.values.NullValue.NULL_VALUE;
  }

  /** Whether {@code result} is CEL's null. */
  public static boolean isNull(Object result) {
    return result == null || result instanceof dev.cel.common.values.NullValue;
  }

  /** An expression that cannot be used, with kube's detail. */
  public static final class CompileError extends Exception {
    private static final long serialVersionUID = 1L;

    public CompileError(String detail) {
      super(detail, null, false, false);
    }
  }

  /** An evaluation that failed, with the text kube shows. */
  public static final class EvaluationError extends Exception {
    private static final long serialVersionUID = 1L;

    public EvaluationError(String message) {
      super(message, null, false, false);
    }

    /**
     * Thrown by a lazily computed value (a composited variable) while an expression reads it: the
     * expression's evaluation fails with this message.
     */
    public static final class Unchecked extends RuntimeException {
      private static final long serialVersionUID = 1L;

      public Unchecked(String message) {
        super(message, null, false, false);
      }
    }
  }
}
