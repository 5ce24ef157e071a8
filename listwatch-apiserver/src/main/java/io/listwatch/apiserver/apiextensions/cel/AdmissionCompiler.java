package io.listwatch.apiserver.apiextensions.cel;

import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.cel.bundle.Cel;
import dev.cel.bundle.CelBuilder;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import dev.cel.runtime.CelEvaluationException;
import io.listwatch.apiserver.apiextensions.cel.AdmissionExpression.CompileError;
import io.listwatch.apiserver.apiextensions.cel.AdmissionExpression.ReturnType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * kube's admission CEL compiler ({@code plugin/cel.Compiler}, and with variables its
 * {@code CompositedCompiler}) on the CRD rules' libraries ({@link KubeCelLibrary}). The variables
 * an expression sees, typed {@code dyn} as kube's unstructured objects are: {@code object},
 * {@code oldObject}, {@code request}, {@code namespaceObject}, and {@code params} when the policy
 * has a {@code paramKind}. A composited compiler also declares {@code variables}: a struct
 * whose fields are the variables compiled so far ({@link #compileVariable}), each typed as its
 * expression's result, so that an expression naming a later or unknown variable does not
 * compile ({@code undefined field 'foo'}), as in kube. kube's {@code authorizer} is not declared.
 *
 * <p>For type checking ({@link TypeChecker}) a compiler can instead declare {@code object} and
 * {@code oldObject} with the type of a kind's schema, and {@code params} with the paramKind's
 * ({@link #typed}), as kube's type checker does; {@code request} and {@code namespaceObject}
 * stay {@code dyn} there too (kube types them with hand-written types).
 *
 * <p>Confined to the thread compiling one policy; the expressions it makes are immutable.
 */
public final class AdmissionCompiler {

  private static final String VARIABLES_TYPE = "kubernetes.variables";
  private static final Map<Boolean, Cel> PLAIN = new java.util.concurrent.ConcurrentHashMap<>();

  private final boolean hasParams;
  private final boolean composited;
  /** The type of {@code object} and {@code oldObject}: {@code dyn} but when type checking. */
  private final CelType objectType;
  /** The type of {@code params} (when declared): {@code dyn} but when type checking. */
  private final CelType paramsType;
  /** The struct types of {@link #objectType} and {@link #paramsType}, or null when untyped. */
  private final CelTypeProvider schemaTypes;
  /** The variables declared so far, in order, with their types. */
  private final Map<String, CelType> variables = new LinkedHashMap<>();
  /** The environment with the current variables; null when a variable was added since. */
  private Cel environment;

  private AdmissionCompiler(boolean hasParams, boolean composited) {
    this(hasParams, composited, SimpleType.DYN, SimpleType.DYN, null);
  }

  private AdmissionCompiler(boolean hasParams, boolean composited, CelType objectType,
      CelType paramsType, CelTypeProvider schemaTypes) {
    this.hasParams = hasParams;
    this.composited = composited;
    this.objectType = objectType;
    this.paramsType = paramsType;
    this.schemaTypes = schemaTypes;
  }

  /**
   * A compiler for type checking, always composited: {@code object} and {@code oldObject} of
   * {@code objectType}, {@code params} of {@code paramsType} when it is present.
   *
   * @param schemaTypes resolves the struct types the two types are made of
   */
  static AdmissionCompiler typed(CelType objectType, Optional<CelType> paramsType,
      CelTypeProvider schemaTypes) {
    return new AdmissionCompiler(paramsType.isPresent(), true, objectType,
        paramsType.orElse(SimpleType.DYN), schemaTypes);
  }

  /**
   * A compiler for one policy's expressions.
   *
   * @param hasParams whether {@code params} is declared (the policy has a paramKind)
   * @param composited whether {@code variables} is declared (the policy has variables)
   */
  public static AdmissionCompiler of(boolean hasParams, boolean composited) {
    return new AdmissionCompiler(hasParams, composited);
  }

  /**
   * Compiles {@code text}, which must evaluate to {@code type}.
   *
   * @throws CompileError with kube's detail ({@code compilation failed: ...},
   *     {@code must evaluate to bool})
   */
  public AdmissionExpression compile(String text, ReturnType type) throws CompileError {
    Cel cel = environment();
    CelValidationResult compiled = cel.compile(text);
    if (compiled.hasError()) {
      throw new CompileError("compilation failed: " + compiled.getErrorString());
    }
    CelAbstractSyntaxTree ast;
    try {
      ast = compiled.getAst();
    } catch (CelValidationException e) {
      throw new CompileError("compilation failed: " + e.getMessage());
    }
    if (!type.accepts(ast.getResultType())) {
      throw new CompileError(type.mismatch());
    }
    try {
      return new AdmissionExpression(text, cel.createProgram(ast), ast.getResultType());
    } catch (CelEvaluationException e) {
      throw new CompileError("program instantiation failed: " + e.getMessage());
    }
  }

  /**
   * Compiles the variable {@code name} and declares it for the expressions compiled after it
   * (typed {@code dyn} when it does not compile).
   */
  public AdmissionExpression compileVariable(String name, String text) throws CompileError {
    try {
      AdmissionExpression e = compile(text, ReturnType.ANY);
      declare(name, e.resultType());
      return e;
    } catch (CompileError e) {
      declare(name, SimpleType.DYN);
      throw e;
    }
  }

  /**
   * Type checks {@code text} as kube's type checker does: no result type is required and no
   * program is made. Returns the checker's issues (cel-go's {@code ERROR: <input>:1:7: ...}
   * form), or empty when it checks.
   */
  Optional<String> check(String text) {
    CelValidationResult compiled = environment().compile(text);
    return compiled.hasError() ? Optional.of(compiled.getErrorString()) : Optional.empty();
  }

  /**
   * Declares the variable {@code name} typed as {@code text}'s result, or {@code dyn} when it
   * does not check (kube's {@code CompileAndStoreVariables} in the type checker).
   */
  void declareChecked(String name, String text) {
    CelValidationResult compiled = environment().compile(text);
    CelType type = SimpleType.DYN;
    if (!compiled.hasError()) {
      try {
        type = compiled.getAst().getResultType();
      } catch (CelValidationException e) {
        type = SimpleType.DYN;
      }
    }
    declare(name, type);
  }

  private void declare(String name, CelType type) {
    variables.put(name, type);
    environment = null;
  }

  private Cel environment() {
    if (!composited) {
      return PLAIN.computeIfAbsent(hasParams, p -> base(p, SimpleType.DYN, SimpleType.DYN).build());
    }
    if (environment == null) {
      Map<String, CelType> fields = Map.copyOf(variables);
      StructType type = StructType.create(VARIABLES_TYPE, ImmutableSet.copyOf(variables.keySet()),
          f -> Optional.ofNullable(fields.get(f)));
      CelTypeProvider schemas = schemaTypes;
      environment = base(hasParams, objectType, paramsType)
          .setTypeProvider(new CelTypeProvider() {
            @Override
            public ImmutableCollection<CelType> types() {
              return schemas == null ? ImmutableList.of(type)
                  : ImmutableList.<CelType>builder().add(type).addAll(schemas.types()).build();
            }

            @Override
            public Optional<CelType> findType(String typeName) {
              if (typeName.equals(VARIABLES_TYPE)) {
                return Optional.of(type);
              }
              return schemas == null ? Optional.empty() : schemas.findType(typeName);
            }
          })
          .addVar("variables", type)
          .build();
    }
    return environment;
  }

  /**
   * cel-go's checker lets a conditional join a string with {@code null} (kube's documented
   * audit annotation {@code cond ? 'text' : null}); CEL-Java's does not, so the admission
   * environment declares those two forms of {@code _?_:_}, under the standard overload's id
   * ({@code conditional}) so that the runtime evaluates them as every conditional: lazily, only
   * the branch taken.
   */
  private static final CelFunctionDecl STRING_OR_NULL_CONDITIONAL = CelFunctionDecl.newFunctionDeclaration("_?_:_",
      CelOverloadDecl.newGlobalOverload("conditional", SimpleType.STRING, SimpleType.BOOL,
          SimpleType.STRING, SimpleType.NULL_TYPE),
      CelOverloadDecl.newGlobalOverload("conditional", SimpleType.STRING, SimpleType.BOOL,
          SimpleType.NULL_TYPE, SimpleType.STRING));

  private static CelBuilder base(boolean hasParams, CelType objectType, CelType paramsType) {
    CelBuilder b = KubeCelLibrary.BASE.toCelBuilder().addFunctionDeclarations(STRING_OR_NULL_CONDITIONAL);
    for (String name : List.of("object", "oldObject")) {
      b.addVar(name, objectType);
    }
    for (String name : List.of("request", "namespaceObject")) {
      b.addVar(name, SimpleType.DYN);
    }
    if (hasParams) {
      b.addVar("params", paramsType);
    }
    return b;
  }
}
